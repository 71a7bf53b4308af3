"""The engine protocol (docs/protocol.md) through :class:`ecarte.protocol.Session` and the
``ecarte engine`` process: every command, its errors, and what a seat may see."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_support import run_ecarte
from ecarte import bank, duel
from ecarte.protocol import COMMANDS, PROTOCOL_VERSION, Client, Session
from ecarte.web.app import web_session


class Engine:
    """A session and one client, with a request helper that checks the envelope."""

    def __init__(self, session: Session | None = None) -> None:
        self.session = session or Session()
        self.client = Client()
        self.count = 0

    def raw(self, **request: Any) -> dict[str, Any]:
        self.count += 1
        response = self.session.handle(self.client, {"id": self.count, **request})
        assert response["id"] == self.count
        return response

    def __call__(self, cmd: str, **fields: Any) -> Any:
        response = self.raw(cmd=cmd, **fields)
        assert response["ok"], response
        return response["result"]

    def error(self, cmd: str, **fields: Any) -> str:
        response = self.raw(cmd=cmd, **fields)
        assert not response["ok"], response
        return str(response["error"]["type"])


def test_hello_names_the_protocol_its_version_and_every_command() -> None:
    hello = Engine()("hello")
    assert hello["protocol"] == "ecarte-engine" and hello["version"] == PROTOCOL_VERSION == 1
    assert hello["commands"] == list(COMMANDS)
    assert hello["limits"]["message_bytes"] == 1 << 20


def test_a_whole_deal_through_the_protocol_is_the_api_s_deal() -> None:
    engine = Engine()
    game = engine("new", kind="deal", seed=11, dealer=1)["game"]
    reference = duel.Deal(seed=11, dealer=1)
    while not reference.is_over():
        legal = engine("legal", game=game)["legal"]
        assert legal == [str(a) for a in reference.legal_actions()]
        move = engine("go", game=game, agent="heuristic")["action"]
        state = engine("apply", game=game, action=move)
        reference.apply(move)
        assert state["phase"] == reference.phase
    record = engine("record", game=game)["record"]
    assert duel.Deal.from_json(json.dumps(record)) == reference
    assert state["outcome"]["winner"] == reference.outcome().winner  # type: ignore[union-attr]


def test_an_illegal_action_is_refused_by_class_and_changes_nothing() -> None:
    engine = Engine()
    game = engine("new", kind="deal", seed=1)["game"]
    before = engine("record", game=game)
    assert engine.error("apply", game=game, action="accept") == "IllegalActionError"
    assert engine.error("apply", game=game, action="QX") == "InvalidActionError"
    assert engine.error("apply", game=game, action=17) == "IllegalActionError"
    assert engine.error("new", kind="deal", record="{}") == "InvalidRecordError"
    assert engine.error("new", kind="deal", rules={"target": 0}) == "InvalidRulesError"
    assert engine.error("new", kind="deal", deck=["QH"] * 32) == "InvalidDeckError"
    assert engine.error("bogus") == "ProtocolError"
    assert engine.error("legal", game=game, extra=1) == "ProtocolError"
    assert engine.error("legal", game="g99") == "ProtocolError"
    assert engine.error("undo", game=game) == "IllegalActionError"
    assert engine("record", game=game) == before


def test_malformed_lines_get_an_error_without_an_id() -> None:
    session, client = Session(), Client()
    hostile = ["", "garbage", "[]", '{"cmd": "hello"}', '{"id": true, "cmd": "hello"}']
    hostile += ['{"id": 1.5, "cmd": "hello"}', "[" * 100_000, '{"id": 1, "cmd": "x", "y": NaN}']
    for line in [*hostile, b"\xff\xfe", "1" * 5000]:
        response = session.handle(client, line)
        assert not response["ok"] and response["error"]["type"] == "ProtocolError"
    response = session.handle(client, '{"id": "a", "cmd": 5}')
    assert response["id"] == "a" and response["error"]["type"] == "ProtocolError"


def test_undo_observe_and_seats_of_an_open_match() -> None:
    engine = Engine()
    game = engine("new", kind="match", seed=5, rules={"target": 3})["game"]
    engine("apply", game=game, action="propose")
    assert engine("undo", game=game)["undone"] == "propose"
    seat1 = engine("observe", game=game, seat=1)
    assert seat1["observation"]["player"] == 1 and seat1["legal"] == ["propose", "decline"]
    assert engine("observe", game=game, seat=0)["legal"] == []
    assert engine.error("observe", game=game, seat=2) == "ProtocolError"


def test_go_within_a_time_limit_names_the_agent_it_ran() -> None:
    engine = Engine()
    game = engine("new", kind="deal", seed=3)["game"]
    quick = engine("go", game=game, agent="pimc:64", time=0.001)
    assert quick["agent"] == "heuristic"  # no search rung fits in a millisecond
    thought = engine("go", game=game, level="hard", time=5)
    assert thought["agent"].startswith("pimc:")
    again = engine("go", game=game, agent=thought["agent"])
    assert again["action"] == thought["action"]  # the named rung gives the same move
    assert engine.error("go", game=game, time=0) == "ProtocolError"
    assert engine.error("go", game=game, time=61) == "ProtocolError"
    assert engine.error("go", game=game, agent="pimc:0") == "EcarteError"
    played = engine("go", game=game, agent="random", apply=True)
    assert played["state"]["phase"] != "proposal"


def test_solve_and_bank_odds_are_the_api_s() -> None:
    engine = Engine()
    game = engine("new", kind="deal", seed=3)["game"]
    assert engine.error("solve", game=game) == "EcarteError"  # not the play phase yet
    engine("apply", game=game, action="decline")
    solved = engine("solve", game=game, values=True)
    reference = duel.Deal(seed=3)
    reference.apply("decline")
    assert solved["value"] == duel.solve(reference).value
    assert solved["values"] == {str(a): v for a, v in duel.action_values(reference)}
    odds = engine("odds", trump_card="7H", seen=["5H", "KS"])
    exact = bank.odds(trump_card="7H", removed=["5H", "KS"]).exact
    assert odds["exact"] == {k: f"{v.numerator}/{v.denominator}" for k, v in exact.items()}


def test_a_table_over_the_protocol_replays_as_the_api_s_table() -> None:
    engine = Engine()
    game = engine("new", kind="table", players=["ann", "bob", "cy"], bank=50, chips=100, seed=7)[
        "game"
    ]
    for action in (["deal"], ["stake", "bob", 2, 10], ["stake", "cy", 3, 10], ["reveal"]):
        engine("apply", game=game, action=action)
    assert engine.error("apply", game=game, action=["stake", "bob", 4, 5]) == "TableError"
    assert engine.error("apply", game=game, action=["fly"]) == "TableError"
    assert engine("undo", game=game)["undone"] == '["reveal"]'
    engine("apply", game=game, action=["reveal"])
    state = engine("apply", game=game, action=["settle"])
    assert state["chips"] == {"ann": 50, "bob": 90, "cy": 90} and state["bank"] == 70
    record = engine("record", game=game)["record"]
    assert bank.Table.from_json(json.dumps(record)).ledger == state["ledger"]
    copy = engine("new", kind="table", record=record)["game"]
    assert engine("observe", game=copy)["ledger"] == state["ledger"]
    frames = engine("replay", record=record)
    assert len(frames["frames"]) == 6 and frames["frames"][2]["tableaux"] is None
    assert frames["frames"][4]["tableaux"] is not None  # after the reveal


def test_replay_steps_through_deal_and_match_records() -> None:
    engine = Engine()
    match = duel.Match(seed=2, rules=duel.Rules(target=2))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("heuristic", 2))
    frames = engine("replay", record=match.to_json())["frames"]
    assert len(frames) == sum(len(d.history) + 1 for d in match.deals)
    assert frames[-1]["score"] == list(match.score)
    first = match.deals[0]
    deal_frames = engine("replay", record=json.loads(first.to_json()))["frames"]
    dealt = duel.Deal.from_deck(first.deck, dealer=first.dealer)
    assert deal_frames[0]["hands"] == [[str(c) for c in dealt.hand(s)] for s in (0, 1)]
    assert deal_frames[-1]["outcome"]["winner"] == first.outcome().winner  # type: ignore[union-attr]
    assert engine.error("replay", record='{"format": "other"}') == "InvalidRecordError"


def test_the_web_session_holds_the_game_and_shows_each_seat_only_its_view() -> None:
    engine = Engine(web_session())
    assert engine.error("new", kind="deal") == "AccessError"
    assert engine.error("new", kind="match") == "AccessError"
    assert engine.error("new", kind="match", opponent="easy", seed=1) == "AccessError"
    assert engine.error("new", kind="deal", record="{}") == "AccessError"
    assert engine.error("new", kind="match", opponent="pimc:5000") == "ProtocolError"
    started = engine("new", kind="match", opponent="easy", seat=1)
    game, state = started["game"], started["state"]
    assert len(game) >= 20 and "seed" not in json.dumps(state)
    assert engine.error("observe", game=game, seat=0) == "AccessError"
    assert engine.error("record", game=game) == "AccessError"
    assert engine.error("solve", game=game) == "AccessError"
    other = Engine(engine.session)
    assert other.error("observe", game=game) == "ProtocolError"  # not its game
    assert other("join", game=game, seat_token=started["seat_token"])["state"]["seat"] == 1
    assert engine.error("observe", game=game) == "ProtocolError"  # the seat moved on


def test_a_shared_table_lets_each_seat_act_only_for_itself() -> None:
    session = web_session()
    host, ann, bob = Engine(session), Engine(session), Engine(session)
    game = host("new", kind="table", players=["ann", "bob"])["game"]
    assert host.error("new", kind="table", players=["a", "b"], seed=3) == "AccessError"
    assert host("join", game=game) == {"game": game, "players": ["ann", "bob"], "seated": []}
    ann("join", game=game, player="ann")
    token = bob("join", game=game, player="bob")["seat_token"]
    assert host.error("join", game=game, player="bob") == "AccessError"
    assert ann.error("join", game=game, player="bob") == "AccessError"
    # The banker's action from a punter's seat: not that seat's turn (as in a duel).
    refused = bob.raw(cmd="apply", game=game, action=["deal"])["error"]
    assert (refused["type"], refused["reason"]["code"]) == ("TableError", "not_your_turn")
    ann("apply", game=game, action=["deal"])
    assert ann.error("apply", game=game, action=["stake", "bob", 2, 10]) == "AccessError"
    assert bob.error("undo", game=game) == "AccessError"
    assert bob.error("record", game=game) == "AccessError"
    bob("apply", game=game, action=["stake", "bob", 2, 10])
    assert bob("observe", game=game)["tableaux"] is None
    again = Engine(session)
    assert again("join", game=game, seat_token=token)["state"]["you"] == "bob"
    assert bob.error("observe", game=game) == "ProtocolError"


def test_the_games_held_are_bounded() -> None:
    session = Session(max_games=3, games_per_client=5)
    engine = Engine(session)
    ids = [engine("new", kind="deal")["game"] for _ in range(3)]
    assert engine.error("new", kind="deal") == "ProtocolError"  # full, and each game held
    assert sorted(session.games) == sorted(ids)
    engine("close", game=ids[0])
    assert engine("new", kind="deal")["game"] not in ids  # live games count, not games made
    web = web_session()
    seated = [Engine(web) for _ in range(2)]
    web.max_games = 2
    for player in seated:
        player("new", kind="match", opponent="random")
    assert Engine(web).error("new", kind="match", opponent="random") == "ProtocolError"


def ecarte_engine(lines: list[str]) -> list[dict[str, Any]]:
    """The answers of an ``ecarte engine`` process to ``lines``."""
    proc = run_ecarte("engine", input="\n".join(lines) + "\n", timeout=120, check=True)
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_ecarte_engine_answers_line_by_line_and_survives_garbage() -> None:
    lines = [
        '{"id": 1, "cmd": "new", "kind": "deal", "seed": 4}',
        "not json",
        "",
        '{"id": 2, "cmd": "apply", "game": "g1", "action": "accept"}',
        '{"id": 3, "cmd": "apply", "game": "g1", "action": "propose"}',
        '{"id": 4, "cmd": "quit"}',
        '{"id": 5, "cmd": "hello"}',
    ]
    answers = ecarte_engine(lines)
    assert [a["id"] for a in answers] == [1, None, 2, 3, 4]  # nothing after quit
    assert [a["ok"] for a in answers] == [True, False, False, True, True]
    assert answers[2]["error"]["type"] == "IllegalActionError"


def test_ecarte_engine_counts_live_games_not_every_game_made() -> None:
    lines = []
    for i in range(1, 1006):  # more games than the cap, each closed in turn
        lines.append(json.dumps({"id": 2 * i, "cmd": "new", "kind": "deal"}))
        lines.append(json.dumps({"id": 2 * i + 1, "cmd": "close", "game": f"g{i}"}))
    lines.append('{"id": "last", "cmd": "new", "kind": "deal"}')
    answers = ecarte_engine(lines)
    assert len(answers) == 2011 and all(a["ok"] for a in answers), answers[-1]
    assert answers[-1]["result"]["game"] == "g1006"


@pytest.mark.parametrize("size", [(1 << 20) + 10])
def test_an_over_long_line_is_refused_and_the_next_is_answered(size: int) -> None:
    from io import BytesIO, StringIO

    from ecarte.protocol.stdio import serve_stdio

    out = StringIO()
    data = b'{"id": 1, "cmd": "hello", "pad": "' + b"x" * size + b'"}\n{"id": 2, "cmd": "hello"}\n'
    serve_stdio(BytesIO(data), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [False, True] and answers[1]["id"] == 2


def test_docs_protocol_specifies_every_command_and_error() -> None:
    from pathlib import Path

    from ecarte.protocol.session import LEVELS

    text = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    commands = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    headings = [line[4:] for line in commands.splitlines() if line.startswith("### ")]
    assert headings == list(COMMANDS)
    for error in ("ProtocolError", "AccessError", "IllegalActionError", "InvalidRecordError"):
        assert f"`{error}`" in text
    assert all(f"`{level}`" in text for level in LEVELS)


def test_a_seat_s_observation_counts_both_hands() -> None:
    engine = Engine()
    game = engine("new", kind="match", opponent="random", seat=1, seed=5)["game"]
    holder = engine.session.games[game]
    for _ in range(40):
        state = engine("observe", game=game)
        obs = state["observation"]
        match = holder.match  # type: ignore[attr-defined]
        deal = match.deal_at(state["deal_number"] - 1)
        assert obs["hand_sizes"] == [len(deal.hand(0)), len(deal.hand(1))]
        if state["over"]:
            break
        engine("apply", game=game, action=state["legal"][-1])
