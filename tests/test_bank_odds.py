"""Exact odds: sums, Fractions, brute force on tiny shoes, impossible states."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from ecarte import Card, InvalidCardError, InvalidShoeError, Suit, bank


def brute_force(trump: str, shoe: list[str]) -> dict[str, Fraction]:
    """Every ordered pair of disjoint 4-card tableaux from the labelled cards of `shoe`."""
    counts: Counter[str] = Counter()
    idx = range(len(shoe))
    for b in itertools.combinations(idx, 4):
        rest = [i for i in idx if i not in b]
        for p in itertools.combinations(rest, 4):
            r = bank.resolve([shoe[i] for i in b], [shoe[i] for i in p], trump)
            counts[r.outcome] += 1
    total = sum(counts.values())
    return {o: Fraction(counts[o], total) for o in ("banker", "en_carte", "punter")}


TINY_SHOES = [
    "AH AH KH 7H 7H 2C 3C 4D 5S 6S",
    "QH JH JH TH 2H 2H 9C 9C 8D 7S",
    "AH KH QH JH TH 9H 8H 7H",
    "2C 3C 4C 5C 6C 7C 8C 9C",
]


@pytest.mark.parametrize("shoe", TINY_SHOES)
def test_matches_brute_force(shoe: str) -> None:
    o = bank.odds("H", shoe=shoe.split())
    assert o.exact == brute_force("H", shoe.split())
    assert o.cards_left == len(shoe.split())


def test_full_shoe_sums_to_one_with_fractions() -> None:
    o = bank.odds("H", removed=["7H"])
    assert all(isinstance(v, Fraction) for v in o.exact.values())
    assert sum(o.exact.values()) == 1
    assert o.banker_exact == o.exact["banker"] == o.punter_exact  # the two sides draw alike
    assert o.en_carte_exact == o.exact["en_carte"]
    assert o.banker + o.en_carte + o.punter == pytest.approx(1.0)
    assert sum(o.scores_exact.values()) == 1
    assert sum(o.scores.values()) == pytest.approx(1.0)
    assert all(b + p <= 8 and max(b, p) <= 4 for b, p in o.scores)
    assert o.en_carte_exact == sum(v for (b, p), v in o.scores_exact.items() if b == p)
    assert (o.cards_left, o.trumps_left) == (103, 25)


def test_trump_card_counts_as_removed() -> None:
    assert bank.odds(Card("7H")).exact == bank.odds(Suit.Hearts, removed=["7H"]).exact
    assert bank.odds("7H").exact == bank.odds("H", ["7H"]).exact


def test_seen_cards_change_the_odds() -> None:
    fresh = bank.odds("H", ["7H"])
    no_trumps_seen = bank.odds("H", ["7H"] + ["2C"] * 2 + ["3C"] * 2)
    trumps_seen = bank.odds("H", ["7H", "AH", "AH", "KH", "KH"])
    assert fresh.en_carte < trumps_seen.en_carte
    assert no_trumps_seen.en_carte < fresh.en_carte


def test_few_cards_left() -> None:
    o = bank.odds("S", shoe="AS 2S 3C 4C 5C 6C 7C 8C".split())
    assert sum(o.exact.values()) == 1
    assert o.exact == brute_force("S", "AS 2S 3C 4C 5C 6C 7C 8C".split())
    with pytest.raises(InvalidShoeError, match="7 cards left"):
        bank.odds("S", shoe="AS 2S 3C 4C 5C 6C 7C".split())


def test_impossible_states_raise() -> None:
    with pytest.raises(InvalidShoeError, match="7H is removed 3 time"):
        bank.odds("H", removed=["7H", "7H", "7H"])
    with pytest.raises(InvalidShoeError, match="more than twice"):
        bank.odds("H", shoe=["7H"] * 3 + ["2C"] * 8)
    with pytest.raises(InvalidShoeError, match="AH is removed"):
        bank.odds("H", removed=["AH"], shoe="2C 3C 4C 5C 6C 7C 8C 9C TC".split())
    with pytest.raises(InvalidShoeError):
        bank.odds("7H", removed=["7H", "7H"])  # the turn-up would be a third 7H


def test_the_turned_up_card_as_trump_card() -> None:
    # Issue 10: a bare suit left the turn-up in the shoe, a state play never meets. The
    # turned-up card is accepted as trump_card= and leaves the shoe.
    with_card = bank.odds(trump_card="QH")
    assert with_card.cards_left == 103 and with_card.trumps_left == 25
    assert with_card.exact == bank.odds("QH").exact == bank.odds(Card("QH")).exact
    assert with_card.exact == bank.odds("H", removed=["QH"]).exact
    assert bank.odds(trump_card=Card("7S"), removed=["2C"]).cards_left == 102
    # A bare suit removes nothing more, as documented: the cards left are shoe - removed.
    assert bank.odds("H").cards_left == 104
    with pytest.raises(InvalidCardError, match="not both"):
        bank.odds("H", trump_card="QH")
    with pytest.raises(InvalidCardError, match="turned-up card"):
        bank.odds()
    with pytest.raises(InvalidCardError):
        bank.odds(trump_card="H")
    with pytest.raises(InvalidCardError, match="Card or card text"):
        bank.odds(trump_card=7)  # type: ignore[arg-type]
    with pytest.raises(InvalidShoeError):
        bank.odds(trump_card="QH", removed=["QH", "QH"])


def test_full_shoe_figures_are_pinned() -> None:
    # The figures of the former enumeration: the dynamic programme must keep them exactly.
    o = bank.odds(trump_card="7H")
    assert o.exact == {
        "banker": Fraction(6796449772173, 16643341499400),
        "en_carte": Fraction(3050441955054, 16643341499400),
        "punter": Fraction(6796449772173, 16643341499400),
    }
    assert o.scores_exact[(0, 0)] == Fraction(1766840493330, 16643341499400)
    seen = bank.odds(trump_card="7H", removed=["AH", "AH", "KH", "KH"])
    assert seen.exact["en_carte"] == Fraction(2433747900890, 11984060392920)


@pytest.mark.parametrize("seed", range(6))
def test_matches_brute_force_on_random_small_shoes(seed: int) -> None:
    import random

    rng = random.Random(seed)
    pool = [r + "H" for r in "23456789TJQKA"] * 2 + ["2C", "3D", "4S", "5C"]
    shoe = rng.sample(pool, 8 + seed % 3)
    assert bank.odds("H", shoe=shoe).exact == brute_force("H", shoe)
