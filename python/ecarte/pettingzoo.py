"""A PettingZoo AEC environment for the duel, in the shape of ``pettingzoo.classic``'s
card games::

    from ecarte.pettingzoo import env

    e = env(episode="deal")
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else e.action_space(agent).sample(mask)
        e.step(action)

Agents are ``"player_0"`` and ``"player_1"`` (seat 0 and seat 1). Each observation is a
dict of the 214-float tensor (``"observation"``, that seat's view, see ``docs/api.md``)
and the 68-entry ``int8`` legal-action mask (``"action_mask"``, all zeros when it is not
that agent's turn). An episode is one deal (``episode="deal"``, the default) or one match
to the rules' target (``episode="match"``). At the end of each deal the winner is
rewarded its deal points (+1, or +2 for a vole) and the loser the opposite. See
``docs/integrations.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ecarte._frameworks import missing, observation_high
from ecarte._public import api_dir
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Action, Deal, Match, Rules, RunMatch
from ecarte.errors import EcarteError
from ecarte.seeding import resolve_seed

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:
    raise missing("pettingzoo", "pettingzoo") from exc

__all__ = ["AGENTS", "ILLEGAL_ACTION_REWARD", "env", "raw_env"]
__dir__ = api_dir(globals())

AGENTS = ["player_0", "player_1"]

#: What the wrapped :func:`env` gives an agent that plays an illegal action (the episode
#: ends): the worst loss of a deal.
ILLEGAL_ACTION_REWARD = -2.0

Obs = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the
    episode with :data:`ILLEGAL_ACTION_REWARD`, actions outside the space are refused, and
    the call order is enforced. Takes :class:`raw_env`'s arguments."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_ACTION_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # type: ignore[misc]
    """The duel as an AEC game. ``episode`` is ``"deal"`` or ``"match"``; ``rules``
    passes through (a match is played to ``rules.target``); ``render_mode`` is ``"ansi"``
    (the ``ecarte play`` table, from the seat to move, as text) or ``"human"`` (printed).

    ``reset(seed=s)`` starts a run of matches from ``s``: match ``m`` of the run is
    ``duel.RunMatch(s, m)``, seed ``derive_seed(s, m)`` and first dealer ``m % 2`` (the
    engine's own runs of matches are laid out alike; ``reset()`` without a seed goes on
    with the run; the first run's seed is fresh). A match episode is one match; deal
    episodes are the consecutive deals of the run's matches, each match played to the
    target (the dealer alternates, and the observation carries the match score). Illegal
    actions raise ``IllegalActionError`` here; :func:`env` turns them into a penalty.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ecarte_duel_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        episode: str = "deal",
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if episode not in ("deal", "match"):
            raise EcarteError(f"episode must be 'deal' or 'match', got {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EcarteError(f"render_mode must be 'ansi', 'human' or None, got {render_mode!r}")
        self.episode = episode
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        high = observation_high()
        space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, high, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(NUM_ACTIONS) for a in AGENTS
        }
        self._seed: int | None = None  # the run's seed
        self._matches = 0  # matches started in the run
        self._match: Match | None = None
        self._deal_index = 0  # the deal of the episode in progress, in its match

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        """The deal in progress (a copy): the episode's deal in deal episodes, the match's
        in match episodes."""
        if self._match is None:
            raise EcarteError("call reset() first")
        if self.episode == "deal":
            return self._match.deal_at(self._deal_index)
        return self._match.deal

    def _score(self) -> tuple[int, int]:
        return self._match.score if self._match is not None else (0, 0)

    def _current_seat(self) -> int | None:
        return self.deal.current_player

    def _next_match(self) -> Match:
        assert self._seed is not None
        m = self._matches
        self._matches += 1
        return RunMatch(self._seed, m).start(self.rules)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._seed is None:
            self._seed = resolve_seed(seed)
            self._matches = 0
            self._match = None
        go_on = (
            self.episode == "deal"
            and self._match is not None
            and not self._match.is_over()
            and self._match.deal.outcome() is None
        )
        if not go_on:
            self._match = self._next_match()
        assert self._match is not None
        self._deal_index = len(self._match.deals) - 1
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        seat = self._current_seat()
        assert seat is not None
        self.agent_selection = AGENTS[seat]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Obs:
        seat = AGENTS.index(agent)
        deal = self.deal
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if deal.current_player == seat and not self.terminations[agent]:
            mask[:] = deal.legal_action_mask()
        return {"observation": deal.observation_tensor(seat, self._score()), "action_mask": mask}

    def __repr__(self) -> str:
        return f"<raw_env episode={self.episode} {self.rules!r}>"

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask (68 bools) of the agent to move, ``agent_selection``: the
        sb3-contrib convention, also reached through PettingZoo's wrappers."""
        mask: npt.NDArray[np.bool_] = self.observe(self.agent_selection)["action_mask"].astype(
            np.bool_
        )
        return mask

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        chosen = Action.from_id(int(action))
        assert self._match is not None
        scored = len(self._match.outcomes())
        self._match.apply(chosen)
        outcomes = self._match.outcomes()
        outcome = outcomes[-1] if len(outcomes) > scored else None
        ended = self._match.is_over() or (self.episode == "deal" and outcome is not None)
        if outcome is not None:
            winner, loser = AGENTS[outcome.winner], AGENTS[1 - outcome.winner]
            self.rewards[winner] = float(outcome.points)
            self.rewards[loser] = -float(outcome.points)
        if ended:
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = AGENTS[1 - seat] if AGENTS[1 - seat] in self.agents else agent
        else:
            nxt = self._current_seat()
            assert nxt is not None
            self.agent_selection = AGENTS[nxt]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- rendering -----------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from ecarte.terminal import table, table_text

        deal = self.deal
        seat = deal.current_player
        if seat is None:
            seat = AGENTS.index(self.agent_selection)
        legal = deal.legal_actions()
        assert self._match is not None
        group = table(
            deal,
            seat,
            score=self._match.score,
            target=self._match.target,
            deal_number=self._deal_index + 1 if self.episode == "deal" else len(self._match.deals),
            legal=legal,
        )
        text = f"{AGENTS[seat]}'s view\n" + table_text(group)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
