"""The duel as an OpenSpiel game, ``python_ecarte_duel``, and OpenSpiel's ISMCTS as an
ecarte agent.

Importing this module registers the game with ``pyspiel.register_game``::

    import pyspiel
    import ecarte.openspiel

    game = pyspiel.load_game("python_ecarte_duel", {"order": "traditional"})

The game is one deal: sequential, imperfect information, zero-sum, with terminal rewards
(the deal points, +1 or +2 for a vole, and their opposite) and explicit chance. **Chance
is the shuffle, dealt card by card**: the first 32 moves are chance nodes, the ``k``-th
choosing uniformly which of the cards not yet placed lies at position ``k`` of the deck
(outcome ``i`` is the card of play action ``i``, the card index of ``docs/api.md``). Any
order is equally likely, as in the engine's shuffle; the deck is then laid out as every
ecarte deal is (``Deal.from_deck``): cards 0-4 to the elder, 5-9 to the dealer, card 10
turned up, the talon below. Player actions are ecarte's 68 action ids.

Parameters: ``order`` (``"ecarte"`` or ``"traditional"``), ``max_exchanges`` (0-11),
``allow_trump_discard`` (bool) and ``dealer`` (0 or 1, the seat that deals).

The information state is perfect-recall: its string is the player's
``Observation.to_json()`` (dealt hand, every draw, every action as the player saw it);
its tensor is the 214-float observation tensor followed by the draw order and the
action history. The observation (string and tensor) is the current view only: the
214-float tensor. ``resample_from_infostate`` draws a world with ecarte's exact sampler
(``ecarte.duel.sample_worlds``). See ``docs/integrations.md``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ecarte._core import Card
from ecarte._frameworks import missing
from ecarte._public import api_dir
from ecarte.duel import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Action,
    Deal,
    Observation,
    Rules,
    heuristic_action,
    sample_worlds,
)
from ecarte.errors import EcarteError
from ecarte.seeding import resolve_seed

try:
    import pyspiel
except ImportError as exc:
    raise missing("open_spiel", "openspiel") from exc

__all__ = [
    "GAME_NAME",
    "AgentBot",
    "EcarteGame",
    "EcarteState",
    "ISMCTSAgent",
    "game_for",
    "ismcts",
    "ismcts_bot",
    "state_from_observation",
]
__dir__ = api_dir(globals())

GAME_NAME = "python_ecarte_duel"

DECK_SIZE = 32
#: The longest deal: 11 exchanges of 4 actions, 5 tricks of 2 cards, and up to 2 more
#: (a proposal then a refusal) with fewer exchanges: 2 * exchanges + 34 <= 56.
MAX_PLAYER_ACTIONS = 56
#: Draws of one player: the 22 talon cards go one to each player at every exchange and
#: after every trick, so each draws 11 at most.
MAX_DRAWS = 11
#: One entry per history step: the 68 actions, then the opponent's hidden discard.
HISTORY_WIDTH = NUM_ACTIONS + 1
INFO_STATE_SIZE = (
    OBSERVATION_SIZE + DECK_SIZE + MAX_DRAWS * DECK_SIZE + MAX_PLAYER_ACTIONS * HISTORY_WIDTH
)

_DEFAULTS: dict[str, Any] = {
    "order": "ecarte",
    "max_exchanges": 11,
    "allow_trump_discard": False,
    "dealer": 0,
}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Écarté duel (ecarte)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=DECK_SIZE,
    num_players=2,
    min_utility=-2.0,
    max_utility=2.0,
    utility_sum=0.0,
    max_game_length=DECK_SIZE + MAX_PLAYER_ACTIONS,
)


def _card(i: int) -> Card:
    card = Action.from_id(i).card
    assert card is not None  # ids 0-31 are the plays
    return card


#: The card of chance outcome (and play action) ``i``.
_CARDS = [_card(i) for i in range(DECK_SIZE)]


class EcarteGame(pyspiel.Game):  # type: ignore[misc]
    """One duel deal; see the module's documentation for the chance model and the
    parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        super().__init__(_GAME_TYPE, _GAME_INFO, params)
        self.rules = Rules(
            order=str(params["order"]),
            max_exchanges=int(params["max_exchanges"]),
            allow_trump_discard=bool(params["allow_trump_discard"]),
        )
        dealer = int(params["dealer"])
        if dealer not in (0, 1):
            raise EcarteError(f"dealer must be 0 or 1, got {dealer}")
        self.dealer = dealer

    def new_initial_state(self) -> EcarteState:
        return EcarteState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> EcarteObserver:
        return EcarteObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class EcarteState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the chance moves lay out the deck, then an ecarte
    :class:`~ecarte.duel.Deal` plays it. ``state.deal`` is that deal (``None`` while the
    cards are being dealt)."""

    def __init__(self, game: EcarteGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._dealer = game.dealer
        self._deck: list[int] = []
        self.deal: Deal | None = None

    # -- OpenSpiel's state API -------------------------------------------------------------

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self.deal.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    def _remaining(self) -> list[int]:
        placed = set(self._deck)
        return [c for c in range(DECK_SIZE) if c not in placed]

    def _legal_actions(self, player: int) -> list[int]:
        if self.deal is None:
            return self._remaining()
        return [a.id for a in self.deal.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.deal is not None:
            raise EcarteError("chance_outcomes called on a player node")
        remaining = self._remaining()
        p = 1.0 / len(remaining)
        return [(c, p) for c in remaining]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            self._deck.append(int(action))
            if len(self._deck) == DECK_SIZE:
                self.deal = Deal.from_deck(
                    [_CARDS[c] for c in self._deck], dealer=self._dealer, rules=self._rules
                )
        else:
            self.deal.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {_CARDS[action]}"
        return str(Action.from_id(action))

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.is_over()

    def returns(self) -> list[float]:
        outcome = self.deal.outcome() if self.deal is not None else None
        if outcome is None:
            return [0.0, 0.0]
        points = float(outcome.points)
        return [points, -points] if outcome.winner == 0 else [-points, points]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EcarteState:
        """A state drawn from the worlds consistent with ``player_id``'s information
        state, with ecarte's exact sampler (``sample_worlds``), seeded from
        ``probability_sampler`` (a callable giving numbers in [0, 1))."""
        if self.deal is None:
            return self.get_game().new_initial_state()  # type: ignore[no-any-return]
        seed = int(float(probability_sampler()) * 2**62)
        try:
            world = sample_worlds(self.deal.observation(player_id), 1, seed)[0]
        except EcarteError:
            # The sampler's attempt budget ran out (a rare, tightly constrained position):
            # this state is itself one of the worlds consistent with the information state.
            return self.clone()  # type: ignore[no-any-return]
        return _state_of(self.get_game(), world)

    def __str__(self) -> str:
        if self.deal is None:
            return "dealing: " + " ".join(str(_CARDS[c]) for c in self._deck)
        return self.deal.to_json()


def _state_of(game: EcarteGame, deal: Deal) -> EcarteState:
    """The OpenSpiel state of ``deal`` (a deal of ``game``'s rules), with its whole
    history: the 32 chance moves of its deck, then its actions."""
    state = game.new_initial_state()
    index = {card: i for i, card in enumerate(_CARDS)}
    for card in deal.deck:
        state.apply_action(index[card])
    for action in deal.history:
        state.apply_action(action.id)
    return state


def _buffer_layout(array: np.ndarray[Any, Any]) -> tuple[object, ...]:
    """What an array is over its memory: dtype, shape, strides, address, writeability."""
    return (
        array.dtype,
        array.shape,
        array.strides,
        array.__array_interface__["data"][0],
        array.flags.writeable,
    )


class EcarteObserver:
    """OpenSpiel's observer for the game (``make_py_observer``). With perfect recall it
    gives the information state: tensor = the 214-float observation tensor, the dealt
    hand, one card plane per draw of the player in order, and one row of 69 per action
    so far (the action's id, or entry 68 for the opponent's hidden discard); string = the
    player's ``Observation.to_json()``. Without, it gives the current view: the 214-float
    tensor and a short text. Only the player's own private information is supported."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise EcarteError(f"observation parameters are not supported, got {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise EcarteError("the duel's observer shows a player's own cards only")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("observation", OBSERVATION_SIZE, (OBSERVATION_SIZE,))
        ]
        if self.perfect_recall:
            pieces += [
                ("dealt", DECK_SIZE, (DECK_SIZE,)),
                ("draws", MAX_DRAWS * DECK_SIZE, (MAX_DRAWS, DECK_SIZE)),
                (
                    "history",
                    MAX_PLAYER_ACTIONS * HISTORY_WIDTH,
                    (MAX_PLAYER_ACTIONS, HISTORY_WIDTH),
                ),
            ]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        offset = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[offset : offset + size].reshape(shape)
            offset += size
        self._layout = _buffer_layout(self.tensor)

    def set_from(self, state: EcarteState, player: int) -> None:
        # The views in `dict` stay valid only while `tensor` is the array they were cut
        # from: resized in place (``refcheck=False``), it has moved, and they dangle.
        if _buffer_layout(self.tensor) != self._layout:
            raise EcarteError(
                "the observer's tensor was changed in place (its dtype, shape, memory or "
                "flags): undo the change, or make a new observer"
            )
        self.tensor.fill(0.0)
        if state.deal is None:
            return
        state.deal.observation_tensor(player, out=self.dict["observation"])
        if not self.perfect_recall:
            return
        obs = state.deal.observation(player)
        index = {card: i for i, card in enumerate(_CARDS)}
        for card in obs.initial_hand:
            self.dict["dealt"][index[card]] = 1.0
        for k, card in enumerate(obs.draws):
            self.dict["draws"][k, index[card]] = 1.0
        for t, action in enumerate(obs.history):
            self.dict["history"][t, NUM_ACTIONS if action is None else action.id] = 1.0

    def string_from(self, state: EcarteState, player: int) -> str:
        if state.deal is None:
            return f"p{player} dealing {len(state._deck)}"
        obs = state.deal.observation(player)
        if self.perfect_recall:
            return obs.to_json()
        lead = obs.lead if obs.lead is not None else "-"
        holder = {None: "talon", player: "me"}.get(obs.turn_up_holder, "opponent")
        return (
            f"p{player} {obs.phase} trump {obs.trump.letter} turn-up {obs.turn_up} ({holder}) "
            f"hand {' '.join(map(str, obs.hand))} discards {' '.join(map(str, obs.discards))} "
            f"lead {lead} talon {obs.talon_size} exchanges {obs.exchanges} "
            f"cards {obs.cards_taken[0]}-{obs.cards_taken[1]} "
            f"tricks {' '.join(f'{t.cards[0]}{t.cards[1]}' for t in obs.tricks)}"
        )


pyspiel.register_game(_GAME_TYPE, EcarteGame)


# -- ecarte agents and OpenSpiel bots ------------------------------------------------------


@functools.lru_cache(maxsize=16)
def _game(order: str, max_exchanges: int, allow_trump_discard: bool, dealer: int) -> Any:
    return pyspiel.load_game(
        GAME_NAME,
        {
            "order": order,
            "max_exchanges": max_exchanges,
            "allow_trump_discard": allow_trump_discard,
            "dealer": dealer,
        },
    )


def game_for(rules: Rules, dealer: int = 0) -> Any:
    """The loaded game for ``rules`` (its target plays no part in one deal) and
    ``dealer``."""
    return _game(rules.order, rules.max_exchanges, rules.allow_trump_discard, dealer)


def state_from_observation(observation: Observation, seed: int) -> EcarteState:
    """An OpenSpiel state consistent with ``observation`` (one world drawn with
    ``sample_worlds``), for a search that resamples it from the player's information
    state."""
    world = sample_worlds(observation, 1, seed)[0]
    return _state_of(game_for(observation.rules, observation.dealer), world)


def ismcts_bot(
    game: Any,
    simulations: int = 100,
    seed: int | None = None,
    uct_c: float = 2.0,
    rollouts: int = 1,
) -> Any:
    """OpenSpiel's Python ISMCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``)
    for ``game``: ``simulations`` per decision, ``rollouts`` random rollouts per leaf,
    UCT constant ``uct_c`` (the rewards are deal points, -2 to 2), the most visited action;
    reproducible for ``seed`` (its worlds too; ``None``: a fresh seed, kept in ``bot.seed``).
    Its search starts afresh at every decision, so it also takes ``evaluate_bots``'
    ``restart_at`` and ``inform_action`` calls (which the bot itself lacks)."""
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

    class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            self.reset()

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    if simulations < 1:
        raise EcarteError(f"simulations must be at least 1, got {simulations}")
    seed = resolve_seed(seed)
    random = np.random.RandomState(seed % 2**32)
    bot = _ISMCTSBot(
        game,
        RandomRolloutEvaluator(rollouts, random),
        uct_c,
        simulations,
        random_state=random,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    # The bot's own resampling draws from an unseeded generator; seed it from the bot's.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, random.uniform))
    bot.seed = seed  # a fresh seed (seed=None) is kept, as every ecarte seed is
    return bot


class ISMCTSAgent:
    """OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) as an
    ecarte agent: ``agent(observation, legal_actions) -> Action``. It searches the deal
    only (it maximises deal points, not the match); ``simulations`` per decision, random
    rollouts, UCT constant ``uct_c``, worlds from ecarte's exact sampler (the heuristic's
    choice when the sampler finds no world within its budget, as the native PIMC does)."""

    def __init__(
        self,
        simulations: int = 100,
        seed: int | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
    ) -> None:
        if simulations < 1:
            raise EcarteError(f"simulations must be at least 1, got {simulations}")
        self.simulations = simulations
        self.seed = resolve_seed(seed)
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._random = np.random.RandomState(self.seed % 2**32)
        self._bots: dict[int, Any] = {}

    def bot(self, game: Any) -> Any:
        """The ISMCTS bot for ``game`` (one per rules and dealer)."""
        key = id(game)
        if key not in self._bots:
            seed = int(self._random.randint(2**31))
            self._bots[key] = ismcts_bot(game, self.simulations, seed, self.uct_c, self.rollouts)
        return self._bots[key]

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        try:
            state = state_from_observation(observation, int(self._random.randint(2**31)))
        except EcarteError:  # no world found within the sampler's budget (rare)
            return heuristic_action(observation, legal)
        action = Action.from_id(int(self.bot(state.get_game()).step(state)))
        return action if action in legal else legal[0]

    def __repr__(self) -> str:
        return f"ISMCTSAgent(simulations={self.simulations}, seed={self.seed})"


@dataclass(frozen=True)
class ismcts:
    """A picklable factory of :class:`ISMCTSAgent` for ``ecarte.arena.play``:
    ``arena.play(ismcts(200), "heuristic", matches=10)``."""

    simulations: int = 100
    uct_c: float = 2.0

    def __repr__(self) -> str:  # the arena's name for the agent
        return f"ismcts:{self.simulations}"

    def __call__(self, seed: int) -> ISMCTSAgent:
        return ISMCTSAgent(self.simulations, seed, self.uct_c)


class AgentBot(pyspiel.Bot):  # type: ignore[misc]
    """An ecarte agent (an agent spec of ``ecarte.duel.AGENTS``, or any agent callable) as
    an OpenSpiel bot for this game, e.g. for ``evaluate_bots``."""

    def __init__(self, agent: Any, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(agent, str):
            from ecarte.agents import make_agent

            agent = make_agent(agent, seed)
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0

    def __repr__(self) -> str:
        return f"AgentBot({self.agent!r})"

    def step(self, state: EcarteState) -> int:
        deal = state.deal
        assert deal is not None and deal.current_player is not None
        start = time.perf_counter()
        action = self.agent(deal.observation(deal.current_player), deal.legal_actions())
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return int(Action(action).id)

    def restart_at(self, state: EcarteState) -> None:
        pass

    def inform_action(self, state: EcarteState, player_id: int, action: int) -> None:
        pass
