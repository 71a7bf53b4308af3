"""Resolution of a punter tableau against the banker's, through the Python API."""

from __future__ import annotations

import pytest
from ecarte import Card, EcarteError, InvalidCardError, InvalidShoeError, Suit, bank
from ecarte._core import shoe_pack
from hypothesis import given, settings
from hypothesis import strategies as st

# docs/rules.md "Bank" table (trump hearts, banker first) plus the seed's prose;
# None = misprint noted.
SEED_EXAMPLES = [
    ("KH 8H", "KH 7H", 1, 0, "banker"),
    ("QH", "8H 7H", 1, 1, "en_carte"),
    ("KH JH TH", "QH JH 2H", 1, 1, "en_carte"),  # the seed's "nine" is the banker's ten
    ("KH 7H", "AH QH", 1, 1, "en_carte"),
]


@pytest.mark.parametrize(("banker", "punter", "bt", "pt", "outcome"), SEED_EXAMPLES)
def test_seed_examples(banker: str, punter: str, bt: int, pt: int, outcome: str) -> None:
    r = bank.resolve(banker.split(), punter.split(), "H")
    assert (r.banker_tricks, r.punter_tricks, r.outcome) == (bt, pt, outcome)
    # The same with padding non-trumps, with Card objects and a Suit trump.
    padded_b = [Card(c) for c in banker.split()] + [Card("2C")] * (4 - len(banker.split()))
    padded_p = [Card(c) for c in punter.split()] + [Card("3S")] * (4 - len(punter.split()))
    assert bank.resolve(padded_b, padded_p, Suit.Hearts) == r


def test_outcome_names_and_repr() -> None:
    assert bank.resolve([], [], "S").outcome == "en_carte"
    assert bank.resolve(["2H"], [], "H").outcome == "banker"
    assert bank.resolve([], ["2H"], "h").outcome == "punter"
    assert "en_carte" in repr(bank.resolve(["KH"], ["KH"], "♥"))


def test_bad_input_raises_ecarte_errors() -> None:
    with pytest.raises(InvalidCardError):
        bank.resolve(["ZZ"], ["2H"], "H")
    with pytest.raises(InvalidCardError, match="trump"):
        bank.resolve(["2H"], ["3H"], "X")
    with pytest.raises(EcarteError):
        bank.resolve(["2H"], ["3H"], 5)


def test_deal_from_shoe_order() -> None:
    order = shoe_pack()
    deal = bank.deal_from_shoe(order)
    for t in range(4):
        assert deal.tableaux[t] == [order[4 * k + t] for k in range(4)]
    assert deal.trump_card == order[16]
    assert deal.trump == order[16].suit
    assert deal.cards() == order[:17]
    assert [r.outcome for r in deal.results()] == [
        bank.resolve(deal.tableaux[0], deal.tableaux[t], deal.trump).outcome for t in (1, 2, 3)
    ]
    with pytest.raises(InvalidShoeError, match="17"):
        bank.deal_from_shoe(order[:16])
    with pytest.raises(InvalidShoeError, match="more than twice"):
        bank.deal_from_shoe(["AH"] * 3 + order[3:17])


cards = st.sampled_from(shoe_pack())
suits = st.sampled_from([Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades])
tableau = st.lists(cards, min_size=0, max_size=4)


@settings(max_examples=200)
@given(tableau, tableau, suits)
def test_swapping_sides_mirrors(b: list[Card], p: list[Card], trump: Suit) -> None:
    r = bank.resolve(b, p, trump)
    m = bank.resolve(p, b, trump)
    assert (r.banker_tricks, r.punter_tricks) == (m.punter_tricks, m.banker_tricks)
    flip = {"banker": "punter", "punter": "banker", "en_carte": "en_carte"}
    assert m.outcome == flip[r.outcome]


@settings(max_examples=200)
@given(tableau, tableau, suits, st.lists(cards, max_size=6), st.lists(cards, max_size=6))
def test_non_trumps_change_nothing(
    b: list[Card], p: list[Card], trump: Suit, extra_b: list[Card], extra_p: list[Card]
) -> None:
    plain_b = [c for c in extra_b if c.suit != trump]
    plain_p = [c for c in extra_p if c.suit != trump]
    assert bank.resolve(b + plain_b, plain_p + p, trump) == bank.resolve(b, p, trump)


@settings(max_examples=200)
@given(tableau, tableau, suits)
def test_tricks_never_exceed_trumps(b: list[Card], p: list[Card], trump: Suit) -> None:
    r = bank.resolve(b, p, trump)
    assert r.banker_tricks <= sum(c.suit == trump for c in b)
    assert r.punter_tricks <= sum(c.suit == trump for c in p)
    expected = (
        "banker"
        if r.banker_tricks > r.punter_tricks
        else ("punter" if r.punter_tricks > r.banker_tricks else "en_carte")
    )
    assert r.outcome == expected


def test_oversized_sides_are_refused() -> None:
    with pytest.raises(InvalidShoeError, match="more than a 104-card shoe"):
        bank.resolve(["2H"] * 300, [], "H")
