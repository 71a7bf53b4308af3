"""The fixed decision set: search agents' decisions recorded once, to check that faster code
decides the same, and to time the agents on the same observations.

    python benches/decision_set.py make PATH            # record this build's values
    python benches/decision_set.py check PATH [EVERY]   # compare this build with PATH
    python benches/decision_set.py time PATH SPEC...    # CPU seconds per decision
    python benches/decision_set.py time PATH --deals 30 SPEC...  # of the first 30 deals
    python benches/decision_set.py dump PATH OUT        # JSON lines for decision_profile.rs
    python benches/decision_set.py spread PATH SPEC...  # how each weights its worlds

The set is every decision of fixed deals: 70 deals played by the heuristic in both seats
and 30 by the expert against PIMC(24) (both phases, forced moves included), each with a
fixed seed and 24 worlds. ``make`` records, for each, ``pimc_values`` and
``expert_values`` (the native evaluators, so the agents' way of deriving a decision's seed
does not enter). The file is gzip'd JSON lines: one line per deal (its deck, dealer and
actions) holding its decisions (the action index, the seed and both evaluators' values).

``time`` replays the decisions (those of the first N deals with ``--deals N``: the first
70 are the heuristic's) and times ``make_agent(SPEC, 1)(observation, legal)`` on each, in
CPU seconds of the process (run it with ``RAYON_NUM_THREADS=1`` for one core), and prints
the mean, median, p90 and p99 by phase and over all.

``spread`` asks each search agent (``duel.inference_spread``, the agent's seed 1) how it
weights its worlds at each decision: the share of decisions where it weights them at all,
and there the mean effective sample size of its pool of candidate worlds, and that as a
share of the pool.
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ecarte.agents import make_agent
from ecarte.duel import (
    Action,
    Deal,
    Observation,
    expert_values,
    inference_spread,
    pimc_values,
)

SAMPLES = 24
HEURISTIC_DEALS = 70
SEARCH_DEALS = 30
FIRST_SEED = 24_000


@dataclass(frozen=True)
class Decision:
    """One recorded decision: the observation of the player to move, its legal actions,
    the evaluators' seed and phase, and the recorded values (action id, value)."""

    observation: Observation
    legal: list[Action]
    phase: str
    seed: int
    pimc: list[tuple[int, float]]
    expert: list[tuple[int, float]]


def played_deals() -> Iterator[Deal]:
    """The set's deals, each played to its end."""
    for i in range(HEURISTIC_DEALS + SEARCH_DEALS):
        deal = Deal(seed=FIRST_SEED + i, dealer=i % 2)
        if i < HEURISTIC_DEALS:
            seats = (make_agent("heuristic", i), make_agent("heuristic", i))
        else:
            seats = (make_agent("expert", i), make_agent("pimc", i))
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            deal.apply(seats[player](deal.observation(player), deal.legal_actions()))
        yield deal


def values(pairs: list[tuple[Action, float]]) -> list[tuple[int, float]]:
    return [(a.id, v) for a, v in pairs]


def make(path: Path) -> None:
    lines = []
    index = 0
    for deal in played_deals():
        replay = Deal.from_deck(deal.deck, dealer=deal.dealer)
        decisions = []
        for at, action in enumerate(deal.history):
            player = replay.current_player
            assert player is not None
            obs = replay.observation(player)
            seed = 1_000_003 * index + 7
            index += 1
            decisions.append(
                {
                    "at": at,
                    "seed": seed,
                    "pimc": values(pimc_values(obs, SAMPLES, seed)),
                    "expert": values(expert_values(obs, SAMPLES, seed)),
                }
            )
            replay.apply(action)
        record = {
            "deck": " ".join(str(c) for c in deal.deck),
            "dealer": deal.dealer,
            "actions": [str(a) for a in deal.history],
            "decisions": decisions,
        }
        lines.append(json.dumps(record, separators=(",", ":")))
    with gzip.open(path, "wt") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{index} decisions written to {path}")


def load(path: Path, every: int = 1, deals: int | None = None) -> Iterator[Decision]:
    """The recorded decisions, every `every`-th of them, of the first `deals` deals."""
    index = 0
    with gzip.open(path, "rt") as lines:
        for number, line in enumerate(lines):
            if deals is not None and number >= deals:
                return
            record = json.loads(line)
            deal = Deal.from_deck(record["deck"].split(), dealer=record["dealer"])
            wanted = {d["at"]: d for d in record["decisions"]}
            for at, text in enumerate(record["actions"]):
                if at in wanted and index % every == 0:
                    player = deal.current_player
                    assert player is not None
                    d = wanted[at]
                    yield Decision(
                        deal.observation(player),
                        deal.legal_actions(),
                        "play" if deal.phase == "play" else "exchange",
                        d["seed"],
                        [(i, v) for i, v in d["pimc"]],
                        [(i, v) for i, v in d["expert"]],
                    )
                index += at in wanted
                deal.apply(Action(text))


def chosen(pairs: list[tuple[int, float]]) -> int:
    """The agents' choice: the best value, ties to the lowest action id."""
    return max(pairs, key=lambda p: (p[1], -p[0]))[0]


def check(path: Path, every: int = 1) -> None:
    counts = {"decisions": 0, "same values": 0, "same choice": 0}
    for d in load(path, every):
        counts["decisions"] += 1
        for name, evaluate in (("pimc", pimc_values), ("expert", expert_values)):
            now = values(evaluate(d.observation, SAMPLES, d.seed))
            then = getattr(d, name)
            counts["same values"] += now == then
            counts["same choice"] += chosen(now) == chosen(then)
            if chosen(now) != chosen(then):
                print(f"{name} differs at seed {d.seed}: {then} -> {now}")
    print(counts)


def dump(path: Path, out: Path) -> None:
    """Writes each decision as a JSON line for ``examples/decision_profile.rs``: the
    observation, the seed, the phase and both evaluators' recorded values."""
    with out.open("w") as lines:
        for d in load(path):
            record = {"obs": json.loads(d.observation.to_json()), "seed": d.seed, "phase": d.phase}
            lines.write(json.dumps({**record, "pimc": d.pimc, "expert": d.expert}) + "\n")


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timing(path: Path, specs: list[str], deals: int | None = None) -> None:
    decisions = list(load(path, deals=deals))
    for spec in specs:
        agent = make_agent(spec, 1)
        times: dict[str, list[float]] = {"exchange": [], "play": []}
        for d in decisions:
            start = time.process_time()
            agent(d.observation, d.legal)
            times[d.phase].append(time.process_time() - start)
        for kind, values_ in [*times.items(), ("all", times["exchange"] + times["play"])]:
            ordered = sorted(values_)
            print(
                f"{spec:>10} {kind:>8}: {len(ordered):5d} decisions, "
                f"mean {1e3 * statistics.fmean(ordered):.3f} ms, "
                f"median {1e3 * statistics.median(ordered):.3f}, "
                f"p90 {1e3 * percentile(ordered, 0.9):.3f}, "
                f"p99 {1e3 * percentile(ordered, 0.99):.3f}, "
                f"max {1e3 * ordered[-1]:.3f}",
                flush=True,
            )


def spread(path: Path, specs: list[str]) -> None:
    decisions = list(load(path))
    for spec in specs:
        sizes: dict[str, list[float]] = {"exchange": [], "play": []}
        shares: list[float] = []
        for d in decisions:
            weighted = inference_spread(d.observation, spec, 1)
            if weighted is not None:
                sizes[d.phase].append(weighted[0])
                shares.append(weighted[0] / weighted[1])
        for kind, values_ in [*sizes.items(), ("all", sizes["exchange"] + sizes["play"])]:
            print(
                f"{spec:>12} {kind:>8}: weighted at {len(values_):5d} of the decisions, "
                f"mean effective sample size {statistics.fmean(values_ or [0]):.1f}",
                flush=True,
            )
        print(f"{spec:>12}      all: mean {statistics.fmean(shares or [0]):.3f} of the pool")


if __name__ == "__main__":
    command, file, *rest = sys.argv[1:]
    if command == "make":
        make(Path(file))
    elif command == "dump":
        dump(Path(file), Path(rest[0]))
    elif command == "spread":
        spread(Path(file), rest)
    elif command == "check":
        check(Path(file), int(rest[0]) if rest else 1)
    elif rest[:1] == ["--deals"]:
        timing(Path(file), rest[2:], int(rest[1]))
    else:
        timing(Path(file), rest)
