"""Hostile inputs: every one gets a typed error
(an ``EcarteError``), changes nothing, and neither panics nor aborts the interpreter."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from typing import Any

import ecarte
import numpy as np
import pytest
from ecarte import Card, EcarteError, InvalidRecordError, bank, duel
from ecarte.pimc import PimcAgent

SURROGATE = chr(0xDCFF)


def observation() -> duel.Observation:
    deal = duel.Deal(seed=7)
    deal.apply("propose")
    return deal.observation(1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: bank.simulate(2**63, seed=1),
        lambda: bank.simulate(10**12, seed=1),
        lambda: duel.VecEnv(2**62, seed=1),
        lambda: duel.VecEnv(2**40, seed=1),
        lambda: duel.VecEnv(10**8, seed=1),
        lambda: duel.sample_worlds(observation(), 2**60, 1),
        lambda: duel.sample_worlds(observation(), 10**9, 1),
        lambda: duel.pimc_values(observation(), 2**60, 1),
        lambda: PimcAgent(samples=2**60),
        lambda: PimcAgent(samples=10**9),
        lambda: PimcAgent(samples=1.5),  # type: ignore[arg-type]
        lambda: duel.simulate(3, seed=1, threads=2**40),
        lambda: duel.simulate(3, seed=1, threads=4096),
        lambda: bank.simulate(10, seed=1, threads=2**40),
        lambda: duel.simulate(3, seed=1, start=2**64 - 2),
        lambda: duel.simulate(3, seed=1, threads=-1),
        lambda: duel.simulate(2**64, seed=1),
        lambda: duel.simulate(3, seed=1, start=2**64),
        lambda: duel.simulate(3, seed=1, agents=("random",)),  # type: ignore[arg-type]
        lambda: duel.simulate(3, seed=1, agents=("pimc:²", "random")),
        lambda: Card.from_id(2**64),
        lambda: duel.Action.from_id(2**64),
        lambda: duel.Rules(max_exchanges=2**64),
        lambda: duel.Rules(target=2**64),
        lambda: duel.Match(target=2**64),
        lambda: duel.Deal(seed=1, dealer=2**64),
        lambda: duel.Deal(seed=1).hand(2**63),
        lambda: duel.Deal(seed=1).discards(2**63),
        lambda: duel.Deal(seed=1).observation(2**63),
        lambda: duel.Deal(seed=1).observation_tensor(2**63),
        lambda: duel.Deal(seed=1).observation(0, score=(2**64, 0)),
        lambda: duel.Deal(seed=1).observation(0, score=(1, 2, 3)),
        lambda: duel.Deal(seed=1).perft(-1),
        lambda: duel.Deal(seed=1).perft(2**64),
        lambda: duel.VecEnv(-1, seed=1),
        lambda: duel.VecEnv(2, seed=1).deal(-1),
        lambda: duel.VecEnv(2, seed=1).step([64, 2**64]),
        lambda: duel.sample_worlds(observation(), -1, 1),
        lambda: duel.pimc_values(observation(), -1, 1),
        lambda: bank.Table.from_json("[]"),
        lambda: bank.Table.from_json("5"),
        lambda: bank.Table.from_json("null"),
        lambda: bank.Table.from_json('"abc"'),
        lambda: bank.Table.from_json("[" * 100_000),
        lambda: duel.Match.from_json("[" * 100_000),
        lambda: Card(SURROGATE),
        lambda: Card.parse("Q" + SURROGATE),
        lambda: duel.Action("discard Q" + SURROGATE),
        lambda: duel.Action.parse(SURROGATE),
        lambda: duel.Rules(order=SURROGATE),
        lambda: duel.Deal.from_json(SURROGATE),
        lambda: duel.Match.from_json(SURROGATE),
        lambda: duel.solve(duel.Deal(seed=1), objective=SURROGATE),
        lambda: bank.odds(SURROGATE),
        lambda: bank.resolve(["QH"], ["KH"], SURROGATE),
    ],
)
def test_refused_with_a_typed_error(call: Any) -> None:
    with pytest.raises(EcarteError):
        call()


def test_huge_sizes_do_not_abort_the_interpreter() -> None:
    # An abort cannot be caught in-process: run the worst cases in a child.
    code = (
        "import ecarte\n"
        "from ecarte import bank, duel\n"
        "for call in (lambda: bank.simulate(2**63, seed=1), lambda: duel.VecEnv(10**8, seed=1),\n"
        "             lambda: duel.simulate(3, seed=1, threads=2**40)):\n"
        "    try:\n"
        "        call()\n"
        "    except ecarte.EcarteError:\n"
        "        pass\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-500:]


def test_vecenv_step_takes_any_integer_array() -> None:
    env = duel.VecEnv(4, seed=3)
    _, mask = env.reset()
    legal = np.array([int(np.flatnonzero(row)[0]) for row in mask], dtype=np.int64)
    strided = np.zeros(8, dtype=np.int64)[::2]
    strided[:] = legal
    assert not strided.flags["C_CONTIGUOUS"]
    env.step(strided)
    _, mask = env.reset()
    env.step(np.array([int(np.flatnonzero(row)[0]) for row in mask], dtype=np.int32))
    _, mask = env.reset()
    env.step([int(np.flatnonzero(row)[0]) for row in mask])


def match_record() -> dict[str, Any]:
    match = duel.Match(seed=4, rules=duel.Rules(target=2))
    for _ in range(40):
        match.apply(match.legal_actions()[-1])
    return dict(json.loads(match.to_json()))


@pytest.mark.parametrize(
    "change",
    [
        {"version": True},
        {"version": 1.0},
        {"seed": 5.5},
        {"seed": "5"},
        {"first_dealer": "0"},
        {"deals": 5},
        {"deals": None},
        {"deals": []},
        {"extra": 1},
        {"seed": -1},
        {"seed": 2**64},
    ],
)
def test_match_records_are_validated_strictly(change: dict[str, Any]) -> None:
    record = match_record()
    record.update(change)
    with pytest.raises(InvalidRecordError):
        duel.Match.from_json(json.dumps(record))


def test_match_record_with_other_rules_in_a_deal_is_refused() -> None:
    record = match_record()
    record["deals"][0]["rules"]["max_exchanges"] = 3
    with pytest.raises(InvalidRecordError):
        duel.Match.from_json(json.dumps(record))
    infinite = json.dumps(match_record()).replace('"seed": 4', '"seed": Infinity')
    with pytest.raises(InvalidRecordError):
        duel.Match.from_json(infinite)


def test_table_records_are_validated_strictly() -> None:
    table = bank.Table(["a", "b", "c"], bank=50, fixed_stake=10, chips=100, seed=7)
    table.deal()
    table.stake("b", 2, 10)
    record = json.loads(table.to_json())
    assert bank.Table.from_json(table.to_json()).to_json() == table.to_json()
    assert pickle.loads(pickle.dumps(table)).to_json() == table.to_json()
    for key, value in [("version", True), ("version", 1.0), ("extra", 1)]:
        bad = dict(record)
        bad[key] = value
        with pytest.raises(InvalidRecordError):
            bank.Table.from_json(json.dumps(bad))


def test_limits_are_exported() -> None:
    assert ecarte.MAX_THREADS >= 2 and ecarte.MAX_BATCH >= 10**6
    assert ecarte.MAX_ENVS >= 10**6 and ecarte.MAX_SAMPLES >= 10**4
    with pytest.raises(EcarteError):
        duel.simulate(ecarte.MAX_BATCH + 1, seed=1)
    with pytest.raises(EcarteError):
        duel.simulate(1, seed=1, threads=ecarte.MAX_THREADS + 1)
