"""The duel deal through the Python API: layout, phases, actions, errors, observations,
records."""

from __future__ import annotations

import json

import ecarte
import numpy as np
import pytest
from ecarte import (
    Card,
    EcarteError,
    IllegalActionError,
    InvalidActionError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
)
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Action, Deal, Rules


def deck(elder: str, dealer: str, turn_up: str, talon_head: str = "") -> list[Card]:
    """A deck with these hands, turn-up and first talon cards; the rest in pack order."""
    cards = [Card(t) for t in f"{elder} {dealer} {turn_up} {talon_head}".split()]
    cards += [c for c in ecarte.duel_pack() if c not in cards]
    assert len(cards) == 32
    return cards


def test_layout_from_deck() -> None:
    d = ecarte.duel_pack()
    deal = Deal.from_deck(d, dealer=0)
    assert deal.elder == 1
    assert deal.hand(1) == sorted(d[:5])
    assert deal.hand(0) == sorted(d[5:10])
    assert deal.turn_up == d[10]
    assert deal.trump == d[10].suit
    assert deal.talon == [*d[11:], d[10]]
    assert deal.talon_size == 22
    assert deal.current_player == 1
    assert deal.phase == "proposal"
    assert deal.deck == d
    assert deal.from_deck([str(c) for c in d]).deck == d


def test_seeded_deal_and_default() -> None:
    assert Deal(seed=4).deck == Deal(seed=4).deck
    assert Deal(seed=4).deck != Deal(seed=5).deck
    fresh = Deal()
    assert isinstance(fresh.seed, int)
    assert Deal(seed=fresh.seed).deck == fresh.deck


@pytest.mark.parametrize(
    "kwargs",
    [
        {"order": "french"},
        {"max_exchanges": 12},
        {"max_exchanges": -1},
        {"target": 0},
        {"target": 1000},
    ],
)
def test_invalid_rules(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_rules_defaults_and_repr() -> None:
    r = Rules()
    assert (r.order, r.allow_trump_discard, r.max_exchanges, r.target) == ("ecarte", False, 11, 7)
    assert eval(repr(r), {"Rules": Rules}) == r


def test_invalid_decks_and_dealers() -> None:
    d = ecarte.duel_pack()
    with pytest.raises(InvalidDeckError, match="31 cards"):
        Deal.from_deck(d[:31])
    with pytest.raises(InvalidDeckError, match="twice"):
        Deal.from_deck([*d[:31], d[0]])
    with pytest.raises(InvalidDeckError, match="2H"):
        Deal.from_deck([*d[:31], Card("2H")])
    with pytest.raises(InvalidDeckError, match="dealer"):
        Deal.from_deck(d, dealer=2)
    with pytest.raises(InvalidDeckError, match="dealer"):
        Deal(seed=1, dealer=-1)
    with pytest.raises(ecarte.InvalidCardError):
        Deal.from_deck(["QH"] * 31 + ["XX"])


def test_action_text_forms() -> None:
    for text in ["propose", "decline", "accept", "refuse", "discard QH", "QH"]:
        assert str(Action(text)) == text
    assert str(Action("discard q♥")) == "discard QH"
    assert repr(Action("QH")) == "Action('QH')"
    assert Action("QH").card == Card("QH")
    assert Action("QH").kind == "play"
    assert Action("discard 7C").kind == "discard"
    assert {Action.from_id(i).id for i in range(NUM_ACTIONS)} == set(range(NUM_ACTIONS))
    # Text or ids that name no action are parse errors, not legality errors.
    with pytest.raises(InvalidActionError):
        Action("play QH")
    with pytest.raises(InvalidActionError):
        Action.from_id(68)
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert issubclass(InvalidActionError, EcarteError)


def test_exchange_then_play() -> None:
    deal = Deal.from_deck(deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC"), dealer=1)
    assert [str(a) for a in deal.legal_actions()] == ["propose", "decline"]
    deal.apply("propose")
    assert deal.current_player == 1
    deal.apply(Action("accept"))
    assert Card("AD") in deal.hand(0) and Card("AC") in deal.hand(1)
    assert deal.phase == "discard" and deal.current_player == 0
    assert "discard KH" in [str(a) for a in deal.legal_actions()]
    deal.apply("discard 7C")
    deal.apply("discard 8D")
    assert deal.exchanges == 1
    assert deal.discards(0) == [Card("7C")]
    deal.apply("propose")
    deal.apply("refuse")
    assert deal.phase == "play"
    assert deal.current_player == 0
    assert [str(a) for a in deal.history] == [
        "propose",
        "accept",
        "discard 7C",
        "discard 8D",
        "propose",
        "refuse",
    ]


def test_trump_discard_ban() -> None:
    deal = Deal.from_deck(deck("KS 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC"), dealer=1)
    deal.apply("propose")
    deal.apply("accept")
    with pytest.raises(IllegalActionError, match="discard 7C"):
        deal.apply("discard KS")
    ok = Deal.from_deck(deal.deck, dealer=1, rules=Rules(allow_trump_discard=True))
    ok.apply("propose")
    ok.apply("accept")
    ok.apply("discard KS")


def test_illegal_action_lists_legal_and_changes_nothing() -> None:
    deal = Deal(seed=3)
    before = deal.copy()
    cases: list[tuple[object, type[EcarteError]]] = [
        ("accept", IllegalActionError),
        ("QH", IllegalActionError),
        ("discard 7C", IllegalActionError),
        (66, IllegalActionError),
        ("nonsense", InvalidActionError),
        ("2H", InvalidActionError),
        (None, InvalidActionError),
        (2**64, InvalidActionError),
    ]
    for bad, error in cases:
        with pytest.raises(error) as info:
            deal.apply(bad)  # type: ignore[arg-type]
        assert "propose, decline" in str(info.value)
        assert deal == before
        assert deal.history == []


def test_follow_and_trump_obligations() -> None:
    deal = Deal.from_deck(deck("KH 7C 8C 9C TC", "7H QH 7S 9D TD", "8S"), dealer=1)
    deal.apply("decline")
    deal.apply("KH")
    assert [str(a) for a in deal.legal_actions()] == ["7H", "QH"]
    deal = Deal.from_deck(deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S"), dealer=1)
    deal.apply("decline")
    deal.apply("KH")
    assert [str(a) for a in deal.legal_actions()] == ["7S", "9S"]


def test_undo_restores() -> None:
    deal = Deal(seed=8)
    start = deal.copy()
    deal.apply("propose")
    deal.apply("accept")
    assert str(deal.undo()) == "accept"
    assert str(deal.undo()) == "propose"
    assert deal == start
    with pytest.raises(ecarte.EcarteError, match="nothing to undo"):
        deal.undo()


def play_random(deal: Deal, seed: int) -> Deal:
    agent = ecarte.RandomAgent(seed)
    while not deal.is_over():
        player = deal.current_player
        assert player is not None
        deal.apply(agent(deal.observation(player), deal.legal_actions()))
    return deal


def test_outcome() -> None:
    deal = Deal(seed=10)
    assert deal.outcome() is None
    play_random(deal, 1)
    outcome = deal.outcome()
    assert outcome is not None
    assert deal.current_player is None
    assert deal.legal_actions() == []
    assert outcome.points in (1, 2)
    assert sum(outcome.cards) == 32 - 2 * deal.exchanges
    assert sum(outcome.tricks) == 16 - deal.exchanges == len(deal.tricks)
    assert outcome.cards[outcome.winner] >= outcome.cards[1 - outcome.winner]
    assert outcome.vole == (outcome.tricks[outcome.winner] == deal.total_tricks)


def test_observation_contents() -> None:
    deal = Deal(seed=2)
    obs = deal.observation(deal.elder)
    assert obs.hand == deal.hand(deal.elder)
    assert obs.trump == deal.trump and obs.turn_up == deal.turn_up
    assert obs.talon_size == 22 and obs.exchanges == 0
    assert obs.current_player == deal.elder
    assert obs.phase == "proposal"
    assert obs.score == (0, 0)
    assert deal.observation(0, score=(3, 5)).score == (3, 5)
    with pytest.raises(ecarte.EcarteError):
        deal.observation(2)


def test_tensor_and_mask_shapes() -> None:
    deal = Deal(seed=2)
    t = deal.observation_tensor(0)
    assert t.shape == (OBSERVATION_SIZE,) and t.dtype == np.float32
    hand_plane = t[:32]
    assert hand_plane.sum() == 5
    mask = deal.legal_action_mask()
    assert mask.shape == (NUM_ACTIONS,) and mask.dtype == np.bool_
    assert [i for i in range(NUM_ACTIONS) if mask[i]] == [a.id for a in deal.legal_actions()]


def _swap_hidden(deal_cards: list[Card], viewer_is_elder: bool) -> list[Card]:
    """The same deck with the viewer's opponent's hand and the talon shuffled among
    themselves: everything hidden from the viewer changes, nothing visible does."""
    cards = list(deal_cards)
    hidden_idx = (list(range(5, 10)) if viewer_is_elder else list(range(0, 5))) + list(
        range(11, 32)
    )
    hidden = [cards[i] for i in hidden_idx]
    hidden = hidden[7:] + hidden[:7]
    for i, c in zip(hidden_idx, hidden, strict=False):
        cards[i] = c
    return cards


@pytest.mark.parametrize("seed", range(5))
def test_no_hidden_card_leaks_at_the_start(seed: int) -> None:
    a = Deal(seed=seed, dealer=0)
    b = Deal.from_deck(_swap_hidden(a.deck, viewer_is_elder=True), dealer=0)
    assert a.deck != b.deck
    assert a.observation(1) == b.observation(1)
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert a.observation(0) != b.observation(0)


def test_no_hidden_card_leaks_through_discards() -> None:
    # Two deals that differ only in the dealer's discard: the elder cannot tell them apart.
    base = deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC")
    a = Deal.from_deck(base, dealer=1)
    b = Deal.from_deck(base, dealer=1)
    for d, dealer_discard in ((a, "discard 8D"), (b, "discard 9D")):
        d.apply("propose")
        d.apply("accept")
        d.apply("discard 7C")
        d.apply(dealer_discard)
    assert a.observation(0) == b.observation(0)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.observation(1) != b.observation(1)


def test_json_round_trip() -> None:
    deal = play_random(Deal(seed=21, dealer=1, rules=Rules(order="traditional")), 4)
    text = deal.to_json()
    record = json.loads(text)
    assert record["format"] == "ecarte.duel.deal" and record["version"] == 1
    assert record["dealer"] == 1 and record["rules"]["order"] == "traditional"
    again = Deal.from_json(text)
    assert again == deal
    assert again.outcome() == deal.outcome()
    assert again.to_json() == text


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: r.update(actions=["accept", *r["actions"][1:]]),
        lambda r: r.update(deck=[*r["deck"][:-1], r["deck"][0]]),
        lambda r: r.update(deck=[*r["deck"][:-1], "2H"]),
        lambda r: r.update(version=99),
        lambda r: r.update(format="chess"),
        lambda r: r.update(dealer=3),
        lambda r: r.pop("actions"),
        lambda r: r.update(extra=1),
        lambda r: r["rules"].update(max_exchanges=40),
    ],
)
def test_tampered_records_raise(tamper) -> None:  # type: ignore[no-untyped-def]
    deal = play_random(Deal(seed=22), 5)
    record = json.loads(deal.to_json())
    tamper(record)
    with pytest.raises(InvalidRecordError):
        Deal.from_json(json.dumps(record))


def test_malformed_json_raises() -> None:
    with pytest.raises(InvalidRecordError):
        Deal.from_json("{not json")


def test_perft_pinned() -> None:
    # The same counts as the Rust perft tests: all 11 exchanges, first legal discard.
    deal = Deal(seed=0, dealer=0)
    while deal.phase != "play":
        legal = deal.legal_actions()
        choice = {"propose", "accept"} & {str(a) for a in legal}
        deal.apply(choice.pop() if choice else legal[0])
    assert deal.exchanges == 11
    assert deal.perft() == 3456
    assert deal.perft(2) == 25


def test_observation_history_hides_only_the_opponents_discards() -> None:
    base = deck("KH 7C 8C 9C TC", "7S 9S 8D 9D TD", "8S", "AD AC")
    deal = Deal.from_deck(base, dealer=1)
    for a in ["propose", "accept", "discard 7C", "discard 8D", "decline"]:
        deal.apply(a)
    elder_view = [None if a is None else str(a) for a in deal.observation(0).history]
    dealer_view = [None if a is None else str(a) for a in deal.observation(1).history]
    assert elder_view == ["propose", "accept", "discard 7C", None, "decline"]
    assert dealer_view == ["propose", "accept", None, "discard 8D", "decline"]
    assert deal.observation(0).draws == [Card("AD")]
    assert deal.observation(1).draws == [Card("AC")]
    assert deal.observation(0).talon_drawers == [0, 1]
    assert deal.observation(0).initial_hand == [Card(t) for t in "KH 7C 8C 9C TC".split()]


def test_observation_tensor_into_a_buffer() -> None:
    deal = Deal(seed=6)
    buffer = np.full(OBSERVATION_SIZE, 7.0, dtype=np.float32)
    result = deal.observation_tensor(1, out=buffer)
    assert result is buffer
    assert np.array_equal(buffer, deal.observation_tensor(1))
    with pytest.raises(ecarte.EcarteError, match="214"):
        deal.observation_tensor(1, out=np.zeros(10, dtype=np.float32))
    with pytest.raises(ecarte.EcarteError, match="dtype float64"):
        deal.observation_tensor(1, out=np.zeros(OBSERVATION_SIZE, dtype=np.float64))  # type: ignore[arg-type]


def card_index(card: Card) -> int:
    """The documented card index: suit * 8 + (rank - 7), suits C D H S."""
    return "CDHS".index(str(card)[1]) * 8 + "789TJQKA".index(str(card)[0])


def test_tensor_layout_matches_the_documentation() -> None:
    deal = Deal(seed=13)
    for _ in range(9):
        deal.apply(deal.legal_actions()[-1])
    p = deal.current_player
    assert p is not None
    t = deal.observation_tensor(p, score=(2, 5))
    obs = deal.observation(p)
    planes = {0: obs.hand, 32: obs.discards, 160: [obs.turn_up]}
    for offset, cards in planes.items():
        assert sorted(np.flatnonzero(t[offset : offset + 32])) == sorted(
            card_index(c) for c in cards
        )
    mine = [
        c
        for tr in obs.tricks
        for c, who in zip(tr.cards, (tr.leader, 1 - tr.leader), strict=False)
        if who == p
    ]
    assert sorted(np.flatnonzero(t[64:96])) == sorted(card_index(c) for c in mine)
    assert t[192 + "CDHS".index(str(obs.trump))] == 1 and t[192:196].sum() == 1
    assert t[199 + ["proposal", "response", "discard", "play", "over"].index(obs.phase)] == 1
    assert t[204] == (deal.dealer == p) and t[205] == 1
    assert np.isclose(t[212], (2, 5)[p] / 7) and np.isclose(t[213], (2, 5)[1 - p] / 7)
    assert all(Action.from_id(card_index(c)) == Action(str(c)) for c in ecarte.duel_pack())


def test_who_drew_the_turn_up_is_public() -> None:
    deal = Deal(seed=5, dealer=0)
    while deal.phase != "play":
        legal = deal.legal_actions()
        calls = [a for a in legal if str(a) in ("propose", "accept")]
        deal.apply(calls[0] if calls else legal[0])
    assert deal.talon_size == 0 and deal.turn_up_holder == 0  # the dealer drew it last
    for seat in (0, 1):
        assert deal.observation(seat).turn_up_holder == 0
        t = deal.observation_tensor(seat)
        assert t[196 + (1 if seat == 0 else 2)] == 1 and t[196:199].sum() == 1
    assert deal.observation(1).talon_size % 2 == 0
