"""Every result value has ``to_json()`` and ``Cls.from_json(text)``: a round trip gives the
same value (NumPy columns with their dtype and shape), and anything malformed raises
``InvalidRecordError``, never another error."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from ecarte import EcarteError, InvalidRecordError, arena, bank, duel
from ecarte.agents import RandomAgent, make_agent
from ecarte.results import SimulationResult

Loader = Callable[[str], Any]


def match_result() -> duel.MatchResult:
    game = duel.Match(seed=4, rules=duel.Rules(target=3))
    return game.play(RandomAgent(1), RandomAgent(2))


def solution() -> duel.Solution:
    deal = duel.Deal(seed=11)
    deal.apply("decline")
    return duel.solve(deal)


def bank_deal() -> bank.Deal:
    return bank.Shoe(3).deal()


def values() -> list[tuple[Any, Loader]]:
    """One value of each result class, with the loader of its record."""
    return [
        (match_result(), duel.MatchResult.from_json),
        (solution(), duel.Solution.from_json),
        (bank_deal(), bank.Deal.from_json),
        (bank_deal().results()[0], bank.Resolution.from_json),
        (duel.simulate(40, seed=3, agents=("heuristic", "random")), SimulationResult.from_json),
        (duel.simulate(6, seed=3, matches=True), SimulationResult.from_json),
        (bank.simulate(5000, seed=3), SimulationResult.from_json),
        (arena.play("random", "heuristic", matches=3, seed=5), arena.ArenaResult.from_json),
    ]


@pytest.mark.parametrize(("value", "load"), values(), ids=lambda v: type(v).__name__)
def test_every_result_round_trips(value: Any, load: Loader) -> None:
    again = load(value.to_json())
    assert again == value and type(again) is type(value)
    assert again.to_json() == value.to_json()


@pytest.mark.parametrize(
    "result",
    [
        duel.simulate(25, seed=1, agents=("random", "heuristic")),
        duel.simulate(5, seed=1, matches=True),
        duel.simulate(0, seed=2),
        bank.simulate(0, seed=2),
        bank.simulate(10_000, seed=9, shoe=bank.Shoe(1).undealt[:60]),
    ],
)
def test_simulation_columns_keep_their_dtype_and_shape(result: SimulationResult) -> None:
    again = SimulationResult.from_json(result.to_json())
    assert (again.n, again.seed, again.summary) == (result.n, result.seed, result.summary)
    assert list(again) == list(result)
    for name, column in result.items():
        assert again[name].dtype == column.dtype and again[name].shape == column.shape
        assert np.array_equal(again[name], column)


def test_arena_results_of_both_paths_round_trip() -> None:
    factory = functools.partial(make_agent, "random")
    played = arena.play(factory, "heuristic", matches=2, seed=8, progress=False)
    assert not played.native and played.decision_seconds[1] > 0
    assert arena.ArenaResult.from_json(played.to_json()) == played


def test_the_table_records_with_the_same_verbs() -> None:
    table = bank.Table(["a", "b", "c"], bank=50, fixed_stake=10, chips=100, seed=7)
    table.deal()
    table.stake("b", 2, 10)
    again = bank.Table.from_json(table.to_json())
    assert again.to_json() == table.to_json()


# -- malformed records -------------------------------------------------------------------

STRANGE = [None, True, 1.5, -1, 2**70, "x", [], {}, [1, 2]]


def mutations(record: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The record with one field dropped, an unknown field added, or one value (at the top
    or one level down) replaced by a value of another kind."""
    for key in record:
        yield f"without {key}", {k: v for k, v in record.items() if k != key}
        for strange in STRANGE:
            yield f"{key}={strange!r}", {**record, key: strange}
        inner = record[key]
        if isinstance(inner, dict):
            for sub in inner:
                for strange in STRANGE:
                    yield f"{key}.{sub}={strange!r}", {**record, key: {**inner, sub: strange}}
        if isinstance(inner, list) and inner:
            for strange in STRANGE:
                yield f"{key}[0]={strange!r}", {**record, key: [strange, *inner[1:]]}
    yield "extra", {**record, "extra": 1}


@pytest.mark.parametrize(("value", "load"), values(), ids=lambda v: type(v).__name__)
def test_a_malformed_record_raises_invalid_record_error(value: Any, load: Loader) -> None:
    for text in ["", "not json", "[]", "null", '{"format": 1}', "NaN"]:
        with pytest.raises(InvalidRecordError):
            load(text)
    for not_text in [b"{}", None, 5]:  # not a record but a wrong argument, as for Deal
        with pytest.raises(TypeError, match=r"JSON text \(a str\)"):
            load(not_text)  # type: ignore[arg-type]
    record = json.loads(value.to_json())
    for change, bad in mutations(record):
        try:
            loaded = load(json.dumps(bad))
        except InvalidRecordError:
            continue
        # Only a record that means something else, exactly, may load.
        assert json.loads(loaded.to_json()) == bad, change


def test_a_match_result_must_be_a_possible_end_of_a_match() -> None:
    result = match_result()
    record = json.loads(result.to_json())
    loser = 1 - result.winner
    last = dict(record["outcomes"][-1], winner=loser)
    for change in [
        {"winner": loser},
        {"winner": 2},
        {"score": record["score"][::-1]},
        {"score": [record["score"][0] + 1, record["score"][1]]},
        {"outcomes": []},
        {"outcomes": [*record["outcomes"][:-1], last]},
        {"outcomes": [dict(record["outcomes"][0], points=3), *record["outcomes"][1:]]},
        {"format": "ecarte.duel.match"},
        {"version": 2},
    ]:
        with pytest.raises(InvalidRecordError):
            duel.MatchResult.from_json(json.dumps({**record, **change}))
    with pytest.raises(EcarteError, match="impossible match result"):
        duel.MatchResult(loser, result.score, result.outcomes)
    with pytest.raises(EcarteError):
        duel.MatchResult(result.winner, (300, 0), result.outcomes)


def test_a_solution_must_be_one_a_position_can_have() -> None:
    record = json.loads(solution().to_json())
    for change in [
        {"value": 33},
        {"value": -3},
        {"best_actions": []},
        {"best_actions": ["AS", "7C"]},
        {"best_actions": ["7C", "7C"]},
        {"best_actions": ["discard 7C"]},
        {"best_actions": ["7C", "8C", "9C", "TC", "JC", "QC"]},
        {"best_actions": ["2C"]},
        {"nodes": -1},
    ]:
        with pytest.raises(InvalidRecordError):
            duel.Solution.from_json(json.dumps({**record, **change}))
    with pytest.raises(EcarteError, match="impossible solution"):
        duel.Solution(1, [], 5)


def test_a_bank_deal_and_a_resolution_are_checked_by_the_engine() -> None:
    record = json.loads(bank_deal().to_json())
    tableaux = record["tableaux"]
    for change in [
        {"tableaux": [[tableaux[0][0]] * 4, *tableaux[1:]]},  # a card three times or more
        {"tableaux": [tableaux[0][:3], *tableaux[1:]]},
        {"tableaux": [*tableaux, tableaux[0]]},
        {"trump_card": "1X"},
        {"format": "ecarte.duel.deal"},
    ]:
        with pytest.raises(InvalidRecordError):
            bank.Deal.from_json(json.dumps({**record, **change}))
    for b, p, outcome in [(3, 2, "banker"), (1, 0, "punter"), (0, 0, "banker"), (5, 0, "banker")]:
        bad = {"banker_tricks": b, "punter_tricks": p, "outcome": outcome}
        with pytest.raises(InvalidRecordError):
            bank.Resolution.from_json(json.dumps(bad))
    for b in range(5):
        for p in range(5 - b):
            r = bank.Resolution(b, p)
            assert bank.Resolution.from_json(r.to_json()) == r


def test_a_simulation_record_must_be_a_runs() -> None:
    deals = json.loads(duel.simulate(10, seed=4).to_json())
    matches = json.loads(duel.simulate(3, seed=4, matches=True).to_json())
    banked = json.loads(bank.simulate(100, seed=4).to_json())
    column = deals["columns"]["winner"]
    counts = banked["columns"]["counts"]

    def with_column(record: dict[str, Any], name: str, **change: Any) -> dict[str, Any]:
        columns = dict(record["columns"])
        columns[name] = {**columns[name], **change}
        return {**record, "columns": columns}

    for bad in [
        with_column(deals, "winner", dtype="float64"),
        with_column(deals, "winner", dtype="object"),
        with_column(deals, "winner", data=[*column["data"][:-1], 256]),
        with_column(deals, "winner", data=[*column["data"][:-1], True]),
        with_column(deals, "winner", shape=[9]),
        with_column(deals, "winner", shape=[10, -1]),
        with_column(deals, "winner", data=column["data"][:-1], shape=[9]),  # 9 rows for n=10
        with_column(deals, "cards", extra=1),
        {**deals, "n": 11},
        {**deals, "seed": -1},
        {**deals, "summary": {**deals["summary"], "seat0_win_rate": 0.5}},
        {**matches, "summary": {}},
        with_column(banked, "counts", data=[counts["data"][0] + 1, *counts["data"][1:]]),
        {**banked, "columns": {"counts": counts}},
        {**banked, "n": 101},
    ]:
        with pytest.raises(InvalidRecordError):
            SimulationResult.from_json(json.dumps(bad))


def test_an_arena_record_must_hold_consistent_estimates() -> None:
    record = json.loads(arena.play("random", "heuristic", matches=2, seed=5).to_json())
    rate = record["match_win_rate"]
    for change in [
        {"match_win_rate": {**rate, "mean": rate["high"] + 0.01}},
        {"match_win_rate": {**rate, "high": 1.5}},
        {"points_per_deal": {"mean": 0.0, "low": -3.0, "high": 0.0}},
        {"match_win_rate": {"mean": 0.5, "low": 0.0}},
        {"pairs": 0},
        {"deals": 3},
        {"seed": 2**64},
        {"seconds": -1.0},
        {"decision_seconds": [0.0]},
        {"decision_seconds": [0.0, -1.0]},
        {"native": 1},
        {"agent_a": 3},
    ]:
        with pytest.raises(InvalidRecordError):
            arena.ArenaResult.from_json(json.dumps({**record, **change}))
    assert arena.ArenaResult.from_json(json.dumps({**record, "seed": None})).seed is None
