"""Type stubs for ``ecarte._core.bank``: the names of ``ecarte.bank``."""

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import ClassVar, Final, Literal, final

import numpy as np
import numpy.typing as npt

from . import Card, Suit

_CardLike = Card | str

# -- bank --------------------------------------------------------------------------------

MAX_DEALS: Final[int]
"""The most deals one ``simulate`` call runs."""
CHUNK: Final[int]
"""Deals per chunk: the unit of parallel work, seeding and ``start``."""

_TrumpLike = Suit | Card | str
_Outcome = Literal["banker", "en_carte", "punter"]


@final
class Resolution:
    """The result of one punter tableau against the banker's (``ecarte.bank.Resolution``)."""

    def __new__(cls, banker_tricks: int, punter_tricks: int) -> Resolution:
        """The resolution with these trick counts (the outcome follows from them); at most
        4 tricks in all, as a tableau has 4 cards (``EcarteError`` otherwise)."""
    def to_json(self) -> str:
        """``{"banker_tricks": b, "punter_tricks": p, "outcome": ...}``, as a table record
        holds it."""
    @staticmethod
    def from_json(record: str) -> Resolution:
        """Reads what ``to_json`` wrote: tricks that fit a 4-card tableau and the outcome
        they give; anything else raises ``InvalidRecordError``."""
    @property
    def banker_tricks(self) -> int:
        """Tricks taken by the banker's tableau."""
    @property
    def punter_tricks(self) -> int:
        """Tricks taken by the punter's tableau."""
    @property
    def outcome(self) -> _Outcome:
        """``"banker"``, ``"en_carte"`` (equal tricks, 0-0 included) or ``"punter"``."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Deal:
    """One deal: four tableaux (T1 the banker's) and the turned-up trump card (``ecarte.bank.Deal``)."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    @property
    def tableaux(self) -> list[list[Card]]:
        """The four tableaux, T1 first, each 4 cards in dealing order."""
    @property
    def trump_card(self) -> Card:
        """The 17th card, turned up."""
    @property
    def trump(self) -> Suit:
        """The trump suit."""
    def results(self) -> list[Resolution]:
        """T2, T3 and T4 each resolved against T1."""
    def cards(self) -> list[Card]:
        """The 17 cards in dealing order."""
    def to_json(self) -> str:
        """The versioned record: ``{"format": "ecarte.bank.deal", "version": 1, "tableaux":
        [4 lists of 4 cards], "trump_card": card}``."""
    @staticmethod
    def from_json(record: str) -> Deal:
        """Reads what ``to_json`` wrote: 4 tableaux of 4 cards and a trump card, no card
        more than twice; anything else raises ``InvalidRecordError``."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Odds:
    """Exact probabilities of one punter tableau against the banker's (``ecarte.bank.Odds``).
    Two odds are equal when their figures are; a copy or a pickle computes them again from
    the trump suit and the cards left."""

    @property
    def banker(self) -> float: ...
    @property
    def en_carte(self) -> float: ...
    @property
    def punter(self) -> float: ...
    @property
    def banker_exact(self) -> Fraction: ...
    @property
    def en_carte_exact(self) -> Fraction: ...
    @property
    def punter_exact(self) -> Fraction: ...
    @property
    def exact(self) -> dict[_Outcome, Fraction]:
        """The three probabilities as reduced ``Fraction``s; they sum to 1."""
    @property
    def scores(self) -> dict[tuple[int, int], float]:
        """``{(banker_tricks, punter_tricks): probability}`` for every possible score."""
    @property
    def scores_exact(self) -> dict[tuple[int, int], Fraction]: ...
    @property
    def denominator(self) -> int:
        """``C(N, 4) * C(N - 4, 4)``: ordered pairs of tableaux from the N cards left."""
    @property
    def cards_left(self) -> int: ...
    @property
    def trumps_left(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __copy__(self) -> Odds: ...
    def __deepcopy__(self, memo: object) -> Odds: ...

@final
class Shoe:
    """The shoe across deals (``ecarte.bank.Shoe``): undealt cards, the cards on the table,
    the discard pile and the run-out count. A copy or a pickle carries the whole state, so
    it deals the same cards next."""

    def __new__(cls, seed: int | None = None) -> Shoe:
        """A full 104-card shoe shuffled with ``seed`` (``None``: a fresh seed, read back
        from ``.seed``)."""
    @staticmethod
    def from_order(cards: Iterable[_CardLike], seed: int | None = None) -> Shoe:
        """A shoe in the exact order ``cards`` (top first): the 104 cards of two packs;
        ``seed`` drives later run-out reshuffles (``None``: a fresh seed)."""
    def deal(self) -> Deal:
        """Deals the next hand; the previous one goes to the discard pile first; with fewer
        than 17 cards left, the shuffled discard pile goes under the rest (a run-out)."""
    def shuffle_rest(self, seed: int) -> None:
        """Shuffles the undealt rest; the discard pile stays aside."""
    def clear_table(self) -> None:
        """Moves the cards on the table to the discard pile."""
    @property
    def undealt(self) -> list[Card]: ...
    @property
    def discards(self) -> list[Card]: ...
    @property
    def on_table(self) -> list[Card]: ...
    @property
    def run_outs(self) -> int: ...
    @property
    def remaining(self) -> int: ...
    @property
    def seed(self) -> int:
        """The seed of the shoe's shuffle and of its run-out reshuffles."""
    def __len__(self) -> int: ...
    def __copy__(self) -> Shoe: ...
    def __deepcopy__(self, memo: object) -> Shoe: ...

def deal_from_shoe(cards: Iterable[_CardLike]) -> Deal:
    """The deal of the top 17 of ``cards``: one card at a time to T1..T4; the 17th is trump."""

def resolve(
    banker: Iterable[_CardLike], punter: Iterable[_CardLike], trump: _TrumpLike
) -> Resolution:
    """Resolves the banker's tableau against a punter's; only trumps count."""

def odds(
    trump: _TrumpLike,
    removed: Iterable[_CardLike] | None = None,
    shoe: Iterable[_CardLike] | None = None,
) -> Odds:
    """Exact odds; the cards left are ``shoe`` (default the full shoe) minus ``removed``.
    A ``Card`` trump is the turned-up card and is removed too."""

def simulate(
    n: int,
    seed: int,
    shoe: Iterable[_CardLike] | None = None,
    start: int | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """Simulates deals ``start .. start + n``: ``(counts, joint)`` as uint64 arrays;
    ``on_progress(deals)`` is told the deals simulated so far while it runs. Ctrl-C stops
    it at once (``KeyboardInterrupt``). See ``ecarte.bank.simulate``."""


# -- solver ------------------------------------------------------------------------------

