"""The protocol's ``analyse``: who may analyse what, and that the answer is the API's."""

from __future__ import annotations

import json
import random

from ecarte.duel import Deal, Match, analyse
from ecarte.web.app import web_session
from test_protocol import Engine

WORLDS = 3


def test_a_client_holding_every_seat_analyses_at_any_point() -> None:
    engine = Engine()
    game = engine("new", kind="deal", seed=11, dealer=1)["game"]
    rng = random.Random(2)
    for _ in range(7):
        engine("apply", game=game, action=rng.choice(engine("legal", game=game)["legal"]))
    early = engine("analyse", game=game, worlds=WORLDS, seed=4)
    assert [d["ply"] for d in early["decisions"]] == list(range(7))
    record = json.dumps(engine("record", game=game)["record"])
    expected = analyse(Deal.from_json(record), worlds=WORLDS, seed=4)
    assert early["decisions"] == [d.to_dict() for d in expected.decisions]
    assert early["summary"] == [s.to_dict() for s in expected.summary]
    by_record = engine("analyse", record=record, worlds=WORLDS, seed=4)
    assert by_record == early
    assert engine("analyse", record=record, worlds=WORLDS)["seed"] == 1
    assert engine.error("analyse", game=game, record=record) == "ProtocolError"
    assert engine.error("analyse") == "ProtocolError"
    assert engine.error("analyse", game=game, worlds=0) == "ProtocolError"
    assert engine.error("analyse", game=game, threshold=-1) == "ProtocolError"
    assert engine.error("analyse", record="{}") == "InvalidRecordError"
    table = engine("new", kind="table", players=["a", "b"])["game"]
    assert engine.error("analyse", game=table) == "ProtocolError"


def test_a_seat_against_an_agent_analyses_only_finished_deals() -> None:
    engine = Engine(web_session())
    started = engine("new", kind="match", opponent="random", seat=1)
    game = started["game"]
    assert engine("analyse", game=game, worlds=WORLDS)["decisions"] == []
    assert engine.error("analyse", record=Deal(seed=1).to_json()) == "AccessError"
    holder = engine.session.games[game]
    for _ in range(200):
        state = engine("observe", game=game)
        if state["deal_number"] > 1 and state["observation"]["history"]:
            break
        engine("apply", game=game, action=state["legal"][-1])
    match: Match = holder.match  # type: ignore[attr-defined]
    first = match.deals[0]
    assert first.outcome() is not None and match.deals[1].outcome() is None
    result = engine("analyse", game=game, worlds=WORLDS)
    assert {d["deal"] for d in result["decisions"]} == {1}
    assert len(result["decisions"]) == len(first.history)
    # The agent's decisions are there, its discards among them: the deal is over.
    assert {d["seat"] for d in result["decisions"]} == {0, 1}
    assert "seed" not in json.dumps(state)
