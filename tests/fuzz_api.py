"""A fuzz harness for ecarte's public API: hostile arguments for every entry point.

It counts, per category, the calls that went wrong:

- ``panic``: a Rust panic reached Python (``PanicException``);
- ``untyped``: an error that is neither an ``EcarteError`` nor a ``TypeError`` (an
  ``OverflowError``, ``AttributeError``, ``IndexError``, ``RecursionError``,
  ``UnicodeEncodeError``, a bare ``ValueError``, ...);
- ``changed``: a refused call changed the object it was called on;
- ``nondeterministic``: the same seed gave two results;
- ``tampered``: a tampered record was accepted and did not re-serialise to itself.

Aborts and hangs cannot be counted from inside: ``tests/test_fuzz_api.py`` runs this module
in a child process with a time limit, and the last ``case`` line it printed names the culprit.

Run it as ``python tests/fuzz_api.py [--cases N] [--seed S]``; it prints one JSON line of
counts last and exits 1 when any count is not 0.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import ecarte
import numpy as np
from ecarte import bank, duel
from ecarte.agents import make_agent
from ecarte.errors import EcarteError, InvalidRecordError
from ecarte.pimc import PimcAgent

#: Values no argument should choke on.
HOSTILE: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    -(2**63),
    2**63,
    2**64 - 1,
    2**64,
    2**64 - 2,
    10**30,
    -(10**30),
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x",
    "QH",
    "pimc:²",
    "pimc:0",
    "pimc:99999999",
    "\udcff",
    "Q\udcffH",
    "٣",
    b"QH",
    [],
    [1, 2, 3],
    [2**64, -1],
    {},
    {"a": 1},
    (1, 2, 3),
    (2**64, 0),
    object(),
    np.int64(3),
    np.uint64(2**64 - 1),
    np.float32(1.0),
    np.array([1, 2]),
    np.array([[1]]),
    "[" * 5000,
    "{" * 5000,
]

ALLOWED = (EcarteError, TypeError)


def fresh_deal() -> duel.Deal:
    deal = duel.Deal(seed=7)
    for _ in range(3):
        deal.apply(deal.legal_actions()[0])
    return deal


def near_end() -> duel.Deal:
    """A deal three actions before its end: even a full perft is small."""
    deal = duel.Deal(seed=5)
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    for _ in range(3):
        deal.undo()
    return deal


def play_deal() -> duel.Deal:
    deal = duel.Deal(seed=3, rules=duel.Rules(max_exchanges=0))
    deal.apply("decline")
    return deal


def entry_points() -> list[tuple[str, Callable[[Any], Any]]]:
    """``(name, call)``: each call puts its argument in one position, the rest valid."""
    obs = fresh_deal().observation(1)
    pack = ecarte.duel_pack()
    return [
        ("Card", lambda x: ecarte.Card(x)),
        ("Card.parse", lambda x: ecarte.Card.parse(x)),
        ("Card.from_id", lambda x: ecarte.Card.from_id(x)),
        ("Action", lambda x: duel.Action(x)),
        ("Action.parse", lambda x: duel.Action.parse(x)),
        ("Action.from_id", lambda x: duel.Action.from_id(x)),
        ("Rules(order)", lambda x: duel.Rules(order=x)),
        ("Rules(max_exchanges)", lambda x: duel.Rules(max_exchanges=x)),
        ("Rules(target)", lambda x: duel.Rules(target=x)),
        ("Rules.replace", lambda x: duel.Rules().replace(target=x)),
        ("Rules.from_json", lambda x: duel.Rules.from_json(x)),
        ("Deal(seed)", lambda x: duel.Deal(seed=x)),
        ("Deal(dealer)", lambda x: duel.Deal(seed=1, dealer=x)),
        ("Deal(rules)", lambda x: duel.Deal(seed=1, rules=x)),
        ("Deal.from_deck", lambda x: duel.Deal.from_deck(x)),
        ("Deal.from_json", lambda x: duel.Deal.from_json(x)),
        ("Deal.hand", lambda x: fresh_deal().hand(x)),
        ("Deal.discards", lambda x: fresh_deal().discards(x)),
        ("Deal.observation", lambda x: fresh_deal().observation(x)),
        ("Deal.observation(score)", lambda x: fresh_deal().observation(0, score=x)),
        ("Deal.observation_tensor", lambda x: fresh_deal().observation_tensor(x)),
        ("Deal.observation_tensor(out)", lambda x: fresh_deal().observation_tensor(0, out=x)),
        ("Deal.is_legal", lambda x: fresh_deal().is_legal(x)),
        ("Deal.perft", lambda x: near_end().perft(x)),
        ("Observation.from_json", lambda x: duel.Observation.from_json(x)),
        ("Outcome.from_json", lambda x: duel.Outcome.from_json(x)),
        ("Trick.from_json", lambda x: duel.Trick.from_json(x)),
        ("Match(target)", lambda x: duel.Match(target=x, seed=1)),
        ("Match(first_dealer)", lambda x: duel.Match(first_dealer=x, seed=1)),
        ("Match(seed)", lambda x: duel.Match(seed=x)),
        ("Match(rules)", lambda x: duel.Match(seed=1, rules=x)),
        ("Match.from_json", lambda x: duel.Match.from_json(x)),
        ("Match.observation", lambda x: duel.Match(seed=1).observation(x)),
        ("simulate(n)", lambda x: duel.simulate(x, seed=1)),
        ("simulate(seed)", lambda x: duel.simulate(2, seed=x)),
        ("simulate(agents)", lambda x: duel.simulate(2, seed=1, agents=x)),
        ("simulate(agent)", lambda x: duel.simulate(2, seed=1, agents=(x, "random"))),
        ("simulate(start)", lambda x: duel.simulate(2, seed=1, start=x)),
        ("simulate(threads)", lambda x: duel.simulate(2, seed=1, threads=x)),
        ("simulate(rules)", lambda x: duel.simulate(2, seed=1, rules=x)),
        ("VecEnv(n)", lambda x: duel.VecEnv(x, seed=1)),
        ("VecEnv(seed)", lambda x: duel.VecEnv(2, seed=x)),
        ("VecEnv.deal", lambda x: duel.VecEnv(2, seed=1).deal(x)),
        ("sample_worlds(n)", lambda x: duel.sample_worlds(obs, x, 1)),
        ("sample_worlds(seed)", lambda x: duel.sample_worlds(obs, 1, x)),
        ("sample_worlds(obs)", lambda x: duel.sample_worlds(x, 1, 1)),
        ("pimc_values(samples)", lambda x: duel.pimc_values(obs, x, 1)),
        ("pimc_values(seed)", lambda x: duel.pimc_values(obs, 2, x)),
        ("PimcAgent(samples)", lambda x: PimcAgent(samples=x, seed=1)),
        ("PimcAgent(seed)", lambda x: PimcAgent(samples=2, seed=x)),
        ("solve", lambda x: duel.solve(x)),
        ("solve(objective)", lambda x: duel.solve(play_deal(), objective=x)),
        ("solve_many", lambda x: duel.solve_many(x)),
        ("action_values(objective)", lambda x: duel.action_values(play_deal(), x)),
        ("heuristic_action", lambda x: duel.heuristic_action(obs, x)),
        ("parse_agent", lambda x: duel.parse_agent(x)),
        ("make_agent", lambda x: make_agent(x, seed=1)),
        ("make_agent(seed)", lambda x: make_agent("random", seed=x)),
        ("derive_seed(seed)", lambda x: ecarte.derive_seed(x, 1)),
        ("derive_seed(index)", lambda x: ecarte.derive_seed(1, x)),
        ("shuffled(cards)", lambda x: ecarte.shuffled(x, 1)),
        ("shuffled(seed)", lambda x: ecarte.shuffled(pack, x)),
        ("bank.resolve(trump)", lambda x: bank.resolve(["QH"], ["KH"], x)),
        ("bank.resolve(cards)", lambda x: bank.resolve(x, ["KH"], "H")),
        ("bank.odds", lambda x: bank.odds(x)),
        ("bank.simulate(n)", lambda x: bank.simulate(x, seed=1)),
        ("bank.simulate(seed)", lambda x: bank.simulate(3, seed=x)),
        ("bank.simulate(threads)", lambda x: bank.simulate(3, seed=1, threads=x)),
        ("bank.simulate(shoe)", lambda x: bank.simulate(3, seed=1, shoe=x)),
        ("bank.Shoe(seed)", lambda x: bank.Shoe(seed=x)),
        ("bank.deal_from_shoe", lambda x: bank.deal_from_shoe(x)),
        ("bank.Table(bank)", lambda x: bank.Table(["a", "b"], bank=x, seed=1)),
        ("bank.Table(chips)", lambda x: bank.Table(["a", "b"], chips=x, seed=1)),
        ("bank.Table(seed)", lambda x: bank.Table(["a", "b"], seed=x)),
        ("bank.Table(players)", lambda x: bank.Table(x, seed=1)),
        ("bank.Table.from_json", lambda x: bank.Table.from_json(x)),
    ]


def mutators() -> list[
    tuple[str, Callable[[], Any], Callable[[Any, Any], Any], Callable[[Any], Any]]
]:
    """``(name, make, call, snapshot)``: a refused ``call(obj, x)`` must leave
    ``snapshot(obj)`` as it was."""
    return [
        ("Deal.apply", fresh_deal, lambda d, x: d.apply(x), lambda d: d.to_json()),
        ("Deal.undo", lambda: duel.Deal(seed=2), lambda d, x: d.undo(), lambda d: d.to_json()),
        ("Match.apply", lambda: duel.Match(seed=3), lambda m, x: m.apply(x), lambda m: m.to_json()),
        (
            "VecEnv.step",
            lambda: duel.VecEnv(2, seed=1),
            lambda e, x: e.step(x),
            lambda e: [e.deal(i).to_json() for i in range(2)],
        ),
        ("Table.stake", _staking_table, lambda t, x: t.stake("b", 2, x), lambda t: t.to_json()),
        (
            "Table.stake(tableau)",
            _staking_table,
            lambda t, x: t.stake("b", x, 10),
            lambda t: t.to_json(),
        ),
        (
            "Table.stake(player)",
            _staking_table,
            lambda t, x: t.stake(x, 2, 10),
            lambda t: t.to_json(),
        ),
        (
            "Table.shuffle_rest",
            _staking_table,
            lambda t, x: t.shuffle_rest(x),
            lambda t: t.to_json(),
        ),
        (
            "Table.restake_bank",
            _staking_table,
            lambda t, x: t.restake_bank(x),
            lambda t: t.to_json(),
        ),
    ]


def _staking_table() -> bank.Table:
    table = bank.Table(["a", "b", "c"], bank=50, fixed_stake=10, chips=100, seed=7)
    table.deal()
    return table


def records() -> list[tuple[str, str, Callable[[str], Any]]]:
    """``(name, record, load)``: valid records to tamper with."""
    deal = fresh_deal()
    match = duel.Match(seed=4, rules=duel.Rules(target=2))
    while not match.is_over():
        match.apply(match.legal_actions()[-1])
    table = _staking_table()
    table.stake("b", 2, 10)
    return [
        ("deal", deal.to_json(), duel.Deal.from_json),
        ("match", match.to_json(), duel.Match.from_json),
        ("observation", deal.observation(0).to_json(), duel.Observation.from_json),
        ("rules", duel.Rules(target=5).to_json(), duel.Rules.from_json),
        ("table", table.to_json(), bank.Table.from_json),
    ]


def tamper(record: Any, rng: random.Random) -> Any:
    """One random change somewhere in a JSON value."""
    if isinstance(record, dict) and record:
        key = rng.choice(sorted(record))
        choice = rng.random()
        out = dict(record)
        if choice < 0.15:
            del out[key]
        elif choice < 0.25:
            out["unknown_" + key] = 1
        elif choice < 0.65:
            out[key] = tamper(record[key], rng)
        else:
            out[key] = rng.choice(JSON_HOSTILE)
        return out
    if isinstance(record, list) and record:
        out_list = list(record)
        i = rng.randrange(len(out_list))
        choice = rng.random()
        if choice < 0.2:
            del out_list[i]
        elif choice < 0.3:
            out_list.append(copy.deepcopy(out_list[i]))
        elif choice < 0.7:
            out_list[i] = tamper(out_list[i], rng)
        else:
            out_list[i] = rng.choice(JSON_HOSTILE)
        return out_list
    return rng.choice(JSON_HOSTILE)


JSON_HOSTILE: list[Any] = [
    None,
    True,
    1.0,
    1.5,
    -1,
    0,
    2,
    2**64,
    10**40,
    "",
    "5",
    "QH",
    "\u00e9",
    [],
    {},
    [[[]]],
    float("inf"),
    "ecarte.duel.deal",
]


def classify(exc: BaseException) -> str | None:
    """The category of a raised exception, or None when it is allowed."""
    if type(exc).__name__ == "PanicException":
        return "panic"
    if isinstance(exc, ALLOWED):
        return None
    return "untyped"


def run(cases: int, seed: int, out: Any = sys.stdout) -> Counter[str]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter(
        {k: 0 for k in ("panic", "untyped", "changed", "nondeterministic", "tampered")}
    )
    seen: set[tuple[str, str]] = set()

    def report(category: str, name: str, arg: Any, exc: BaseException | None) -> None:
        counts[category] += 1
        key = (category, name)
        if key not in seen:
            seen.add(key)
            detail = f"{type(exc).__name__}: {exc}"[:200] if exc else ""
            print(f"FOUND {category} {name}({_short(arg)}) {detail}", file=out, flush=True)

    points = entry_points()
    for name, call in points:
        for arg in HOSTILE:
            print(f"case {name} {_short(arg)}", file=out, flush=True)
            try:
                call(arg)
            except BaseException as exc:  # the harness sorts every error
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                category = classify(exc)
                if category:
                    report(category, name, arg, exc)
    for name, make, call, snapshot in mutators():
        for arg in HOSTILE:
            print(f"case {name} {_short(arg)}", file=out, flush=True)
            obj = make()
            before = snapshot(obj)
            try:
                call(obj, arg)
            except BaseException as exc:
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                category = classify(exc)
                if category:
                    report(category, name, arg, exc)
                if snapshot(obj) != before:
                    report("changed", name, arg, exc)
    for name, text, load in records():
        base = json.loads(text)
        for _ in range(cases):
            mutated = tamper(base, rng)
            if mutated == base:
                continue
            try:
                dumped = json.dumps(mutated)
            except (ValueError, OverflowError):
                continue
            print(f"case tamper {name} {dumped[:80]}", file=out, flush=True)
            try:
                obj = load(dumped)
            except InvalidRecordError:
                continue
            except BaseException as exc:
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                report(classify(exc) or "tampered", f"{name} record", dumped[:80], exc)
                continue
            if json.loads(obj.to_json()) != mutated:
                report("tampered", f"{name} record", dumped[:80], None)
    for name, make_result in determinism_checks(rng, cases):
        print(f"case determinism {name}", file=out, flush=True)
        if make_result() != make_result():
            report("nondeterministic", name, None, None)
    return counts


def determinism_checks(rng: random.Random, cases: int) -> Iterator[tuple[str, Callable[[], Any]]]:
    obs = fresh_deal().observation(1)
    for _ in range(max(1, cases // 20)):
        seed = rng.getrandbits(64)
        yield "simulate", lambda s=seed: duel.simulate(40, seed=s, agents=("heuristic", "random"))
        yield (
            "simulate threads",
            lambda s=seed: duel.simulate(40, seed=s, threads=rng.choice([1, 2])),
        )
        yield "sample_worlds", lambda s=seed: [d.to_json() for d in duel.sample_worlds(obs, 4, s)]
        yield (
            "bank.simulate",
            lambda s=seed: bank.simulate(5000, seed=s, threads=rng.choice([1, 2])),
        )
        yield (
            "PimcAgent",
            lambda s=seed: PimcAgent(samples=2, seed=s)(obs, fresh_deal().legal_actions()),
        )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200, help="tampered records per kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    counts = run(args.cases, args.seed)
    print(json.dumps(dict(counts)), flush=True)
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
