import pickle

import ecarte
import pytest
from ecarte import Card, EcarteError, InvalidCardError, InvalidSeedError, Rank, Suit


@pytest.mark.parametrize("text", ["QH", "qh", "Q♥", "q♡", " QH ", "Qh"])
def test_queen_of_hearts_forms(text: str) -> None:
    card = Card.parse(text)
    assert card == Card("QH")
    assert (card.rank, card.suit) == (Rank.Queen, Suit.Hearts)


@pytest.mark.parametrize("text", ["TS", "10S", "10♠", "ts", "10s", "t♠"])
def test_ten_forms(text: str) -> None:
    assert Card(text) == Card("TS")


def test_canonical_text_and_repr() -> None:
    card = Card("q♥")
    assert str(card) == "QH"
    assert repr(card) == "Card('QH')"
    assert eval(repr(card), {"Card": Card}) == card
    assert card.pretty() == "Q♥"
    assert str(Card("10C")) == "TC"


def test_the_three_card_styles_read_back() -> None:
    ten, queen = Card("TH"), Card("QS")
    assert (ten.text("code"), ten.text("symbols"), ten.text("ascii")) == ("TH", "10♥", "10H")
    assert (queen.text("code"), queen.text(), queen.text("ascii")) == ("QS", "Q♠", "QS")
    assert ten.pretty() == ten.text() and str(ten) == ten.text("code")
    assert (Suit.Hearts.text(), Suit.Hearts.text("ascii"), Suit.Hearts.text("code")) == (
        "♥",
        "H",
        "H",
    )
    for card in ecarte.full_pack():
        for style in ("code", "symbols", "ascii"):
            assert Card(card.text(style)) == card
    with pytest.raises(EcarteError, match="style must be"):
        ten.text("fancy")  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "Q", "QX", "1H", "11H", "QHH", "♥Q", "QH!"])
def test_bad_text_names_the_input(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert f'"{text}"' in str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, EcarteError)


def test_error_hierarchy() -> None:
    for err in (
        ecarte.InvalidCardError,
        ecarte.IllegalActionError,
        ecarte.InvalidRulesError,
        ecarte.InvalidDeckError,
        ecarte.InvalidRecordError,
    ):
        assert issubclass(err, ecarte.EcarteError)
        assert issubclass(err, ValueError)


def test_cards_are_frozen_hashable_ordered() -> None:
    a, b = Card("7C"), Card("AS")
    assert a < b
    assert len({Card("QH"), Card("Q♥"), Card("qh")}) == 1
    with pytest.raises(AttributeError):
        a.rank = Rank.Ace  # type: ignore[misc]
    assert sorted([Card("AH"), Card("2H"), Card("KC")]) == [Card("KC"), Card("2H"), Card("AH")]
    assert pickle.loads(pickle.dumps(b)) == b


def test_card_from_rank_and_suit() -> None:
    assert Card(Rank.Queen, Suit.Hearts) == Card("QH")
    assert Card("Q", Suit.Hearts) == Card("QH")
    assert Card.from_id(Card("QH").id) == Card("QH")
    with pytest.raises(InvalidCardError):
        Card.from_id(52)


def test_packs() -> None:
    pack = ecarte.duel_pack()
    assert len(pack) == len(set(pack)) == 32
    assert {str(c)[0] for c in pack} == set("789TJQKA")
    shoe = ecarte.shoe_pack()
    assert len(shoe) == 104
    assert all(shoe.count(c) == 2 for c in ecarte.full_pack())


# The exact order of the shuffled 32-card pack for seeds 0, 1, 2 (ChaCha8Rng, rand 0.10).
# A dependency bump that changes the shuffle must fail here, loudly.
PINNED = {
    0: "TS 7D KC 8C 8D JS QH KS 8H QS TH JC TD 9S JH 9D "
    "AS 7H 8S TC 9C QD KH AD 7S AC 9H KD QC AH JD 7C",
    1: "TS 7D 8S 9C AC AH AS 9H 9S 8C QS 8H KD 8D QH TC "
    "9D JH JD 7C JS TH KH KS QC 7S JC AD 7H KC QD TD",
    2: "QS AS TD 9D QC JD TS 7H QD QH 7D AH KD 8S 9S 7C "
    "JS KC JH TH AC 9C 8D JC KH 8H 7S 8C 9H TC AD KS",
}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pinned_shuffle(seed: int) -> None:
    assert " ".join(map(str, ecarte.shuffled(ecarte.duel_pack(), seed))) == PINNED[seed]
    assert " ".join(map(str, ecarte.duel.Deal(seed=seed).deck)) == PINNED[seed]


def test_shuffle_is_deterministic_and_a_permutation() -> None:
    pack = ecarte.duel_pack()
    a = ecarte.shuffled(pack, 12345)
    assert a == ecarte.shuffled(pack, 12345)
    assert a != ecarte.shuffled(pack, 12346)
    assert sorted(a) == sorted(pack)


@pytest.mark.parametrize("bad", [-1, 2**64, True, 1.5, "7"])
def test_seeds_are_checked(bad: object) -> None:
    for call in (
        lambda: ecarte.duel.Deal(seed=bad),  # type: ignore[arg-type]
        lambda: ecarte.shuffled(ecarte.duel_pack(), bad),  # type: ignore[arg-type]
        lambda: ecarte.derive_seed(bad, 0),  # type: ignore[arg-type]
        lambda: ecarte.duel.simulate(1, seed=bad),  # type: ignore[arg-type]
        lambda: ecarte.duel.VecEnv(1, seed=bad),  # type: ignore[arg-type]
    ):
        # A whole number out of range is a bad value, anything else a wrong type.
        wrong_type = isinstance(bad, (bool, float, str))
        with pytest.raises(TypeError if wrong_type else InvalidSeedError, match="seed"):
            call()
