"""The protocol's ``analyse``: who may analyse what, and that the answer is the API's."""

from __future__ import annotations

import json
import random

from ecarte.bank import Table
from ecarte.duel import BuiltinAgent, Deal, Match, Rules, analyse
from ecarte.protocol import Session
from ecarte.protocol.analysis import MAX_ANALYSED_DEALS
from ecarte.web.app import WEB_LIMITS, web_session
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
    # One deal asked for by its number: the same decisions, numbered as in the match; the
    # deal in play has none yet, and no deal is past it.
    alone = engine("analyse", game=game, deal=1, worlds=WORLDS)
    assert alone["decisions"] == result["decisions"] and alone["deals"] == 1
    assert engine("analyse", game=game, deal=2, worlds=WORLDS)["decisions"] == []
    assert engine.error("analyse", game=game, deal=3) == "ProtocolError"
    assert engine.error("analyse", game=game, deal=0) == "ProtocolError"
    record = first.to_json()
    assert engine.error("analyse", record=record, deal=1) == "ProtocolError"
    assert "seed" not in json.dumps(state)


def played_match(deals: int, seed: int = 3) -> Match:
    """A match of random agents of at least ``deals`` deals (a target far enough)."""
    match = Match(seed=seed, rules=Rules(target=2 * deals))
    match.play(BuiltinAgent("random", 1), BuiltinAgent("random", 2))
    assert len(match.deals) >= deals
    return match


def budgeted_engine() -> Engine:
    """A server's session whose client, from an address, has a CPU budget that any work
    overdraws (its next request would wait)."""
    engine = Engine(Session(**{**WEB_LIMITS, "cpu_budget": (1e-6, 1e-3)}))  # type: ignore[arg-type]
    engine.client = engine.session.connect("127.0.0.7")
    return engine


def test_a_server_analyses_a_record_the_client_sends_and_charges_it() -> None:
    engine = budgeted_engine()
    assert engine("hello")["limits"]["analysed_deals"] == MAX_ANALYSED_DEALS
    assert Engine()("hello")["limits"]["analysed_deals"] is None
    match = played_match(3)
    result = engine("analyse", record=match.to_json(), worlds=WORLDS, seed=5)
    expected = analyse(match, worlds=WORLDS, seed=5)
    assert result["decisions"] == [d.to_dict() for d in expected.decisions]
    assert result["deals"] == len(expected.deals)
    cpu = engine.client.peer.cpu
    assert cpu is not None and cpu.wait() > 0  # its time was charged
    # The worlds stay within the server's limit, as for its games.
    too_many = WEB_LIMITS["max_worlds"] + 1  # type: ignore[operator]
    assert engine.error("analyse", record=match.to_json(), worlds=too_many) == "ProtocolError"


def test_a_server_refuses_a_record_of_too_many_deals_and_charges_the_refusal() -> None:
    engine = budgeted_engine()
    match = played_match(MAX_ANALYSED_DEALS + 1)
    response = engine.raw(cmd="analyse", record=match.to_json(), worlds=1)
    assert response["error"]["type"] == "ProtocolError"
    assert f"at most {MAX_ANALYSED_DEALS}" in response["error"]["message"]
    cpu = engine.client.peer.cpu
    assert cpu is not None and cpu.wait() > 0
    # A session of open games (ecarte engine) takes the whole record.
    whole = Engine()("analyse", record=match.to_json(), worlds=1)
    assert whole["deals"] == len(match.deals) > MAX_ANALYSED_DEALS
    # Other records get the analysis's own refusal, on a server as everywhere.
    assert engine.error("analyse", record="{}") == "InvalidRecordError"
    assert engine.error("analyse", record="[") == "InvalidRecordError"
    session = Table(["a", "b"], bank=100, chips=100, seed=3).to_json()
    assert engine.error("analyse", record=session) == "InvalidRecordError"
