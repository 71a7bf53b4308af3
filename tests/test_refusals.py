"""Why an action is refused, for every reason code: the engine's refusal as
``IllegalActionError``'s attributes, and the same reason through the protocol
(``error.reason``), in every game kind that takes actions."""

from __future__ import annotations

import copy
import json
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest
from ecarte import Card, EcarteError, IllegalActionError, Suit
from ecarte.duel import REASON_CODES, Action, Deal, Match, Reason, Rules, VecEnv
from ecarte.protocol import Client, Session


@dataclass
class Case:
    """A deal of seed 1 (seat 0 deals, trump ♠; the elder, seat 1, holds 9♣ A♣ 7♦ 8♠ T♠, the
    dealer 8♣ 9♥ A♥ 9♠ A♠) after ``before``, and the action a seat tries."""

    before: list[str]
    action: str
    player: int | None = None
    cards: list[str] = field(default_factory=list)
    suit: Suit | None = None
    text: str = ""
    rules: dict[str, Any] = field(default_factory=dict)


CASES = {
    "must_follow": Case(["decline", "9C"], "9H", 0, ["9H", "9C"], Suit.Clubs, "you must follow ♣"),
    "must_trump": Case(
        ["decline", "7D"], "9H", 0, ["9H", "7D"], Suit.Spades,
        "you have no ♦, so you must trump (♠)",
    ),
    "not_held": Case(["decline"], "TH", 1, ["TH"], None, "you hold no 10♥"),
    "trump_discard": Case(
        ["propose", "accept"], "discard 8S", 1, ["8S"], Suit.Spades,
        "trumps (♠) may not be discarded while you hold a card of another suit",
    ),
    "not_your_turn": Case([], "propose", 0, text="it is not your turn"),
    "wrong_phase": Case([], "9C", 1, ["9C"], text="the exchange comes first: propose or decline"),
    "no_proposal": Case([], "accept", 1, text="there is no proposal to answer: propose or decline"),
    "dealer_never_proposes": Case(
        ["propose"], "propose", 0,
        text="the dealer never proposes: accept or refuse the opponent's proposal",
    ),
    "exchange_limit": Case(
        [], "propose", 1, text="no more exchanges: the rules' limit is reached; play a card",
        rules={"max_exchanges": 0},
    ),
}  # fmt: skip


def finished_deal() -> Deal:
    deal = Deal(seed=1, dealer=0)
    while not deal.is_over():
        deal.apply(deal.legal_actions()[0])
    return deal


def finished_match() -> Match:
    match = Match(seed=1, rules=Rules(target=1))
    while not match.is_over():
        match.apply(match.legal_actions()[0])
    return match


def refused(call: Any, *args: Any) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        call(*args)
    return info.value


def test_every_code_is_tested_and_documented() -> None:
    covered = {*CASES, "deal_over", "match_over", "not_an_action"}
    assert covered == set(REASON_CODES)
    for doc in ("docs/api.md", "docs/protocol.md"):
        text = open(doc, encoding="utf-8").read()
        missing = [code for code in REASON_CODES if f"`{code}`" not in text]
        assert not missing, (doc, missing)


@pytest.mark.parametrize("code", sorted(CASES))
def test_the_engine_refuses_with_the_reason_and_its_parts(code: str) -> None:
    case = CASES[code]
    deal = Deal(seed=1, dealer=0, rules=Rules(**case.rules))
    for action in case.before:
        deal.apply(action)
    before = deal.copy()
    error = refused(deal.apply, case.action, case.player)
    assert deal == before, "a refusal changes nothing"
    assert isinstance(error, EcarteError) and isinstance(error, ValueError)
    assert error.code == code and error.reason is not None and error.reason.code == code
    assert error.action == Action(case.action) == error.reason.action
    assert error.cards == tuple(Card(c) for c in case.cards) == error.reason.cards
    assert error.suit == case.suit == error.reason.suit
    assert error.reason.phase == deal.phase
    mine = code != "not_your_turn"
    assert error.legal == (tuple(deal.legal_actions()) if mine else ())
    assert error.reason.text() == error.reason.text("symbols") == str(error.reason) == case.text
    assert "♥" not in error.reason.text("ascii") and "10♥" not in error.reason.text("code")
    # For programs the message keeps the codes and names the legal actions.
    message = str(error)
    assert message.startswith(f"illegal action {case.action}; {error.reason.text('code')}")
    if mine:
        assert message.endswith("legal actions: " + ", ".join(map(str, deal.legal_actions())))
    # The same refusal from `check` (nothing applied), from a match in that deal, and from
    # the trying seat's own observation.
    assert refused(deal.check, case.action, case.player).reason == error.reason
    assert deal == before
    observer = deal.current_player if case.player is None else case.player
    assert observer is not None
    assert deal.observation(observer).refusal(case.action) == error.reason
    # Pickled with its reason, as process pools ship errors.
    again = pickle.loads(pickle.dumps(error))
    assert (again.reason, again.code, again.legal, str(again)) == (
        error.reason, error.code, error.legal, str(error),
    )  # fmt: skip
    assert copy.copy(error.reason) == error.reason


def test_the_end_of_a_deal_or_a_match_and_an_id_that_names_nothing() -> None:
    deal = finished_deal()
    error = refused(deal.apply, "propose")
    assert (error.code, error.legal, error.reason.text()) == ("deal_over", (), "the deal is over")
    match = finished_match()
    error = refused(match.apply, "propose")
    assert (error.code, error.legal, error.reason.text()) == ("match_over", (), "the match is over")
    assert refused(match.check, "propose", 1).code == "match_over"
    env = VecEnv(2, seed=1)
    error = refused(env.step, [64, 999])
    assert error.code == "not_an_action" and error.action is None
    assert str(error).startswith("illegal action id 999 in env 1; no action has this id;")
    wrong = refused(env.step, [66, 64])
    assert (wrong.code, wrong.action, wrong.reason.phase) == (
        "no_proposal",
        Action("accept"),
        "proposal",
    )


def test_an_error_raised_without_a_reason_has_empty_parts() -> None:
    error = IllegalActionError("nothing to undo")
    assert (error.reason, error.code, error.action, error.legal, error.cards, error.suit) == (
        None, None, None, (), (), None,
    )  # fmt: skip
    with pytest.raises(EcarteError, match="REASON_CODES"):
        Reason("no_such_code")
    with pytest.raises(EcarteError, match="style"):
        Reason("not_held", cards=["QH"]).text("fancy")
    assert Reason("not_held", "QH", ["QH"]).text("ascii") == "you hold no QH"
    assert Card("TH").text() == Card("TH").pretty() == "10♥"
    assert (Card("TH").text("ascii"), Card("TH").text("code"), str(Card("TH"))) == (
        "10H",
        "TH",
        "TH",
    )
    assert (Suit.Hearts.text(), Suit.Hearts.text("ascii")) == ("♥", "H")


class Engine:
    def __init__(self) -> None:
        self.session, self.client, self.count = Session(), Client(), 0

    def send(self, cmd: str, **fields: Any) -> dict[str, Any]:
        self.count += 1
        response = self.session.handle(self.client, {"id": self.count, "cmd": cmd, **fields})
        return json.loads(json.dumps(response))  # what the wire carries

    def ok(self, cmd: str, **fields: Any) -> Any:
        response = self.send(cmd, **fields)
        assert response["ok"], response
        return response["result"]

    def reason(self, cmd: str, **fields: Any) -> dict[str, Any]:
        response = self.send(cmd, **fields)
        assert not response["ok"], response
        error = response["error"]
        assert set(error) == {"type", "message", "reason"}, error
        return dict(error["reason"])


@pytest.mark.parametrize("code", sorted(CASES))
def test_the_protocol_gives_the_engine_s_reason(code: str) -> None:
    case = CASES[code]
    engine = Engine()
    game = engine.ok("new", kind="deal", seed=1, dealer=0, rules=case.rules or None)["game"]
    for action in case.before:
        engine.ok("apply", game=game, action=action)
    before = engine.ok("record", game=game)
    seat = {} if case.player is None else {"seat": case.player}
    reason = engine.reason("apply", game=game, action=case.action, **seat)
    suit = None if case.suit is None else str(case.suit)
    assert reason == {"code": code, "cards": case.cards, "suit": suit, "text": case.text}
    assert engine.ok("record", game=game) == before


def test_the_protocol_refuses_the_end_of_a_deal_or_match() -> None:
    engine = Engine()
    game = engine.ok("new", kind="deal", record=finished_deal().to_json())["game"]
    assert engine.reason("apply", game=game, action="propose")["code"] == "deal_over"
    game = engine.ok("new", kind="match", record=finished_match().to_json())["game"]
    assert engine.reason("apply", game=game, action="propose")["code"] == "match_over"


def test_a_seat_not_to_move_is_refused_in_every_game_kind() -> None:
    engine = Engine()
    for kind in ("deal", "match"):
        game = engine.ok("new", kind=kind, seed=1)["game"]
        mover = engine.ok("observe", game=game)["current_player"]
        reason = engine.reason("apply", game=game, action="propose", seat=1 - mover)
        assert reason["code"] == "not_your_turn" and reason["text"] == "it is not your turn"
        engine.ok("apply", game=game, action="propose", seat=mover)
    # Against an agent the client acts for its own seat: its refusals are the engine's too.
    game = engine.ok("new", kind="match", opponent="random", seat=1, seed=2)["game"]
    assert engine.reason("apply", game=game, action="accept")["code"] == "no_proposal"
    # At a table, a punter's seat trying the banker's action.
    table = engine.ok("new", kind="table", players=["ann", "bob"], seed=3)["game"]
    response = engine.send("apply", game=table, action=["deal"], seat=1)
    assert not response["ok"] and response["error"]["type"] == "TableError"
    assert response["error"]["reason"]["code"] == "not_your_turn"
