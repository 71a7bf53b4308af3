"""Type stubs for the native module ``ecarte._core`` (the Rust engine)."""

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Final, Literal, final

import numpy as np
import numpy.typing as npt

__version__: Final[str]

# -- errors ------------------------------------------------------------------------------

class EcarteError(ValueError):
    """Base of every error ecarte raises for bad input; a ValueError."""

class InvalidCardError(EcarteError):
    """Text or value that is not a card."""

class IllegalActionError(EcarteError):
    """An action that is not legal in the current state; the state is unchanged."""

class InvalidRulesError(EcarteError):
    """Rule options out of range."""

class InvalidDeckError(EcarteError):
    """A deck or shoe that is not a full, valid pack, or a bad dealer."""

class InvalidRecordError(EcarteError):
    """A malformed or tampered JSON record."""

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
        """The card with its suit symbol, e.g. ``Q♥``."""
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

def shuffled(cards: Iterable[_CardLike], seed: int) -> list[Card]:
    """``cards`` shuffled with ``seed`` (``ChaCha8Rng``, see the docs); a new list."""

def derive_seed(seed: int, index: int) -> int:
    """The seed of sub-game ``index`` under ``seed`` (``ChaCha8Rng`` stream ``index``, first
    output): how a match seeds its deals."""

# -- duel --------------------------------------------------------------------------------

DUEL_NUM_ACTIONS: Final[int]
DUEL_OBSERVATION_SIZE: Final[int]

@final
class DuelRules:
    """The options of a duel: rank order, trump discards, exchange limit, match target."""

    def __new__(
        cls,
        order: str = "ecarte",
        allow_trump_discard: bool = False,
        max_exchanges: int = 11,
        target: int = 7,
    ) -> DuelRules: ...
    @property
    def order(self) -> str:
        """``"ecarte"`` (7 8 9 T A J Q K) or ``"traditional"`` (7 8 9 T J Q K A)."""
    @property
    def allow_trump_discard(self) -> bool: ...
    @property
    def max_exchanges(self) -> int: ...
    @property
    def target(self) -> int: ...
    def __hash__(self) -> int: ...

_ActionLike = DuelAction | str | int

@final
class DuelAction:
    """A duel action: ``propose``, ``decline``, ``accept``, ``refuse``, ``discard QH``, or a
    played card ``QH``. ``str()`` gives exactly that text; ``id`` is its index in the fixed
    action space."""

    def __new__(cls, text: _ActionLike) -> DuelAction: ...
    @staticmethod
    def parse(text: str) -> DuelAction:
        """Parses ``propose``, ``decline``, ``accept``, ``refuse``, ``discard <card>`` or
        ``<card>``."""
    @staticmethod
    def from_id(id: int) -> DuelAction:
        """The action at index ``id`` of the action space (0-67)."""
    @property
    def kind(self) -> str:
        """``"play"``, ``"discard"``, ``"propose"``, ``"decline"``, ``"accept"`` or
        ``"refuse"``."""
    @property
    def card(self) -> Card | None:
        """The card played or discarded, else ``None``."""
    @property
    def id(self) -> int:
        """Index in the action space: plays 0-31, discards 32-63, then propose, decline,
        accept, refuse (64-67)."""
    def __lt__(self, other: DuelAction, /) -> bool: ...
    def __le__(self, other: DuelAction, /) -> bool: ...
    def __gt__(self, other: DuelAction, /) -> bool: ...
    def __ge__(self, other: DuelAction, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class DuelTrick:
    """A finished trick: who led, the two cards (leader's first), who won."""

    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> tuple[Card, Card]:
        """The leader's card, then the follower's."""
    @property
    def winner(self) -> int: ...
    def __hash__(self) -> int: ...

@final
class DuelOutcome:
    """The result of a finished deal."""

    @property
    def winner(self) -> int:
        """The seat that won the deal."""
    @property
    def points(self) -> int:
        """2 for a vole (every trick), otherwise 1."""
    @property
    def cards(self) -> tuple[int, int]:
        """Cards taken by seat 0 and seat 1."""
    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks taken by seat 0 and seat 1."""
    @property
    def vole(self) -> bool:
        """Whether the winner took every trick."""
    def __hash__(self) -> int: ...

@final
class DuelObservation:
    """What one player may know of a deal: their hand and discards, the turn-up and who
    drew it, every card played, the talon count, exchanges, the score and whose turn it
    is."""

    @property
    def player(self) -> int:
        """The seat this view belongs to."""
    @property
    def dealer(self) -> int: ...
    @property
    def rules(self) -> DuelRules: ...
    @property
    def phase(self) -> str:
        """``"proposal"``, ``"response"``, ``"discard"``, ``"play"`` or ``"over"``."""
    @property
    def current_player(self) -> int | None: ...
    @property
    def hand(self) -> list[Card]:
        """The player's hand in suit-then-rank order."""
    @property
    def discards(self) -> list[Card]:
        """The player's own discards."""
    @property
    def trump(self) -> Suit: ...
    @property
    def turn_up(self) -> Card: ...
    @property
    def turn_up_holder(self) -> int | None:
        """Who drew the turn-up, or ``None`` while it is in the talon."""
    @property
    def talon_size(self) -> int: ...
    @property
    def exchanges(self) -> int: ...
    @property
    def tricks(self) -> list[DuelTrick]:
        """The finished tricks, in order."""
    @property
    def lead(self) -> Card | None:
        """The card led to the current trick, or ``None``."""
    @property
    def cards_taken(self) -> tuple[int, int]: ...
    @property
    def tricks_taken(self) -> tuple[int, int]: ...
    @property
    def score(self) -> tuple[int, int]:
        """Match points of seat 0 and seat 1."""
    @property
    def initial_hand(self) -> list[Card]:
        """The player's five dealt cards."""
    @property
    def draws(self) -> list[Card]:
        """The cards the player drew from the talon, in order."""
    @property
    def talon_drawers(self) -> list[int]:
        """Who drew each talon card so far, in draw order (public)."""
    @property
    def history(self) -> list[DuelAction | None]:
        """Every action so far as the player saw it; the opponent's discards are ``None``."""
    def to_json(self) -> str:
        """The observation as JSON, for logging and tools."""

@final
class DuelDeal:
    """One duel deal: a state machine over the exchange and play phases, with undo and a
    JSON record. ``Deal(seed=...)`` shuffles; ``Deal.from_deck(cards)`` lays out an exact
    deck."""

    def __new__(
        cls, seed: int | None = None, dealer: int = 0, rules: DuelRules | None = None
    ) -> DuelDeal: ...
    @staticmethod
    def from_deck(
        cards: Iterable[_CardLike], dealer: int = 0, rules: DuelRules | None = None
    ) -> DuelDeal:
        """The deal laid out from ``cards`` (32 ``Card``s or texts, card 0 on top): cards 0-4
        to the elder, 5-9 to the dealer, card 10 turned up, 11-31 the talon (11 drawn
        first)."""
    @staticmethod
    def from_json(text: str) -> DuelDeal:
        """Replays a record made by ``to_json``; a malformed or tampered record raises
        ``InvalidRecordError``."""
    def to_json(self) -> str:
        """The versioned JSON record: initial deck, dealer, rules and actions."""
    @property
    def seed(self) -> int | None:
        """The seed this deal was shuffled with, or ``None`` for a deal from a deck or
        record."""
    @property
    def rules(self) -> DuelRules: ...
    @property
    def deck(self) -> list[Card]:
        """The initial deck, card 0 on top."""
    @property
    def dealer(self) -> int: ...
    @property
    def elder(self) -> int: ...
    @property
    def current_player(self) -> int | None:
        """The seat to act, ``None`` once the deal is over."""
    @property
    def phase(self) -> str:
        """``"proposal"``, ``"response"``, ``"discard"``, ``"play"`` or ``"over"``."""
    @property
    def trump(self) -> Suit: ...
    @property
    def turn_up(self) -> Card: ...
    @property
    def turn_up_holder(self) -> int | None:
        """Who drew the turn-up, or ``None`` while it is in the talon."""
    @property
    def talon_size(self) -> int: ...
    @property
    def talon(self) -> list[Card]:
        """The undrawn talon in draw order, the turn-up last (hidden from the players)."""
    @property
    def exchanges(self) -> int: ...
    @property
    def lead(self) -> Card | None:
        """The card led to the current trick, or ``None``."""
    @property
    def tricks(self) -> list[DuelTrick]:
        """The finished tricks, in order."""
    @property
    def cards_taken(self) -> tuple[int, int]: ...
    @property
    def tricks_taken(self) -> tuple[int, int]: ...
    @property
    def total_tricks(self) -> int:
        """Tricks in this deal: 16 less one per exchange."""
    @property
    def history(self) -> list[DuelAction]:
        """The actions applied so far, oldest first."""
    def hand(self, player: int) -> list[Card]:
        """``player``'s hand in suit-then-rank order."""
    def discards(self, player: int) -> list[Card]:
        """``player``'s discards."""
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[DuelAction]:
        """The legal actions in action-id order (empty once the deal is over)."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean mask over the 68-action space (see ``Action.id``)."""
    def is_legal(self, action: object) -> bool: ...
    def apply(self, action: _ActionLike) -> None:
        """Applies an ``Action``, its text or its id. An illegal action raises
        ``IllegalActionError`` naming the legal ones, and changes nothing."""
    def undo(self) -> DuelAction:
        """Takes back the last action and returns it."""
    def outcome(self) -> DuelOutcome | None:
        """``None`` until the deal is over, then the ``Outcome``."""
    def observation(self, player: int, score: tuple[int, int] | None = None) -> DuelObservation:
        """What ``player`` may know, with the match ``score`` (zeros outside a match)."""
    def observation_tensor(
        self,
        player: int,
        score: tuple[int, int] | None = None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """``player``'s observation as a float32 vector of length 214 (layout in the
        docs). With ``out`` (a contiguous float32 array of that length) it is written there
        and ``out`` is returned, with no allocation."""
    def perft(self, depth: int | None = None) -> int:
        """Leaf count of the game tree below this state, ``depth`` actions deep (to the end
        when ``None``). Runs without the GIL."""
    def check_conservation(self) -> bool:
        """Every card is in exactly one place: a hand, the talon, a discard pile, or
        played."""
    def copy(self) -> DuelDeal: ...
    def __copy__(self) -> DuelDeal: ...
    def __deepcopy__(self, memo: object) -> DuelDeal: ...


# -- batch paths -------------------------------------------------------------------------

def duel_simulate(
    n: int,
    seed: int,
    agents: tuple[str, str],
    rules: DuelRules | None = None,
    threads: int | None = None,
    matches: bool = False,
    start: int = 0,
) -> list[tuple[str, np.ndarray]]:
    """Plays ``n`` deals (or matches) natively between two built-in agents; returns
    columns of arrays. See ``ecarte.duel.simulate``."""

def duel_heuristic_action(
    observation: DuelObservation, legal_actions: list[DuelAction]
) -> DuelAction:
    """The native heuristic's choice for an observation and its legal actions."""

@final
class DuelVecEnv:
    """``n`` duel deals stepped in lockstep inside Rust. See ``ecarte.duel.VecEnv``."""

    def __new__(cls, n: int, seed: int, rules: DuelRules | None = None) -> DuelVecEnv: ...
    def __len__(self) -> int:
        """Number of envs."""
    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Restarts every env on its first deal; returns ``(observations, masks)``."""
    def step(
        self, actions: npt.NDArray[np.int64] | list[int]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int64],
    ]:
        """Applies one action id per env; returns ``(observations, masks, rewards,
        terminated, current_players)``. The arrays are reused by the next call."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per env (for baselines and benchmarks),
        from a generator seeded with the env's seed."""
    def deal(self, i: int) -> DuelDeal:
        """Env ``i``'s current deal as a ``Deal``, for inspection (its ``history`` starts
        empty)."""

# -- bank --------------------------------------------------------------------------------

_TrumpLike = Suit | Card | str
_Outcome = Literal["banker", "en_carte", "punter"]

class InvalidStakeError(EcarteError):
    """A stake that is zero, negative, fractional, over a limit, on T1 or beyond the player's chips."""

class TableError(EcarteError):
    """An action out of turn or in the wrong phase, or an unknown player; the table is unchanged."""

class InvalidShoeError(EcarteError):
    """An impossible shoe state: a card more than twice, a removed card not in the shoe, too few cards."""

@final
class BankResolution:
    """The result of one punter tableau against the banker's (``ecarte.bank.Resolution``)."""

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
class BankDeal:
    """One deal: four tableaux (T1 the banker's) and the turned-up trump card (``ecarte.bank.Deal``)."""

    @property
    def tableaux(self) -> list[list[Card]]:
        """The four tableaux, T1 first, each 4 cards in dealing order."""
    @property
    def trump_card(self) -> Card:
        """The 17th card, turned up."""
    @property
    def trump(self) -> Suit:
        """The trump suit."""
    def results(self) -> list[BankResolution]:
        """T2, T3 and T4 each resolved against T1."""
    def cards(self) -> list[Card]:
        """The 17 cards in dealing order."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class BankOdds:
    """Exact probabilities of one punter tableau against the banker's (``ecarte.bank.Odds``)."""

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

@final
class BankSimulation:
    """Outcome counts of simulated deals with 95% Wilson intervals (``ecarte.bank.Simulation``)."""

    @property
    def n(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def counts(self) -> dict[int, dict[_Outcome, int]]:
        """``{2: {"banker": k, "en_carte": k, "punter": k}, 3: ..., 4: ...}``."""
    @property
    def probabilities(self) -> dict[int, dict[_Outcome, float]]: ...
    @property
    def intervals(self) -> dict[int, dict[_Outcome, tuple[float, float]]]:
        """95% Wilson score intervals ``(low, high)``."""
    @property
    def joint(self) -> npt.NDArray[np.uint64]:
        """``(3, 3, 3)`` counts indexed ``[T2, T3, T4]``; 0 banker, 1 en carte, 2 punter."""
    @property
    def joint_intervals(self) -> npt.NDArray[np.float64]:
        """``(3, 3, 3, 2)`` Wilson intervals of the joint cells."""

@final
class BankShoe:
    """The shoe across deals (``ecarte.bank.Shoe``): undealt cards, the cards on the table,
    the discard pile and the run-out count."""

    def __new__(cls, seed: int | None = None) -> BankShoe:
        """A full 104-card shoe shuffled with ``seed`` (default 0)."""
    @staticmethod
    def from_order(cards: Iterable[_CardLike], seed: int | None = None) -> BankShoe:
        """A shoe in the exact order ``cards`` (top first): the 104 cards of two packs."""
    def deal(self) -> BankDeal:
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
    def seed(self) -> int: ...
    def __len__(self) -> int: ...

def bank_deal_from_shoe(cards: Iterable[_CardLike]) -> BankDeal:
    """The deal of the top 17 of ``cards``: one card at a time to T1..T4; the 17th is trump."""

def bank_resolve(
    banker: Iterable[_CardLike], punter: Iterable[_CardLike], trump: _TrumpLike
) -> BankResolution:
    """Resolves the banker's tableau against a punter's; only trumps count."""

def bank_odds(
    trump: _TrumpLike,
    removed: Iterable[_CardLike] | None = None,
    shoe: Iterable[_CardLike] | None = None,
) -> BankOdds:
    """Exact odds; the cards left are ``shoe`` (default the full shoe) minus ``removed``.
    A ``Card`` trump is the turned-up card and is removed too."""

def bank_simulate(
    n: int, seed: int | None = None, shoe: Iterable[_CardLike] | None = None, threads: int | None = None
) -> BankSimulation:
    """Simulates ``n`` deals from a freshly shuffled ``shoe`` (default the full shoe); GIL
    released; the same result for any ``threads``."""


# -- solver ------------------------------------------------------------------------------

@final
class DuelSolution:
    """The exact double-dummy result of a play-phase position, for the player to move."""

    @property
    def value(self) -> int:
        """Deal points (+2, +1, -1, -2), or the cards taken with ``objective="cards"``."""
    @property
    def best_actions(self) -> list[DuelAction]:
        """Every legal action that achieves ``value``, in action-id order."""
    @property
    def nodes(self) -> int:
        """Search nodes visited."""

def duel_solve(deal: DuelDeal, objective: str = "points") -> DuelSolution:
    """Solves a play-phase position double-dummy (every card and the talon order known).

    ``objective`` is ``"points"`` (deal points for the player to move) or ``"cards"``
    (the most cards the player to move can end the deal with). Raises ``EcarteError``
    outside the play phase. Runs without the GIL."""

def duel_solve_many(deals: Sequence[DuelDeal], objective: str = "points") -> list[DuelSolution]:
    """Solves many positions in parallel (rayon); results in input order."""

def duel_solve_many_timed(
    deals: Sequence[DuelDeal], objective: str = "points", threads: int | None = None
) -> list[tuple[DuelSolution, float]]:
    """Solves many positions in parallel on ``threads`` threads (default: all cores), each
    with its own solve time in seconds; results in input order."""

def duel_action_values(
    deal: DuelDeal, objective: str = "points"
) -> list[tuple[DuelAction, int]]:
    """Every legal action with its exact double-dummy value, in action-id order."""

def duel_sample_worlds(observation: DuelObservation, n: int, seed: int) -> list[DuelDeal]:
    """``n`` deals consistent with ``observation`` (each world's observation for that player
    equals it), reproducible for ``seed``. Raises ``EcarteError`` if none can be found."""

def duel_pimc_values(
    observation: DuelObservation, samples: int, seed: int
) -> list[tuple[DuelAction, float]]:
    """Each legal action with its mean double-dummy points over ``samples`` sampled worlds;
    exchange options are followed by a fixed exchange rule of thumb, then solved."""
