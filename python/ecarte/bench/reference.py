"""A pure-Python reference of both variants' rules (docs/rules.md), independent of the engine.

It serves twice: as an executable specification that the Rust engine is tested against
step by step (``tests/test_reference.py``), and as the speed baseline of the benchmarks
(``benches/``, ``ecarte bench``). It imports nothing from the native module and uses plain
ints and strings, written for clarity first, without being artificially slow.

Duel cards are ints ``0..32``: ``suit * 8 + (rank - 7)``, suits ``C D H S`` and ranks in
natural order ``7 8 9 T J Q K A`` (the engine's card index, whatever the rank order).
Actions are the engine's ids: plays ``0..32``, discards ``32..64``, then ``PROPOSE`` (64),
``DECLINE``, ``ACCEPT``, ``REFUSE`` (67).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "ACCEPT",
    "DECLINE",
    "DISCARD",
    "PROPOSE",
    "REFUSE",
    "RefDeal",
    "RefOutcome",
    "RefResolution",
    "RefRules",
    "RefTrick",
    "action_text",
    "card_index",
    "card_text",
    "deal_tableaux",
    "duel_pack",
    "random_playout",
    "resolve",
    "shoe",
    "shuffle",
    "trick_winner",
]

SUITS = "CDHS"
DUEL_RANKS = "789TJQKA"  # natural order: the card index
PACK_SIZE = 32
HAND_SIZE = 5
TALON_SIZE = 22  # the turn-up included

DISCARD = 32  # discard of card c is action DISCARD + c
PROPOSE, DECLINE, ACCEPT, REFUSE = 64, 65, 66, 67
_CALLS = {PROPOSE: "propose", DECLINE: "decline", ACCEPT: "accept", REFUSE: "refuse"}

# Strength of each natural rank (7 8 9 T J Q K A) under a rank order, 0 = lowest.
STRENGTH = {
    "ecarte": (0, 1, 2, 3, 5, 6, 7, 4),  # 7 8 9 T A J Q K: the ace between ten and jack
    "traditional": (0, 1, 2, 3, 4, 5, 6, 7),  # 7 8 9 T J Q K A
}


# -- cards -------------------------------------------------------------------------------


def card_index(text: str) -> int:
    """``"QH"`` → 21: the duel card index of a two-character card text."""
    return SUITS.index(text[1].upper()) * 8 + DUEL_RANKS.index(text[0].upper())


def card_text(card: int) -> str:
    """21 → ``"QH"``."""
    return DUEL_RANKS[card & 7] + SUITS[card >> 3]


def suit_of(card: int) -> int:
    return card >> 3


def action_text(action: int) -> str:
    """The engine's text of an action id: ``"QH"``, ``"discard QH"``, ``"propose"``..."""
    if action < DISCARD:
        return card_text(action)
    if action < PROPOSE:
        return "discard " + card_text(action - DISCARD)
    return _CALLS[action]


def duel_pack() -> list[int]:
    """The 32 duel cards in index order."""
    return list(range(PACK_SIZE))


def shuffle(cards: Sequence[int], rng: random.Random) -> list[int]:
    """A shuffled copy (Fisher–Yates via ``random.Random``; not the engine's ChaCha8 order)."""
    out = list(cards)
    rng.shuffle(out)
    return out


# -- duel --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RefRules:
    """The duel options: rank order, trump discards, exchange limit (0-11)."""

    order: str = "ecarte"
    allow_trump_discard: bool = False
    max_exchanges: int = 11


@dataclass(frozen=True)
class RefTrick:
    leader: int
    cards: tuple[int, int]  # the leader's card, then the follower's
    winner: int


@dataclass(frozen=True)
class RefOutcome:
    winner: int
    points: int
    cards: tuple[int, int]
    tricks: tuple[int, int]


def trick_winner(lead: int, follow: int, trump: int, order: str) -> int:
    """0 if the leader's card takes the trick, 1 if the follower's does.

    The highest trump wins; without a trump, the higher card of the led suit. A card of
    another suit that is not a trump never wins."""
    if suit_of(follow) == suit_of(lead):
        strength = STRENGTH[order]
        return 1 if strength[follow & 7] > strength[lead & 7] else 0
    return 1 if suit_of(follow) == trump else 0


class RefDeal:
    """One duel deal as a plain state machine (no undo): the exchange phase, then tricks
    with talon draws, then the outcome. Phases and seats match the engine's."""

    def __init__(self, deck: Sequence[int], dealer: int = 0, rules: RefRules | None = None):
        if sorted(deck) != list(range(PACK_SIZE)):
            raise ValueError("a duel deck is the 32 cards 0..31, each once")
        if dealer not in (0, 1):
            raise ValueError(f"invalid dealer {dealer}")
        self.rules = rules or RefRules()
        if not 0 <= self.rules.max_exchanges <= 11:
            raise ValueError("max_exchanges must be between 0 and 11")
        self.deck = list(deck)
        self.dealer = dealer
        self.elder = 1 - dealer
        # Card 0 on top: elder 0-4, dealer 5-9, turn-up 10, talon 11-31 then the turn-up.
        self.hands: list[set[int]] = [set(), set()]
        self.hands[self.elder] = set(deck[:HAND_SIZE])
        self.hands[dealer] = set(deck[HAND_SIZE : 2 * HAND_SIZE])
        self.turn_up = deck[10]
        self.trump = suit_of(self.turn_up)
        self.talon = [*deck[11:], self.turn_up]  # draw order
        self.talon_next = 0
        self.turn_up_holder: int | None = None
        self.discards: list[list[int]] = [[], []]
        self.exchanges = 0
        self.lead: int | None = None
        self.tricks: list[RefTrick] = []
        self.cards_taken = [0, 0]
        self.to_move = self.elder
        self.phase = "proposal" if self._may_propose() else "play"

    @property
    def talon_size(self) -> int:
        return TALON_SIZE - self.talon_next

    @property
    def current_player(self) -> int | None:
        return None if self.phase == "over" else self.to_move

    def hand(self, player: int) -> list[int]:
        return sorted(self.hands[player])

    def is_over(self) -> bool:
        return self.phase == "over"

    def _may_propose(self) -> bool:
        return self.talon_size >= 2 and self.exchanges < self.rules.max_exchanges

    # -- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The legal action ids in increasing order (empty once the deal is over)."""
        phase = self.phase
        if phase == "play":
            return sorted(self.playable())
        if phase == "proposal":
            return [PROPOSE, DECLINE]
        if phase == "response":
            return [ACCEPT, REFUSE]
        if phase == "discard":
            return [DISCARD + c for c in sorted(self.discardable())]
        return []

    def discardable(self) -> set[int]:
        """No trump may be discarded, unless the rules allow it or the hand is all trumps."""
        hand = self.hands[self.to_move]
        if self.rules.allow_trump_discard:
            return hand
        non_trumps = {c for c in hand if suit_of(c) != self.trump}
        return non_trumps or hand

    def playable(self) -> set[int]:
        """Lead anything; follow suit if able, else trump if able, else anything. Heading
        the trick is never required."""
        hand = self.hands[self.to_move]
        if self.lead is None:
            return hand
        led = suit_of(self.lead)
        follow = {c for c in hand if suit_of(c) == led}
        if follow:
            return follow
        trumps = {c for c in hand if suit_of(c) == self.trump}
        return trumps or hand

    # -- apply ---------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Applies a legal action id; an illegal one raises ``ValueError``, nothing changed."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action_text(action)} in phase {self.phase}")
        me = self.to_move
        if action == PROPOSE:
            self.phase, self.to_move = "response", self.dealer
        elif action == ACCEPT:
            # One exchange: the elder draws, then the dealer; then both discard, elder first.
            self.exchanges += 1
            self._draw(self.elder)
            self._draw(self.dealer)
            self.phase, self.to_move = "discard", self.elder
        elif action in (DECLINE, REFUSE):
            self.phase, self.to_move = "play", self.elder
        elif action >= DISCARD:
            card = action - DISCARD
            self.hands[me].remove(card)
            self.discards[me].append(card)
            if me == self.elder:
                self.to_move = self.dealer
            elif self._may_propose():
                self.phase, self.to_move = "proposal", self.elder
            else:
                self.phase, self.to_move = "play", self.elder
        else:
            self._play(action)

    def _draw(self, player: int) -> None:
        card = self.talon[self.talon_next]
        self.talon_next += 1
        if self.talon_next == TALON_SIZE:
            self.turn_up_holder = player
        self.hands[player].add(card)

    def _play(self, card: int) -> None:
        me = self.to_move
        self.hands[me].remove(card)
        if self.lead is None:
            self.lead, self.to_move = card, 1 - me
            return
        leader = 1 - me
        winner = me if trick_winner(self.lead, card, self.trump, self.rules.order) else leader
        self.tricks.append(RefTrick(leader, (self.lead, card), winner))
        self.cards_taken[winner] += 2
        self.lead, self.to_move = None, winner
        if self.talon_size > 0:  # always even: both draw, the trick's winner first
            self._draw(winner)
            self._draw(1 - winner)
        if not self.hands[0] and not self.hands[1]:
            self.phase = "over"

    # -- scoring -------------------------------------------------------------------------

    def outcome(self) -> RefOutcome | None:
        """More cards wins; equal cards go to the last trick's winner; a vole scores 2."""
        if self.phase != "over":
            return None
        a, b = self.cards_taken
        winner = 0 if a > b else 1 if b > a else self.tricks[-1].winner
        tricks = (
            sum(1 for t in self.tricks if t.winner == 0),
            sum(1 for t in self.tricks if t.winner == 1),
        )
        vole = tricks[winner] == len(self.tricks)
        return RefOutcome(winner, 2 if vole else 1, (a, b), tricks)


def random_playout(deal: RefDeal, rng: random.Random) -> RefOutcome:
    """Plays ``deal`` to the end with uniformly random legal actions."""
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
    outcome = deal.outcome()
    assert outcome is not None
    return outcome


# -- bank --------------------------------------------------------------------------------

BANK_RANKS = "23456789TJQKA"  # 2 lowest, ace highest


def _parse_bank_card(card: str) -> tuple[int, int]:
    """``"KH"`` or ``"10H"`` → (rank 0-12, suit 0-3)."""
    text = card.strip().upper()
    rank, suit = text[:-1], text[-1]
    rank = "T" if rank == "10" else rank
    if len(rank) != 1 or rank not in BANK_RANKS or suit not in SUITS:
        raise ValueError(f"invalid card {card!r}")
    return BANK_RANKS.index(rank), SUITS.index(suit)


def shoe() -> list[str]:
    """The 104-card bank shoe: the 52-card pack twice, as card texts."""
    pack = [r + s for s in SUITS for r in BANK_RANKS]
    return pack + pack


def deal_tableaux(cards: Sequence[str]) -> tuple[list[list[str]], str]:
    """Four tableaux dealt one card at a time from the top (T1, T2, T3, T4, T1, ...) until
    each holds 4, and the 17th card turned up for trump. T1 (index 0) is the banker's."""
    tableaux: list[list[str]] = [[], [], [], []]
    for i in range(16):
        tableaux[i % 4].append(cards[i])
    return tableaux, cards[16]


@dataclass(frozen=True)
class RefResolution:
    banker_tricks: int
    punter_tricks: int
    outcome: str  # "banker", "en_carte" or "punter"


def resolve(banker: Iterable[str], punter: Iterable[str], trump: str) -> RefResolution:
    """Resolves a punter tableau against the banker's (docs/rules.md, "Bank").

    Only trumps count. 1. Equal trump ranks cancel in pairs, one from each side. 2. While
    either side holds a trump, the side with the highest remaining trump leads it and takes
    a trick; the other side gives up its lowest trump, if it has one. 3. More tricks wins;
    equal tricks (0-0 included) is en carte."""
    trump_suit = SUITS.index(trump.strip().upper())
    b = sorted(r for r, s in map(_parse_bank_card, banker) if s == trump_suit)
    p = sorted(r for r, s in map(_parse_bank_card, punter) if s == trump_suit)
    for rank in set(b) & set(p):
        pairs = min(b.count(rank), p.count(rank))
        for _ in range(pairs):
            b.remove(rank)
            p.remove(rank)
    b_tricks = p_tricks = 0
    # Lists stay sorted: the highest is last, the lowest first; no rank is on both sides.
    while b or p:
        if b and (not p or b[-1] > p[-1]):
            b.pop()
            b_tricks += 1
            if p:
                p.pop(0)
        else:
            p.pop()
            p_tricks += 1
            if b:
                b.pop(0)
    if b_tricks > p_tricks:
        outcome = "banker"
    elif p_tricks > b_tricks:
        outcome = "punter"
    else:
        outcome = "en_carte"
    return RefResolution(b_tricks, p_tricks, outcome)
