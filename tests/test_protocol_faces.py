"""What the protocol gives a face so that it re-derives nothing: the default level, the
card texts, whether undo has a move to take back, and a record's player names."""

from __future__ import annotations

import json
from typing import Any

from ecarte import duel
from ecarte._core import full_pack
from ecarte.agents import make_agent
from ecarte.bank.table import MODES, TABLE_DEFAULTS
from ecarte.play import Game
from ecarte.protocol import Client, Session


def ask(session: Session, cmd: str, **fields: Any) -> Any:
    response = session.handle(Client(), {"id": 1, "cmd": cmd, **fields})
    assert response["ok"], response
    return response["result"]


def test_hello_gives_the_defaults_and_every_card_as_people_read_it() -> None:
    hello = ask(Session(), "hello")
    assert hello["default_level"] == duel.DEFAULT_LEVEL in hello["levels"]
    assert duel.Rules.from_json(json.dumps(hello["rules"])) == duel.Rules()
    assert hello["suits"] == {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    assert hello["table"] == {"defaults": dict(TABLE_DEFAULTS), "modes": list(MODES)}
    cards = hello["cards"]
    assert set(cards) == {str(c) for c in full_pack()}
    for card in full_pack():
        face = cards[str(card)]
        assert face["text"] == card.text("symbols") == face["rank"] + face["suit"]
    assert cards["TH"] == {"text": "10♥", "rank": "10", "suit": "♥"}


def test_a_game_against_an_agent_says_when_undo_has_a_move_to_take_back() -> None:
    session, client = Session(), Client()

    def call(cmd: str, **fields: Any) -> Any:
        response = session.handle(client, {"id": 1, "cmd": cmd, **fields})
        assert response["ok"], response
        return response["result"]

    started = call("new", kind="match", opponent="random", seed=4)
    game, state = started["game"], started["state"]
    assert state["can_undo"] is False  # nothing played yet
    response = session.handle(client, {"id": 2, "cmd": "undo", "game": game})
    assert not response["ok"]
    state = call("apply", game=game, action=state["legal"][0])
    assert state["can_undo"] is (state["finished"] is None)
    if state["can_undo"]:
        assert call("undo", game=game)["state"]["can_undo"] is False


def test_undo_never_reopens_a_finished_match() -> None:
    match = duel.Match(seed=2, rules=duel.Rules(target=1))
    game = Game(match, make_agent("random", 1), seat=0)
    while not match.is_over():
        if game.pending_banner:
            game.next_deal()
            continue
        assert game.can_undo is any(p == 0 for p, _ in match.deal.moves)
        game.handle(str(match.legal_actions()[0]))
    assert not game.can_undo
    before = match.to_json()
    assert game.undo().message == "Nothing to undo in this deal."
    assert match.to_json() == before


def test_replay_of_a_match_gives_the_record_s_player_names() -> None:
    match = duel.Match(seed=3, rules=duel.Rules(target=1))
    match.play(duel.BuiltinAgent("heuristic", 1), duel.BuiltinAgent("random", 2))
    assert ask(Session(), "replay", record=match.to_json())["players"] is None
    match.players = ("ann", "bob")
    assert ask(Session(), "replay", record=match.to_json())["players"] == ["ann", "bob"]
