"""Type stubs for the native module ``ecarte._core`` (the Rust engine): cards, seeds,
errors and limits; the variants in the submodules ``duel`` and ``bank``."""

from collections.abc import Iterable, Sequence
from typing import Final, Literal, TypeVar, final

_T = TypeVar("_T")

#: How a card is written: ``"code"`` for programs (``TH``), ``"symbols"`` (``10♥``) or
#: ``"ascii"`` (``10H``) for people.
_CardStyle = Literal["code", "symbols", "ascii"]

from . import bank as bank
from . import duel as duel


__version__: Final[str]
BUILD_COMMIT: Final[str | None]
"""The git commit the engine was built from, or ``None`` when it was not built from a
checkout of ecarte."""
BUILD_DIRTY: Final[bool | None]
"""Whether tracked files differed from ``BUILD_COMMIT`` when the engine was built
(``None`` with no commit)."""

def cpu_features(*, available: bool = False) -> list[str]:
    """The instruction sets the engine's fast paths use in this process (none under
    ``ECARTE_PORTABLE=1``), or with ``available=True`` those the CPU has, whatever
    ``ECARTE_PORTABLE`` says."""

def portable_mode() -> bool:
    """Whether ``ECARTE_PORTABLE=1`` is set, which turns every fast path off."""

# -- errors ------------------------------------------------------------------------------

class EcarteError(ValueError):
    """Base of every error ecarte raises for bad input; a ValueError."""

class InvalidCardError(EcarteError):
    """Text or value that is not a card."""

class InvalidActionError(EcarteError):
    """Text, an id or a value that names no action (not legal or illegal: not an action)."""

class IllegalActionError(EcarteError):
    """A well-formed action that is not legal in the current state; the state is unchanged.

    An action the engine refused carries why: ``reason`` (a ``duel.Reason``, whose
    ``text(style)`` says it in one line), and its parts ``code`` (one of
    ``duel.REASON_CODES``), ``action``, ``cards`` and ``suit``, with ``legal``, the legal
    actions of the seat that tried it. ``str()`` names the action, the reason and the legal
    actions. An error raised without a reason has ``None`` and empty tuples."""

    reason: duel.Reason | None
    code: str | None
    action: duel.Action | None
    legal: tuple[duel.Action, ...]
    cards: tuple[Card, ...]
    suit: Suit | None

class InvalidRulesError(EcarteError):
    """Rule options out of range."""

class InvalidDeckError(EcarteError):
    """A deck or shoe that is not a full, valid pack, or a bad dealer."""

class InvalidRecordError(EcarteError):
    """A malformed or tampered JSON record."""

class InvalidSeedError(EcarteError):
    """A seed that is a whole number out of range: seeds are from 0 to 2**64 - 1."""

class InvalidStakeError(EcarteError):
    """A stake that is zero, negative, fractional, over a limit, on T1 or beyond the player's chips."""

class TableError(EcarteError):
    """An action out of turn or in the wrong phase, or an unknown player; the table is unchanged."""

class InvalidShoeError(EcarteError):
    """An impossible shoe state: a card more than twice, a removed card not in the shoe, too few cards."""

# -- limits: sizes a caller may pass, checked before anything is allocated --------------

MAX_BATCH: Final[int]
"""The most deals or matches one ``simulate`` call runs."""
MAX_ENVS: Final[int]
"""The most envs in a ``VecEnv``."""
MAX_SAMPLES: Final[int]
"""The most worlds per sampler call or PIMC decision."""
MAX_THREADS: Final[int]
"""The most threads a call may ask for."""

RECORD_FORMATS: Final[tuple[tuple[str, str | None, str, str], ...]]
"""The one table of record formats, rows of ``(format, variant, description, reader)``:
the record's ``format`` field, its variant (``None``: every variant's), what it is in words
and the public class whose ``from_json`` reads it (``"ecarte.duel.Deal"``)."""

def reader_hint(format: str) -> str | None:
    """What a record of ``format`` is and the call that reads it (``"this is a duel match
    record: read it with ecarte.duel.Match.from_json"``); ``None`` for a format not in
    ``RECORD_FORMATS``."""

# -- cards -------------------------------------------------------------------------------

@final
class Suit:
    """A suit: clubs, diamonds, hearts, spades (in that order)."""

    Clubs: Final[Suit]
    Diamonds: Final[Suit]
    Hearts: Final[Suit]
    Spades: Final[Suit]
    @property
    def letter(self) -> str:
        """The suit's letter: C, D, H or S."""
    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
    @staticmethod
    def parse(text: str) -> Suit:
        """Parses a letter (either case) or a symbol."""
    def text(self, style: _CardStyle | None = None) -> str:
        """The suit written in ``style``: ``"symbols"`` (♥, the default), ``"ascii"`` or
        ``"code"`` (H)."""
    def __int__(self) -> int: ...
    def __lt__(self, other: Suit, /) -> bool: ...
    def __le__(self, other: Suit, /) -> bool: ...
    def __gt__(self, other: Suit, /) -> bool: ...
    def __ge__(self, other: Suit, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Rank:
    """A rank, 2 (lowest) to ace, in natural order."""

    Two: Final[Rank]
    Three: Final[Rank]
    Four: Final[Rank]
    Five: Final[Rank]
    Six: Final[Rank]
    Seven: Final[Rank]
    Eight: Final[Rank]
    Nine: Final[Rank]
    Ten: Final[Rank]
    Jack: Final[Rank]
    Queen: Final[Rank]
    King: Final[Rank]
    Ace: Final[Rank]
    @property
    def letter(self) -> str:
        """The rank's letter: 2-9, T, J, Q, K or A."""
    @staticmethod
    def parse(text: str) -> Rank:
        """Parses 2-9, T or 10, J, Q, K, A in either case."""
    def __int__(self) -> int: ...
    def __lt__(self, other: Rank, /) -> bool: ...
    def __le__(self, other: Rank, /) -> bool: ...
    def __gt__(self, other: Rank, /) -> bool: ...
    def __ge__(self, other: Rank, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Card:
    """A playing card: frozen, hashable, ordered by suit (C, D, H, S) then rank (2 to A).

    ``Card("QH")``, ``Card("q♥")``, ``Card("10S")`` or ``Card(Rank.Queen, Suit.Hearts)``.
    ``str(card)`` is the canonical two-character form, ``repr(card)`` is ``Card('QH')``.
    """

    def __new__(cls, text_or_rank: str | Card | Rank, suit: Suit | None = None) -> Card: ...
    @staticmethod
    def parse(text: str) -> Card:
        """Parses any accepted text form: rank (2-9, T or 10, J, Q, K, A) then suit
        (C, D, H, S or ♣ ♦ ♥ ♠), in either case."""
    @staticmethod
    def from_id(id: int) -> Card:
        """The card with id ``suit * 13 + rank`` (0-51)."""
    @property
    def rank(self) -> Rank: ...
    @property
    def suit(self) -> Suit: ...
    @property
    def id(self) -> int:
        """``suit * 13 + rank``, 0-51."""
    def pretty(self) -> str:
        """The card with its suit symbol, the ten written 10: ``Q♥``, ``10♠``
        (``text("symbols")``)."""
    def text(self, style: _CardStyle | None = None) -> str:
        """The card written in ``style``: ``"symbols"`` for people (``10♥``, the default),
        ``"ascii"`` for people without the symbols (``10H``), ``"code"`` for programs
        (``TH``, as ``str()``)."""
    def __lt__(self, other: Card, /) -> bool: ...
    def __le__(self, other: Card, /) -> bool: ...
    def __gt__(self, other: Card, /) -> bool: ...
    def __ge__(self, other: Card, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[Card], tuple[str]]: ...

_CardLike = Card | str

def duel_pack() -> list[Card]:
    """The 32-card duel pack (7 to A of each suit) in suit-then-rank order."""

def full_pack() -> list[Card]:
    """The 52-card pack in suit-then-rank order."""

def shoe_pack() -> list[Card]:
    """The 104-card bank shoe: the 52-card pack twice."""

def check_seed(seed: int) -> int:
    """``seed`` checked as every seed is: a whole number from 0 to 2**64 - 1 (an ``int``,
    or an integer type with ``__index__``, not a ``bool``). Another type raises
    ``TypeError``, a whole number out of range ``InvalidSeedError``."""

def shuffled(cards: Iterable[_CardLike], seed: int) -> list[Card]:
    """``cards`` shuffled with ``seed`` (``ChaCha8Rng``, see the docs); a new list."""

def derive_seed(seed: int, index: int) -> int:
    """The seed of child ``index`` of ``seed`` (``ChaCha8Rng`` stream ``index``, first
    output): how a match seeds its deals."""

def punter_shuffle_seed(table_seed: int, deals: int) -> int:
    """The seed of a punter's shuffle that names none, after ``deals`` deals at the bank
    table with seed ``table_seed``."""

@final
class Stream:
    """The engine's generator (``ChaCha8``, seeded as every ecarte stream is)."""

    def __new__(cls, seed: int, drawn: int | None = None) -> Stream:
        """The stream of ``seed``, ``drawn`` words in."""
    @property
    def seed(self) -> int: ...
    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1`` (``n`` from 1 to 2**32 - 1)."""
    def next_u64(self) -> int:
        """The next 64-bit word."""
    def choice(self, items: Sequence[_T]) -> _T:
        """An item of ``items``, uniformly."""
    def __reduce__(self) -> tuple[object, ...]: ...

# -- duel --------------------------------------------------------------------------------

