"""A seed is checked in one way wherever it is passed: a whole number out of range raises
``InvalidSeedError``, a value of another type ``TypeError``, and both messages give the
range (docs/api.md, "Seeds")."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import ecarte
import numpy as np
import pytest
from cli_support import run_ecarte
from ecarte import EcarteError, InvalidSeedError, bank, duel
from ecarte.agents import make_agent
from ecarte.protocol import Client, Session
from ecarte.seeding import check_seed, resolve_seed

OUT_OF_RANGE = [-1, 2**64, -(2**70)]
WRONG_TYPE = ["abc", "7", 1.5, True, None, [3]]
RANGE = "from 0 to 2**64 - 1"


def observation() -> duel.Observation:
    return duel.Deal(seed=1).observation(0)


def played_table() -> bank.Table:
    table = bank.Table(["ann", "bob"], seed=1, mode="open")
    table.deal()
    table.reveal()
    table.settle()
    return table


#: Every function or method that takes a seed, called with ``seed``.
TAKERS: dict[str, Callable[[Any], object]] = {
    "check_seed": check_seed,
    "resolve_seed": resolve_seed,
    "Deal": lambda s: duel.Deal(seed=s),
    "Match": lambda s: duel.Match(seed=s),
    "shuffled": lambda s: ecarte.shuffled(ecarte.duel_pack(), s),
    "derive_seed": lambda s: ecarte.derive_seed(s, 0),
    "Stream": lambda s: ecarte.Stream(s),
    "agent_seed": lambda s: duel.agent_seed(s, 0),
    "decision_seed": lambda s: duel.decision_seed(s, observation()),
    "BuiltinAgent": lambda s: duel.BuiltinAgent("pimc:2", s),
    "make_agent": lambda s: make_agent("heuristic", s),
    "sample_worlds": lambda s: duel.sample_worlds(observation(), 1, s),
    "pimc_values": lambda s: duel.pimc_values(observation(), 1, s),
    "duel.simulate": lambda s: duel.simulate(1, seed=s),
    "VecEnv": lambda s: duel.VecEnv(1, s),
    "OpponentVecEnv": lambda s: duel.OpponentVecEnv(1, s, "random"),
    "OpponentVecEnv.reset": lambda s: duel.OpponentVecEnv(1, 0, "random").reset(s),
    "OpponentVecEnv.reset, one per env": lambda s: duel.OpponentVecEnv(2, 0, "random").reset(
        [1, s]
    ),
    "bank.simulate": lambda s: bank.simulate(10, seed=s),
    "Shoe": lambda s: bank.Shoe(s),
    "Shoe.from_order": lambda s: bank.Shoe.from_order(ecarte.shoe_pack(), s),
    "Shoe.shuffle_rest": lambda s: bank.Shoe(1).shuffle_rest(s),
    "Table": lambda s: bank.Table(["ann", "bob"], seed=s),
    "Table.shuffle_rest": lambda s: played_table().shuffle_rest("bob", s),
    "arena.play": lambda s: ecarte.arena.play("random", "random", matches=1, seed=s),
}


@pytest.mark.parametrize("taker", list(TAKERS))
def test_every_seed_is_checked_alike(taker: str) -> None:
    call = TAKERS[taker]
    for bad in OUT_OF_RANGE:
        with pytest.raises(InvalidSeedError, match=RANGE.replace("*", r"\*")):
            call(bad)
    for bad in WRONG_TYPE:
        if bad is None and taker not in ("check_seed", "derive_seed", "Stream", "agent_seed"):
            continue  # None is a fresh seed, or the object's own stream
        if taker == "OpponentVecEnv.reset" and bad == [3]:
            continue  # one seed per env
        with pytest.raises(TypeError, match=RANGE.replace("*", r"\*")):
            call(bad)
    assert call(2**64 - 1) is not None or taker.endswith("shuffle_rest")


def test_a_seed_may_be_any_integer_type() -> None:
    assert check_seed(np.uint64(2**64 - 1)) == 2**64 - 1
    assert duel.Deal(seed=np.int64(5)).seed == 5
    assert isinstance(InvalidSeedError("x"), EcarteError) and issubclass(
        InvalidSeedError, ValueError
    )
    assert ecarte.errors.InvalidSeedError is InvalidSeedError


def test_deal_of_a_text_seed_is_a_type_error() -> None:
    with pytest.raises(
        TypeError, match=r"seed must be a whole number from 0 to 2\*\*64 - 1, got 'abc'"
    ):
        duel.Deal(seed="abc")  # type: ignore[arg-type]


def test_the_environments_check_seeds_alike() -> None:
    gymnasium = pytest.importorskip("ecarte.gymnasium")
    env = gymnasium.DuelEnv()
    with pytest.raises(InvalidSeedError, match=r"2\*\*64 - 1"):
        env.reset(seed=-1)
    with pytest.raises(TypeError, match=r"2\*\*64 - 1"):
        env.reset(seed="abc")
    vector = gymnasium.DuelVectorEnv(num_envs=2)
    with pytest.raises(InvalidSeedError, match=r"2\*\*64 - 1"):
        vector.reset(seed=2**64)
    with pytest.raises(TypeError, match=r"2\*\*64 - 1"):
        vector.reset(seed=[1, "abc"])
    with pytest.raises(InvalidSeedError, match="one per env"):
        vector.reset(seed=[1])
    pettingzoo = pytest.importorskip("ecarte.pettingzoo")
    aec = pettingzoo.raw_env()
    with pytest.raises(InvalidSeedError, match=r"2\*\*64 - 1"):
        aec.reset(seed=2**64)
    with pytest.raises(TypeError, match=r"2\*\*64 - 1"):
        aec.reset(seed=1.5)  # type: ignore[arg-type]


def test_the_protocol_checks_seeds_alike() -> None:
    session, client = Session(), Client()

    def error(**fields: Any) -> dict[str, Any]:
        response = session.handle(client, {"id": 1, "cmd": "new", "kind": "deal", **fields})
        assert not response["ok"]
        error: dict[str, Any] = response["error"]
        return error

    assert error(seed=2**64)["type"] == "InvalidSeedError"
    assert error(seed=-1)["type"] == "InvalidSeedError"
    wrong = error(seed="abc")
    assert wrong["type"] == "ProtocolError" and "2**64 - 1" in wrong["message"]
    assert "2**64 - 1" in error(seed=-1)["message"]


@pytest.mark.parametrize(("seed", "shown"), [("-1", "-1"), (str(2**64), str(2**64)), ("x", "'x'")])
def test_the_command_line_checks_seeds_alike(seed: str, shown: str) -> None:
    proc = run_ecarte("match", "--seed", seed, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: --seed must be a whole number {RANGE}, got {shown} (")
    assert len(proc.stderr.splitlines()) == 1


def test_a_bad_seed_changes_nothing() -> None:
    table = played_table()
    before = json.loads(table.to_json())
    with pytest.raises(TypeError):
        table.shuffle_rest("bob", "abc")  # type: ignore[arg-type]
    assert json.loads(table.to_json()) == before
