"""The variant registry: every record format in one table, read by one sniffer, and the
same table behind the command line, the protocol and the page (docs/api.md, "Records")."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path
from typing import Any

import ecarte
import pytest
from ecarte import InvalidRecordError, _core, arena, bank, duel
from ecarte.protocol import Client, Session
from ecarte.registry import game_kinds, record_formats, sniff, variants
from ecarte.results import SimulationResult

ROOT = Path(__file__).resolve().parent.parent

#: A record of every format ecarte writes, made through the public API.
RECORDS = {
    "ecarte.duel.deal": lambda: duel.Deal(seed=1).to_json(),
    "ecarte.duel.match": lambda: duel.Match(seed=1, target=1).to_json(),
    "ecarte.duel.match_result": lambda: match_result().to_json(),
    "ecarte.duel.solution": lambda: duel.solve(play_phase()).to_json(),
    "ecarte.duel.opponent_vec_env": lambda: duel.OpponentVecEnv(1, 1, "random").to_json(),
    "ecarte.arena.result": lambda: arena.play("random", "random", matches=1, seed=1).to_json(),
    "ecarte.bank.deal": lambda: bank.Shoe(1).deal().to_json(),
    "ecarte.bank.session": lambda: bank.Table(["ann", "bob"], seed=1).to_json(),
    "ecarte.simulation": lambda: duel.simulate(3, seed=1).to_json(),
}


def play_phase() -> duel.Deal:
    deal = duel.Deal(seed=1)
    deal.apply("decline")
    return deal


def match_result() -> duel.MatchResult:
    match = duel.Match(seed=1, target=1)
    result = match.play(ecarte.RandomAgent(1), ecarte.RandomAgent(2))
    assert isinstance(result, duel.MatchResult)
    return result


def test_the_table_holds_every_format_ecarte_writes() -> None:
    assert set(record_formats()) == set(RECORDS)
    for name, make in RECORDS.items():
        text = make()
        assert json.loads(text)["format"] == name
        row = sniff(text)
        assert row.format == name and row is record_formats()[name]
        assert row.read(text).to_json() == text  # what reads it gives it back


def test_each_format_names_its_variant() -> None:
    by_variant = {v.name: {r.format for r in v.records} for v in variants()}
    assert [v.name for v in variants()] == ["duel", "bank"]
    assert by_variant["bank"] == {"ecarte.bank.deal", "ecarte.bank.session"}
    assert record_formats()["ecarte.simulation"].variant is None  # every variant's runs
    assert record_formats()["ecarte.simulation"].reader is SimulationResult
    replayed = {name for name, row in record_formats().items() if row.replay}
    assert replayed == {"ecarte.duel.deal", "ecarte.duel.match", "ecarte.bank.session"}
    assert {k: v.name for k, v in game_kinds().items()} == {
        "deal": "duel",
        "match": "duel",
        "table": "bank",
    }


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (b"{}", TypeError, "JSON text"),
        ("{", InvalidRecordError, "not a JSON record"),
        ("[1]", InvalidRecordError, 'no "format" field'),
        ('{"format": 3}', InvalidRecordError, 'no "format" field'),
        ('{"format": "chess"}', InvalidRecordError, "unknown record format 'chess'"),
        ('{"format": NaN}', InvalidRecordError, "not a JSON record"),
    ],
)
def test_the_sniffer_says_what_a_text_is_not(text: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        sniff(text)


def test_simulation_records_are_summarised_by_their_variant() -> None:
    for result in (duel.simulate(5, seed=2), bank.simulate(50, seed=2)):
        assert SimulationResult.from_json(result.to_json()) == result
    record = json.loads(duel.simulate(5, seed=2).to_json())
    record["columns"] = {"loser": record["columns"]["winner"]}
    with pytest.raises(InvalidRecordError, match="no variant's run"):
        SimulationResult.from_json(json.dumps(record))


def test_hello_gives_the_table_and_the_kinds() -> None:
    hello = Session().handle(Client(), {"id": 1, "cmd": "hello"})["result"]
    assert hello["kinds"] == {"deal": "duel", "match": "duel", "table": "bank"}
    assert hello["records"] == {
        name: {"variant": row.variant, "description": row.description, "replay": bool(row.replay)}
        for name, row in record_formats().items()
    }


def test_the_protocol_replays_what_the_table_says() -> None:
    session, client = Session(), Client()
    for name, make in RECORDS.items():
        response = session.handle(client, {"id": 1, "cmd": "replay", "record": make()})
        if record_formats()[name].replay:
            assert response["ok"] and response["result"]["format"] == name
        else:
            assert response["error"]["type"] == "InvalidRecordError"
            assert "has no steps to replay" in response["error"]["message"]
    refused = session.handle(client, {"id": 2, "cmd": "new", "kind": "chess"})["error"]
    assert refused["message"] == "new: kind must be one of 'deal', 'match', 'table', got 'chess'"


def test_the_api_docs_example_runs() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_registry_is_the_engines_table_of_formats() -> None:
    rows = [(row.format, row.variant, row.description) for row in record_formats().values()]
    assert rows == [(name, variant, what) for name, variant, what, _ in _core.RECORD_FORMATS]
    for name, _, _, reader in _core.RECORD_FORMATS:
        module, _, cls = reader.rpartition(".")
        assert getattr(importlib.import_module(module), cls) is record_formats()[name].reader
        assert getattr(record_formats()[name].reader, "RECORD_FORMAT", name) == name
    for variant in variants():
        assert variant.records == tuple(
            row for row in record_formats().values() if row.variant == variant.name
        )
    assert (arena.RECORD_FORMAT, bank.RECORD_FORMAT) == (
        "ecarte.arena.result",
        "ecarte.bank.session",
    )
    assert _core.reader_hint("chess") is None
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert all(name in api for name in record_formats())  # each format documented


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {name: make() for name, make in RECORDS.items()}


@pytest.mark.parametrize("own", [row[0] for row in _core.RECORD_FORMATS])
def test_a_reader_given_another_format_names_the_right_reader(
    own: str, texts: dict[str, str]
) -> None:
    readers = {name: reader for name, _, _, reader in _core.RECORD_FORMATS}
    for name, text in texts.items():
        if name == own:
            continue
        with pytest.raises(InvalidRecordError) as refused:
            record_formats()[own].read(text)
        message = str(refused.value)
        what = record_formats()[name].description
        hint = f"; this is {what}: read it with {readers[name]}.from_json"
        assert message.endswith(hint), (own, name, message)
        assert message.count("read it with") == 1
