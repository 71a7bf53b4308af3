"""Type stubs for ``ecarte._core.duel``: the names of ``ecarte.duel``."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar, Final, Literal, final, overload

from typing_extensions import Self, disjoint_base

import numpy as np
import numpy.typing as npt

from . import Card, Suit, _CardStyle

_CardLike = Card | str

NUM_ACTIONS: Final[int]
OBSERVATION_SIZE: Final[int]
COMPACT_OBSERVATION_SIZE: Final[int]

@final
class Rules:
    """The options of a duel: rank order, trump discards, exchange limit, match target."""

    def __new__(
        cls,
        order: str | None = None,
        allow_trump_discard: bool = False,
        max_exchanges: int | None = None,
        target: int | None = None,
    ) -> Rules:
        """``None`` takes the default: ``order="ecarte"``, ``max_exchanges=11``,
        ``target=7``."""
    def replace(
        self,
        *,
        order: str = ...,
        allow_trump_discard: bool = ...,
        max_exchanges: int = ...,
        target: int = ...,
    ) -> Rules:
        """A copy with the named options changed: ``rules.replace(target=5)``."""
    def to_json(self) -> str:
        """The rules as the JSON object a record holds."""
    @staticmethod
    def from_json(record: str) -> Rules: ...
    @property
    def order(self) -> _Order:
        """``"ecarte"`` (7 8 9 T A J Q K) or ``"traditional"`` (7 8 9 T J Q K A)."""
    @property
    def allow_trump_discard(self) -> bool: ...
    @property
    def max_exchanges(self) -> int: ...
    @property
    def target(self) -> int: ...
    def __hash__(self) -> int: ...

_Order = Literal["ecarte", "traditional"]
_Phase = Literal["proposal", "response", "discard", "play", "over"]
_ActionKind = Literal["play", "discard", "propose", "decline", "accept", "refuse"]
_Objective = Literal["points", "cards"]

@final
class AgentInfo:
    """One built-in agent of the registry (``AGENTS``): its name, its worlds, its cost, its
    levels and what it does."""

    @staticmethod
    def of(spec: str) -> AgentInfo:
        """The row of the agent that ``spec`` names (``"pimc:8"``: PIMC's)."""
    @property
    def name(self) -> str:
        """The name its specs begin with."""
    @property
    def searches(self) -> bool:
        """Whether it samples worlds (its specs then take ``:N``)."""
    @property
    def default_worlds(self) -> int | None:
        """Worlds per decision of the spec that names none; ``None`` if it does not
        search."""
    @property
    def max_worlds(self) -> int | None:
        """The most worlds per decision a spec may name; ``None`` if it does not search."""
    @property
    def deal_seconds(self) -> float:
        """Single-thread CPU seconds of a deal against the heuristic: per world of its
        decisions if it searches, per deal otherwise."""
    @property
    def specs(self) -> tuple[str, ...]:
        """The forms of its specs (``("pimc", "pimc:N")``)."""
    @property
    def levels(self) -> list[tuple[str, str]]:
        """The levels that play it, each with its spec, easiest first."""
    @property
    def description(self) -> str:
        """What it does, in one line."""
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[object, ...]: ...

AGENTS: Final[tuple[AgentInfo, ...]]
"""Every built-in agent, weakest first: the one registry (``rust/src/play/registry.rs``)."""
LEVELS: Final[Mapping[str, str]]
"""The levels of ``ecarte play --level`` and the protocol, easiest first, each with the
agent spec it plays (``{"easy": "heuristic", "medium": "pimc:8", ...}``), read-only."""
DEFAULT_LEVEL: Final[str]
"""The level of :data:`LEVELS` played when none is named (``ecarte play``, the web page)
and that gives hints: ``"expert"``."""
AGENT_SPECS: Final[tuple[str, ...]]
"""The forms of the agent specs the one grammar reads: ``("random", "heuristic", "pimc",
"pimc:N", ...)``, ``N`` the worlds per decision (1 to the agent's ``max_worlds``); what
each agent is: docs/agents.md."""
DEFAULT_PIMC_SAMPLES: Final[int]
"""Worlds per decision of ``"pimc"``."""
DEFAULT_EXPERT_SAMPLES: Final[int]
"""Worlds solved per decision of ``"expert"``."""
DEFAULT_MASTER_SAMPLES: Final[int]
"""Worlds solved per decision of ``"master"``."""
DEFAULT_GRANDMASTER_SAMPLES: Final[int]
"""Worlds solved per decision of ``"grandmaster"`` in the play while the talon lasts."""
DECISION_KINDS: Final[tuple[str, ...]]
"""What a decision of ``self_play_decisions`` decides, by its ``kind`` code: exchange,
discard, lead, follow."""

def decode_compact_rows(
    rows: npt.NDArray[np.uint8],
) -> npt.NDArray[np.float32]:
    """The float32 tensors of ``n`` compact rows, shape ``(n, COMPACT_OBSERVATION_SIZE)``
    (use ``ecarte.duel.decode_observations``); ``EcarteError`` for anything else."""

def parse_agent(spec: str) -> tuple[str, int | None]:
    """Parses an agent spec: ``(name, worlds per decision or None)``; ``EcarteError`` for a
    spec that names no agent."""

def agent_seed(match_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (0 or 1; 2 and up for helpers) of the match with
    seed ``match_seed``."""

@final
class RunMatch:
    """Match ``index`` of the run with seed ``run_seed``: its ``seed``
    (``derive_seed(run_seed, index)``), its ``first_dealer`` (``index % 2``) and the seeds of
    the agents in its seats. Every run of matches follows it: ``simulate``'s matches, both
    paths of the arena, ``OpponentVecEnv`` and PettingZoo."""

    def __new__(cls, run_seed: int, index: int) -> RunMatch: ...
    @property
    def run_seed(self) -> int: ...
    @property
    def index(self) -> int: ...
    @property
    def seed(self) -> int:
        """The match's seed."""
    @property
    def first_dealer(self) -> int:
        """The seat that deals its first deal."""
    def agent_seed(self, seat: int) -> int:
        """The seed of the agent in ``seat`` (0 or 1; 2 and up for helpers such as a hint
        agent)."""
    def start(self, rules: Rules | None = None) -> Match:
        """The match, dealt and ready to play."""
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[object, ...]: ...

def decision_seed(seed: int, observation: Observation) -> int:
    """The seed of the worlds a search agent with seed ``seed`` samples for
    ``observation``."""

@disjoint_base
class BuiltinAgent:
    """A built-in agent: a policy named by an agent spec, with its own seed and stream.
    Calling it with ``(observation, legal_actions)`` gives its action; the engine's match
    runner calls it natively. Subclassed by the Python agent classes."""

    def __new__(
        cls, spec: str, seed: int | None = None, drawn: int | None = None
    ) -> Self:
        """The agent that ``spec`` names, seeded with ``seed`` (``None``: a fresh random
        seed), ``drawn`` words into its stream."""
    @property
    def spec(self) -> str:
        """The agent spec, e.g. ``"pimc:24"``."""
    @property
    def seed(self) -> int: ...
    @property
    def samples(self) -> int | None:
        """Worlds per decision of a search agent; ``None`` for the others."""
    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The action for the player of ``observation``, one of ``legal_actions``."""
    def values(self, observation: Observation) -> list[tuple[Action, float]]:
        """Each legal action of ``observation`` with its value, for a search agent, from
        the worlds the agent samples when it acts; ``EcarteError`` for the others."""
    def __reduce__(self) -> tuple[object, ...]: ...

_ActionLike = Action | str | int

@final
class Action:
    """A duel action: ``propose``, ``decline``, ``accept``, ``refuse``, ``discard QH``, or a
    played card ``QH``. ``str()`` gives exactly that text; ``id`` is its index in the fixed
    action space."""

    def __new__(cls, text: _ActionLike) -> Action: ...
    @staticmethod
    def parse(text: str) -> Action:
        """Parses ``propose``, ``decline``, ``accept``, ``refuse``, ``discard <card>`` or
        ``<card>``."""
    @staticmethod
    def from_id(id: int) -> Action:
        """The action at index ``id`` of the action space (0-67)."""
    @property
    def kind(self) -> _ActionKind:
        """``"play"``, ``"discard"``, ``"propose"``, ``"decline"``, ``"accept"`` or
        ``"refuse"``."""
    @property
    def card(self) -> Card | None:
        """The card played or discarded, else ``None``."""
    @property
    def id(self) -> int:
        """Index in the action space: plays 0-31, discards 32-63, then propose, decline,
        accept, refuse (64-67)."""
    def __lt__(self, other: Action, /) -> bool: ...
    def __le__(self, other: Action, /) -> bool: ...
    def __gt__(self, other: Action, /) -> bool: ...
    def __ge__(self, other: Action, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Trick:
    """A finished trick: who led, the two cards (leader's first), who won."""

    @property
    def leader(self) -> int: ...
    @property
    def cards(self) -> tuple[Card, Card]:
        """The leader's card, then the follower's."""
    @property
    def winner(self) -> int: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(record: str) -> Trick:
        """Reads what ``to_json`` wrote; ``InvalidRecordError`` for anything else."""
    def __hash__(self) -> int: ...

@final
class Outcome:
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
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(record: str) -> Outcome:
        """Reads what ``to_json`` wrote; ``InvalidRecordError`` for anything else."""
    def __hash__(self) -> int: ...

@final
class Observation:
    """What one player may know of a deal: their hand and discards, the turn-up and who
    drew it, every card played, the talon count, exchanges, the score and whose turn it
    is."""

    @property
    def player(self) -> int:
        """The seat this view belongs to."""
    @property
    def key(self) -> int:
        """A stable 64-bit key of the observation (a hash of its JSON record)."""
    @property
    def dealer(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def phase(self) -> _Phase:
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
    def tricks(self) -> list[Trick]:
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
    def history(self) -> list[Action | None]:
        """Every action so far as the player saw it; the opponent's discards are ``None``."""
    @property
    def hand_sizes(self) -> tuple[int, int]:
        """How many cards seat 0 and seat 1 hold (the opponent's count is public: their
        dealt cards and draws less their discards and plays)."""
    def refusal(self, action: _ActionLike) -> Reason | None:
        """Why this player may not take ``action`` now: the engine's ``Reason``, the same a
        deal gives; ``None`` when the action is legal."""
    def tensor(self) -> npt.NDArray[np.float32]:
        """The 214-entry float32 observation tensor of this view (docs/api.md), with its
        score: the tensor of every deal that gives this observation (an agent that learned
        on the environments' tensors reads its input here)."""
    def to_json(self) -> str:
        """The observation as JSON, for logging and tools: its fields and ``hand_sizes``."""
    @staticmethod
    def from_json(record: str) -> Observation:
        """Reads what ``to_json`` wrote (``hand_sizes`` may be left out). The observation
        must be one that some deal gives; anything else raises ``InvalidRecordError``."""

REASON_CODES: Final[tuple[str, ...]]
"""The stable codes of a refused action (docs/api.md, "Why an action is refused")."""

@final
class Reason:
    """Why an action was refused: a stable ``code`` (``REASON_CODES``), the ``action``, the
    ``cards`` and ``suit`` involved, the ``phase`` it was refused in, and ``text(style)``,
    the reason in one line with its cards written in a card style. ``str()`` is
    ``text("symbols")``."""

    def __new__(
        cls,
        code: str,
        action: _ActionLike | None = None,
        cards: Iterable[Card | str] | None = None,
        suit: Suit | None = None,
        phase: _Phase | None = None,
    ) -> Reason: ...
    @property
    def code(self) -> str:
        """The stable code, one of ``REASON_CODES`` (e.g. ``"must_follow"``)."""
    @property
    def action(self) -> Action | None:
        """The refused action; ``None`` for an id that names no action."""
    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards involved: the card tried; for ``must_follow`` and ``must_trump``, that
        card and the card led."""
    @property
    def suit(self) -> Suit | None:
        """The suit involved: the suit to follow, the trump to play or to keep."""
    @property
    def phase(self) -> _Phase | None:
        """The phase of the deal when the action was refused, if one was looked at."""
    def text(self, style: _CardStyle | None = None) -> str:
        """The reason in one line, its cards written in ``style``: ``"symbols"`` (the
        default: "you have no ♥, so you must trump (♦)"), ``"ascii"`` ("you hold no 10H")
        or ``"code"``."""
    def __hash__(self) -> int: ...
    def __reduce__(
        self,
    ) -> tuple[type[Reason], tuple[str, str | None, list[str], Suit | None, str | None]]: ...

@final
class Frame:
    """One step of a deal (``Deal.frames()``, ``Match.frames()``): the state after
    ``action``, taken by ``actor``, as a spectator who holds the record sees it: both hands
    and discards, never the undrawn talon; the cards each seat drew in the step; the
    outcome once it ended the deal; the deal's number and the match score after the
    step."""

    @property
    def deal_number(self) -> int:
        """The deal's number in its match, from 1 (1 for a lone deal)."""
    @property
    def action(self) -> Action | None:
        """The action of this step; ``None`` for the first frame, the deal as dealt."""
    @property
    def actor(self) -> int | None:
        """The seat that took the action."""
    @property
    def phase(self) -> _Phase: ...
    @property
    def current_player(self) -> int | None: ...
    @property
    def dealer(self) -> int: ...
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
    def lead(self) -> Card | None:
        """The card led to the current trick, or ``None``."""
    @property
    def hands(self) -> tuple[list[Card], list[Card]]:
        """Seat 0's hand and seat 1's, each in suit-then-rank order."""
    @property
    def discards(self) -> tuple[list[Card], list[Card]]:
        """Seat 0's discards and seat 1's."""
    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order."""
    @property
    def tricks_taken(self) -> tuple[int, int]: ...
    @property
    def cards_taken(self) -> tuple[int, int]: ...
    @property
    def drawn(self) -> tuple[list[Card], list[Card]]:
        """The cards seat 0 and seat 1 drew from the talon in this step, in draw order."""
    @property
    def outcome(self) -> Outcome | None:
        """The deal's outcome once this step ended it, else ``None``."""
    @property
    def score(self) -> tuple[int, int]:
        """The match score after this step (zeros outside a match)."""
    def to_json(self) -> str:
        """The frame as a JSON object (the protocol's frames are these)."""

@final
class Deal:
    """One duel deal: a state machine over the exchange and play phases, with undo and a
    JSON record. ``Deal(seed=...)`` shuffles; ``Deal.from_deck(cards)`` lays out an exact
    deck."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    def __new__(
        cls, seed: int | None = None, dealer: int | None = None, rules: Rules | None = None
    ) -> Deal:
        """``seed=None`` draws a fresh random seed (read it back from ``.seed``); the
        dealer is seat 0 unless given."""
    @staticmethod
    def from_deck(
        cards: Iterable[_CardLike], dealer: int | None = None, rules: Rules | None = None
    ) -> Deal:
        """The deal laid out from ``cards`` (32 ``Card``s or texts, card 0 on top): cards 0-4
        to the elder, 5-9 to the dealer, card 10 turned up, 11-31 the talon (11 drawn
        first)."""
    @staticmethod
    def from_json(record: str) -> Deal:
        """Replays a record made by ``to_json``; a malformed or tampered record raises
        ``InvalidRecordError``."""
    def to_json(self) -> str:
        """The versioned JSON record: initial deck, dealer, rules and actions."""
    @property
    def seed(self) -> int | None:
        """The seed this deal was shuffled with, or ``None`` for a deal from a deck or
        record."""
    @property
    def rules(self) -> Rules: ...
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
    def phase(self) -> _Phase:
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
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order."""
    @property
    def cards_taken(self) -> tuple[int, int]: ...
    @property
    def tricks_taken(self) -> tuple[int, int]: ...
    @property
    def total_tricks(self) -> int:
        """Tricks in this deal: 16 less one per exchange."""
    @property
    def history(self) -> list[Action]:
        """The actions applied so far, oldest first (the engine's own log: records, undo
        and ``moves`` derive from it)."""
    @property
    def moves(self) -> list[tuple[int, Action]]:
        """Each action of the history with the seat that took it: ``(player, action)``."""
    def hand(self, player: int) -> list[Card]:
        """``player``'s hand in suit-then-rank order."""
    def discards(self, player: int) -> list[Card]:
        """``player``'s discards."""
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[Action]:
        """The legal actions in action-id order (empty once the deal is over). The
        ``Action`` objects are shared, one per id, so the call allocates only the list."""
    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (see ``Action.id``):
        ``legal_actions()`` as plain ints."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A boolean mask over the 68-action space (see ``Action.id``)."""
    def is_legal(self, action: object) -> bool: ...
    def apply(self, action: _ActionLike, player: int | None = None) -> None:
        """Applies an ``Action``, its text or its id. An illegal action raises
        ``IllegalActionError`` (its reason, the legal actions), and changes nothing. With
        ``player``, the action is that seat's: refused as ``not_your_turn`` unless it is to
        move."""
    def check(self, action: _ActionLike, player: int | None = None) -> None:
        """Raises what ``apply(action, player)`` would raise, and changes nothing: an
        ``IllegalActionError`` with the reason the action is refused; ``None`` when it is
        legal."""
    def frames(self) -> list[Frame]:
        """Every step of the deal so far, as a spectator who holds its record follows it:
        the deal as dealt, then the state after each action (``Frame``)."""
    def undo(self) -> Action:
        """Takes back the last action and returns it."""
    def outcome(self) -> Outcome | None:
        """``None`` until the deal is over, then the ``Outcome``."""
    def observation(self, player: int, score: tuple[int, int] | None = None) -> Observation:
        """What ``player`` may know, with the match ``score`` (zeros outside a match)."""
    def observation_tensor(
        self,
        player: int,
        score: tuple[int, int] | None = None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """``player``'s observation as a float32 vector of length 214 (layout in the
        docs). With ``out`` (a writeable, contiguous float32 array of that length) it is
        written there and ``out`` is returned, with no allocation; any other ``out`` raises
        ``EcarteError``."""
    def perft(self, depth: int | None = None) -> int:
        """Leaf count of the game tree below this state, ``depth`` actions deep (to the end
        when ``None``). Runs without the GIL."""
    def check_conservation(self) -> bool:
        """Every card is in exactly one place: a hand, the talon, a discard pile, or
        played."""
    def copy(self) -> Deal: ...
    def __copy__(self) -> Deal: ...
    def __deepcopy__(self, memo: object) -> Deal: ...


# -- batch paths -------------------------------------------------------------------------

def simulate(
    n: int,
    seed: int,
    agents: tuple[str, str],
    rules: Rules | None = None,
    matches: bool = False,
    start: int | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[tuple[str, np.ndarray]]:
    """Plays ``n`` deals (or matches) natively between two built-in agents; returns
    columns of arrays. ``on_progress(deals)`` is told the deals played so far while it
    runs. Ctrl-C stops it at once (``KeyboardInterrupt``). See ``ecarte.duel.simulate``."""

def heuristic_action(
    observation: Observation, legal_actions: list[Action]
) -> Action:
    """The native heuristic's choice for an observation and its legal actions."""

@final
class VecEnv:
    """``n`` duel deals stepped in lockstep inside Rust. See ``ecarte.duel.VecEnv``.

    ``observation`` picks the layout of the observation rows: ``"float32"`` (the default,
    ``OBSERVATION_SIZE`` entries) or ``"compact"`` (``uint8``, ``COMPACT_OBSERVATION_SIZE`` bytes, card
    planes bit-packed; ``ecarte.duel.decode_observations`` turns it into the float32
    rows). The layouts are in docs/api.md.

    ``reset`` and ``step`` return the same arrays every time, over memory the env owns:
    their values may be changed, but a change of dtype, shape, strides or writeability
    makes the next call raise ``EcarteError`` (docs/api.md, "VecEnv arrays")."""

    def __new__(
        cls,
        n: int,
        seed: int,
        rules: Rules | None = None,
        observation: Literal["float32", "compact"] | None = None,
    ) -> VecEnv: ...
    def __len__(self) -> int:
        """Number of envs."""
    @property
    def observation(self) -> Literal["float32", "compact"]:
        """The observation layout: ``"float32"`` or ``"compact"``."""
    def reset(
        self,
    ) -> tuple[npt.NDArray[np.float32] | npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        """Restarts every env on its first deal; returns ``(observations, masks)``."""
    def step(
        self, actions: npt.NDArray[np.int64] | list[int]
    ) -> tuple[
        npt.NDArray[np.float32] | npt.NDArray[np.uint8],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int64],
    ]:
        """Applies one action id per env; returns ``(observations, masks, rewards,
        terminated, current_players)``. The arrays are reused by the next call. Every
        action is checked first: an illegal one raises ``IllegalActionError`` (naming the
        id as given) and no env advances."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action id per env (for baselines and benchmarks),
        from a generator seeded with the env's seed."""
    def deal(self, i: int) -> Deal:
        """A copy of env ``i``'s current deal, with its whole history."""

@final
class OpponentVecEnv:
    """``n`` duel deals against a built-in ``opponent`` (an agent spec) that acts inside
    Rust: each step applies the learner's action in every env, then the opponent's
    replies, up to the learner's next decision. Env ``i`` with seed ``e`` plays match
    after match, match ``j`` with seed ``derive_seed(e, j)``; a batch seed ``s`` gives env
    ``i`` the seed ``derive_seed(s, i)``. ``autoreset`` is ``"next_step"`` (the step after
    a deal's end ignores the env's action and deals the next deal) or ``"same_step"`` (the
    step that ends a deal deals the next; the final observation is in ``ended()``). A
    final observation's mask marks one action, id 0, so no mask is all zero. Pickles and
    deep-copies at any point (through ``to_json``). See ``ecarte.gymnasium`` and
    ``ecarte.sb3``."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    def __new__(
        cls,
        n: int,
        seed: int,
        opponent: str,
        seat: int | None = None,
        rules: Rules | None = None,
        autoreset: Literal["next_step", "same_step"] | None = None,
    ) -> OpponentVecEnv: ...
    def __len__(self) -> int:
        """Number of envs."""
    @property
    def seat(self) -> int:
        """The learner's seat."""
    @property
    def opponent(self) -> str:
        """The opponent's agent spec."""
    @property
    def rules(self) -> Rules: ...
    @property
    def autoreset(self) -> Literal["next_step", "same_step"]: ...
    def reset(
        self, seed: int | Sequence[int] | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Restarts every env on the first match of its run and lets the opponent act;
        returns the learner's ``(observations, masks)``. ``seed``: ``None`` (each env keeps
        its seed and plays its run again), a whole number ``s`` (env ``i`` gets
        ``derive_seed(s, i)``), or one whole number per env."""
    def step(
        self, actions: npt.NDArray[np.int64] | Sequence[int], illegal_reward: float | None = None
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Applies the learner's action id in every env and the opponent's replies, up to
        the learner's next decision; returns ``(observations, masks, rewards,
        terminated)``. An env waiting to go on (next-step mode) ignores its action. An
        illegal action raises ``IllegalActionError`` with no env changed, unless
        ``illegal_reward`` is given: it then ends that env's deal with that reward, and the
        env goes on with its next match."""
    def next_match(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Every env abandons its deal and goes on with the next match of its run; returns
        the learner's ``(observations, masks)``."""
    def masks(self) -> npt.NDArray[np.bool_]:
        """The learner's action mask in every env, as the last call returned it (a copy)."""
    def ended(
        self,
    ) -> tuple[
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        list[Outcome | None],
        npt.NDArray[np.uint8],
    ]:
        """The envs whose deal ended at the last step: ``(envs, final observations, final
        masks, outcomes, scores)``, one row per such env, in env order. An outcome is
        ``None`` for a deal forfeited by an illegal action; a score is the match score
        after the deal."""
    def deal(self, i: int) -> Deal:
        """A copy of the deal env ``i`` shows (the one that ended, while the env waits to
        go on), with its whole history."""
    def score(self, i: int) -> tuple[int, int]:
        """The match score env ``i`` shows, as its observation does."""
    def to_json(self) -> str:
        """The env's versioned JSON record, from which ``from_json`` rebuilds it to play on
        identically."""
    @staticmethod
    def from_json(record: str) -> OpponentVecEnv:
        """Rebuilds an env from ``to_json``'s record, replaying every action (checked);
        ``InvalidRecordError`` for anything else."""
    def __reduce__(self) -> tuple[object, ...]: ...

@final
class Solution:
    """The exact double-dummy result of a play-phase position, for the player to move."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    def __new__(cls, value: int, best_actions: Sequence[Action], nodes: int) -> Solution:
        """The solution with these parts, which some play-phase position must be able to
        have: a value of deal points (-2 to 2) or cards (0 to 32), and one to five cards
        played in action-id order; ``EcarteError`` otherwise."""
    @property
    def value(self) -> int:
        """Deal points (+2, +1, -1, -2), or the cards taken with ``objective="cards"``."""
    @property
    def best_actions(self) -> list[Action]:
        """Every legal action that achieves ``value``, in action-id order."""
    @property
    def nodes(self) -> int:
        """Search nodes visited."""
    def to_json(self) -> str:
        """The versioned record: ``{"format": "ecarte.duel.solution", "version": 1,
        "value": v, "best_actions": [...], "nodes": n}``."""
    @staticmethod
    def from_json(text: str) -> Solution:
        """Reads what ``to_json`` wrote, checked as the constructor checks; anything else
        raises ``InvalidRecordError``."""

NODE_COUNT_VERSION: Final[int]
"""The version of what ``Solution.nodes`` (and ``BoundTest.nodes``, ``GaveUp.nodes``)
counts: node counts compare between builds of the same version only (docs/solver.md)."""

@final
class BoundTest:
    """The answer to a bound test, ``solve(deal, bound=b)``: whether the exact value for the
    player to move is at least ``bound``."""

    @property
    def bound(self) -> int:
        """The bound tested, in the objective's unit (deal points or cards)."""
    @property
    def at_least(self) -> bool:
        """Whether the exact value is at least ``bound``."""
    @property
    def nodes(self) -> int:
        """Search nodes visited."""

@final
class GaveUp:
    """A solve that gave up, ``solve(deal, max_nodes=n)``: it needed more than
    ``max_nodes`` search nodes, searched ``nodes`` of them and stopped, with no answer."""

    @property
    def nodes(self) -> int:
        """The nodes searched before giving up (at most ``max_nodes``)."""
    @property
    def max_nodes(self) -> int:
        """The budget the solve was given."""

@overload
def solve(
    deal: Deal, objective: str | None = None, *, bound: None = None, max_nodes: None = None
) -> Solution:
    ...
@overload
def solve(
    deal: Deal, objective: str | None = None, *, bound: int, max_nodes: None = None
) -> BoundTest: ...
@overload
def solve(
    deal: Deal, objective: str | None = None, *, bound: None = None, max_nodes: int
) -> Solution | GaveUp: ...
@overload
def solve(
    deal: Deal, objective: str | None = None, *, bound: int, max_nodes: int
) -> BoundTest | GaveUp: ...
@overload
def solve(
    deal: Deal,
    objective: str | None = None,
    *,
    bound: int | None = None,
    max_nodes: int | None = None,
) -> Solution | BoundTest | GaveUp: ...
# The signature that every call matches, with the docstring: the reference is generated
# from it (a stub's overloads alone have no body to document).
def solve(  # type: ignore[misc]
    deal: Deal,
    objective: str | None = None,
    *,
    bound: int | None = None,
    max_nodes: int | None = None,
) -> Solution | BoundTest | GaveUp:
    """Solves a play-phase position double-dummy (every card and the talon order known).

    ``objective`` is ``"points"`` (deal points for the player to move) or ``"cards"``
    (the most cards the player to move can end the deal with). With ``bound`` (a whole
    number), answers only whether the value is at least ``bound``, a ``BoundTest``: one
    null-window test, cheaper than the value. With ``max_nodes``, gives up past that many
    search nodes and returns a ``GaveUp`` instead of an answer. Raises ``EcarteError``
    outside the play phase. Runs without the GIL."""

def prepare_solver() -> float:
    """Builds the solver's one-time tables if they are not built yet (the endgame tables
    every thread shares, and this thread's transposition table); returns the seconds it
    took, next to nothing once they are built. The first solve of a process builds them
    otherwise."""

def solve_many(
    deals: Sequence[Deal],
    objective: str | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[Solution]:
    """Solves many positions in parallel on ``threads`` threads (default: all cores);
    results in input order; ``on_progress(solved)`` is told the positions solved so far
    while it runs. ``ecarte.duel.solve_many`` adds a Ray backend."""

def solve_many_timed(
    deals: Sequence[Deal],
    objective: str | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[tuple[Solution, float]]:
    """``solve_many`` (the same arguments), each solution with its own solve time in
    seconds."""

def action_values(
    deal: Deal, objective: str | None = None
) -> list[tuple[Action, int]]:
    """Every legal action with its exact double-dummy value, in action-id order."""

DEFAULT_ANALYSIS_WORLDS: Final[int]
"""Worlds per decision of an analysis unless a count is given: the master's own."""
DEFAULT_ANALYSIS_THRESHOLD: Final[float]
"""The loss in points from which an analysed decision is a mistake, unless one is given."""

def analyse_json(
    target: Deal | Match | str,
    *,
    seed: int,
    worlds: int | None = None,
    threshold: float | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
    finished: bool = False,
) -> str:
    """The analysis of every decision of ``target`` (a ``Deal``, a ``Match`` or the JSON
    text of a deal or match record) as JSON, with the worlds of ``seed``; of its finished
    deals only with ``finished``. ``ecarte.duel.analyse`` reads it into typed results."""

def analysis_size(target: Deal | Match | str, *, finished: bool = False) -> int:
    """The decisions an analysis of ``target`` makes (one per action): the total of its
    progress."""

def sample_worlds(observation: Observation, n: int, seed: int) -> list[Deal]:
    """``n`` deals consistent with ``observation`` (each world's observation for that player
    equals it), reproducible for ``seed``. Raises ``EcarteError`` if none can be found."""

def pimc_values(
    observation: Observation, samples: int, seed: int
) -> list[tuple[Action, float]]:
    """Each legal action with its mean double-dummy points over ``samples`` sampled worlds;
    exchange options are followed by a fixed exchange rule of thumb, then solved."""

def expert_values(
    observation: Observation, samples: int, seed: int
) -> list[tuple[Action, float]]:
    """Each legal action with the expert's value: mean double-dummy points, the talon drawn
    by seat, over ``samples`` worlds resampled by the likelihood of the opponent's exchange
    decisions."""

def master_values(
    observation: Observation, samples: int, seed: int
) -> list[tuple[Action, float]]:
    """Each legal action with the master's value: mean double-dummy points, the talon drawn
    by seat, over ``samples`` worlds resampled by the likelihood of the opponent's plays and
    exchange decisions."""

def inference_spread(
    observation: Observation, agent: str, seed: int
) -> tuple[float, int] | None:
    """How the search agent ``agent`` (a spec) with seed ``seed`` weights the worlds it
    samples for ``observation``: the effective sample size of the weighted pool of
    candidate worlds that its search resamples its worlds from at that decision, and the
    pool's size, or ``None`` where it solves unweighted worlds."""

@final
class MatchResult:
    """The end of a match: the winner, the final score and every deal's outcome."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    def __new__(
        cls, winner: int, score: tuple[int, int], outcomes: Sequence[Outcome]
    ) -> MatchResult:
        """The result with these parts, which some match must be able to end with: every
        outcome possible, each seat's score the points of the deals it won, the winner ahead
        and the winner of the last deal; ``EcarteError`` otherwise."""
    @property
    def winner(self) -> int:
        """The seat that won the match."""
    @property
    def score(self) -> tuple[int, int]:
        """Match points of seat 0 and seat 1."""
    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every deal's outcome, in order."""
    def to_json(self) -> str:
        """The versioned record: ``{"format": "ecarte.duel.match_result", "version": 1,
        "winner": w, "score": [a, b], "outcomes": [outcome records]}``."""
    @staticmethod
    def from_json(text: str) -> MatchResult:
        """Reads what ``to_json`` wrote, checked as the constructor checks; anything else
        raises ``InvalidRecordError``."""

@final
class Match:
    """A duel match to ``rules.target`` points (7 by default).

    The dealer alternates every deal, starting with ``first_dealer``; deal ``i`` is
    shuffled with ``derive_seed(seed, i)``. Play it with ``play``, or step by step with
    ``apply``: the action that ends a deal scores it and deals the next at once."""

    RECORD_FORMAT: ClassVar[str]
    """The ``format`` of this class's records (``to_json``, ``from_json``)."""

    def __new__(
        cls,
        target: int | None = None,
        first_dealer: int | None = None,
        seed: int | None = None,
        rules: Rules | None = None,
    ) -> Match:
        """``seed=None`` draws a fresh random seed (read it back from ``.seed``);
        ``target`` overrides ``rules.target``; ``first_dealer=None`` is seat 0."""
    @property
    def rules(self) -> Rules: ...
    @property
    def seed(self) -> int: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def target(self) -> int: ...
    @property
    def score(self) -> tuple[int, int]:
        """Match points of seat 0 and seat 1."""
    @property
    def winner(self) -> int | None:
        """The seat that reached the target, or ``None`` while the match goes on."""
    def is_over(self) -> bool: ...
    @property
    def deal(self) -> Deal:
        """A copy of the deal in progress (the last, finished one once the match is
        over); act through ``Match.apply``."""
    @property
    def deals(self) -> list[Deal]:
        """Copies of every deal so far, the current one last."""
    @property
    def current_player(self) -> int | None: ...
    def legal_actions(self) -> list[Action]: ...
    def observation(self, player: int) -> Observation:
        """``player``'s view of the current deal, with the match score."""
    def outcomes(self) -> list[Outcome]:
        """The outcome of every finished deal, in order."""
    def apply(self, action: _ActionLike, player: int | None = None) -> None:
        """Applies ``action`` to the current deal; scores it and deals the next when it
        ends. Raises ``IllegalActionError`` (its reason, the legal actions; nothing changed)
        when illegal or when the match is over. With ``player``, the action is that seat's:
        refused as ``not_your_turn`` unless it is to move."""
    def check(self, action: _ActionLike, player: int | None = None) -> None:
        """Raises what ``apply(action, player)`` would raise, and changes nothing: an
        ``IllegalActionError`` with the reason the action is refused; ``None`` when it is
        legal."""
    def frames(self, index: int | None = None) -> list[Frame]:
        """The steps of deal ``index`` (from 0; every deal when ``None``) as a spectator
        who holds the record follows them (``Frame``), each with its deal number and the
        match score after it."""
    def undo(self) -> Action:
        """Takes back the last action of the current deal (a finished deal stays scored)."""
    def deal_at(self, index: int) -> Deal:
        """A copy of deal ``index`` (from 0): a finished deal or the deal in progress."""
    def advance(
        self,
        agent0: Callable[[Observation, list[Action]], _ActionLike] | None = None,
        agent1: Callable[[Observation, list[Action]], _ActionLike] | None = None,
        until: str = "match",
        on_action: Callable[[int, Action], object] | None = None,
    ) -> Outcome | None:
        """Plays on with the agents of the seats that have one; stops when a seat without
        an agent is to move, when the match is over, or with ``until="deal"`` when a deal
        ends (returning its outcome). ``on_action(seat, action)`` follows every action."""
    def play(
        self,
        agent0: Callable[[Observation, list[Action]], _ActionLike],
        agent1: Callable[[Observation, list[Action]], _ActionLike],
        on_deal: Callable[[Deal, Match], object] | None = None,
    ) -> MatchResult:
        """Plays to the end, ``agent0`` and ``agent1`` choosing for seats 0 and 1 from
        ``(observation, legal_actions)``; ``on_deal(deal, match)`` is called after each
        finished deal."""
    def result(self) -> MatchResult:
        """The result; ``EcarteError`` while the match goes on."""
    def to_json(self) -> str:
        """The versioned match record: seed, first dealer, rules, every deal's record and
        the players' names, if set."""
    @property
    def players(self) -> tuple[str, str] | None:
        """The names of the players in seat 0 and seat 1, for the record and its replay
        (``None`` until set): each 1 to 40 characters on one line."""
    @players.setter
    def players(self, names: tuple[str, str] | None) -> None: ...
    @staticmethod
    def from_json(text: str) -> Match:
        """Replays a record made by ``to_json``. Every deal must be the seeded deal with
        the alternating dealer and the match's rules, every action legal, and only the
        last deal unfinished; anything else raises ``InvalidRecordError``."""
    def copy(self) -> Match: ...
    def __copy__(self) -> Match: ...
    def __deepcopy__(self, memo: object) -> Match: ...

def self_play_decisions(
    matches: int,
    seed: int,
    agents: Iterable[tuple[str, str]],
    rules: Rules | None = None,
    start: int | None = None,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[tuple[str, np.ndarray]]:
    """The decisions with a choice of ``matches`` self-play matches between built-in
    agents, as columns of arrays. See ``ecarte.duel.self_play_decisions``."""
