"""Gymnasium single-agent environments: one seat of a duel against a built-in opponent.

Importing this module registers ``"ecarte/Duel-v0"``::

    import gymnasium
    import ecarte.gymnasium

    env = gymnasium.make("ecarte/Duel-v0", opponent="heuristic", seat=0)
    envs = gymnasium.make_vec("ecarte/Duel-v0", num_envs=64,
                              vectorization_mode="vector_entry_point", opponent="pimc:8")

The opponent is named with the one agent grammar (``random``, ``heuristic``, ``pimc``,
``pimc:N``, ``expert``, ``expert:N``) and acts inside Rust. An episode is one deal;
consecutive episodes are the consecutive deals of a run of matches to the rules' target, so
the deal alternates between the seats and the observation carries the match score.
Observations are a dict of the 214-float tensor (``"observation"``) and the 68-entry
``int8`` legal-action mask (``"action_mask"``), as mask-aware learners such as
``sb3_contrib.MaskablePPO`` read it. The reward, at the deal's end, is the learner's deal
points: +1 or +2 (vole) won, -1 or -2 lost. See ``docs/integrations.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._frameworks import missing, observation_high
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, OpponentVecEnv, Rules, parse_agent
from ecarte.errors import EcarteError

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:
    raise missing("gymnasium", "gymnasium") from exc

__all__ = ["ENV_ID", "ILLEGAL_ACTION_REWARD", "DuelEnv", "DuelVectorEnv"]

ENV_ID = "ecarte/Duel-v0"

#: Reward for an illegal action, which ends the episode: the worst loss of a deal. Mask-aware
#: learners never take one; Gymnasium's checker samples unmasked actions.
ILLEGAL_ACTION_REWARD = -2.0

#: An observation: ``{"observation": float32 (214,), "action_mask": int8 (68,)}``.
Obs = dict[str, Any]


def observation_space() -> spaces.Dict:
    """The dict space of one observation: ``"observation"`` (214 float32, bounds in
    ``docs/api.md``) and ``"action_mask"`` (68 int8, 1 for a legal action)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0, high=observation_high(), shape=(OBSERVATION_SIZE,), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def _seed_from(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63, dtype=np.int64))


RENDER_MODES = ["ansi", "human"]


def _check_options(opponent: str, seat: int, render_mode: str | None) -> int:
    """Checks the arguments both environments take; returns the seat as an ``int``."""
    parse_agent(opponent)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise EcarteError(f"render_mode must be 'ansi', 'human' or None, got {render_mode!r}")
    if seat not in (0, 1) or isinstance(seat, bool):
        raise EcarteError(f"seat must be 0 or 1, got {seat!r}")
    return int(seat)


def _render(native: OpponentVecEnv, i: int, seat: int, width: int = 100) -> str:
    from ecarte.play import table, table_text

    deal = native.deal(i)
    legal = deal.legal_actions() if deal.current_player == seat else None
    return table_text(table(deal, seat, legal=legal), width)


class DuelEnv(gymnasium.Env[Obs, np.int64]):
    """One seat (``seat``, 0 or 1) of duel deals against ``opponent``, a built-in agent
    spec played natively. ``rules`` passes through; ``render_mode`` is ``"ansi"`` (the
    ``ecarte play`` table as text) or ``"human"`` (printed).

    ``reset(seed=s)`` starts a run of matches from ``s``; ``reset()`` after a deal's
    end moves to the match's next deal (the dealer alternates). An illegal action ends
    the episode with :data:`ILLEGAL_ACTION_REWARD` and ``info["illegal_action"]``.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "heuristic",
        seat: int = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.seat = _check_options(opponent, seat, render_mode)
        self.opponent = opponent
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._native: OpponentVecEnv | None = None
        self._obs: Obs | None = None
        self._ended = True  # the native deal is finished: the next reset moves on
        self._forfeit = False

    def _observe(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Obs:
        self._obs = {"observation": obs[0].copy(), "action_mask": mask[0].astype(np.int8)}
        return self._last_obs()

    def _last_obs(self) -> Obs:
        """A copy of the last observation: the env keeps its own, to check the next action
        against, whatever the caller does to the arrays it gets."""
        assert self._obs is not None
        return {key: value.copy() for key, value in self._obs.items()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if self._native is None:
            self._native = OpponentVecEnv(
                1, _seed_from(self.np_random), self.opponent, self.seat, self.rules
            )
            obs, mask = self._native.reset()
        elif seed is not None or not self._ended or self._forfeit:
            obs, mask = self._native.reset(_seed_from(self.np_random))
        else:
            obs, mask, _, _ = self._native.step([0])  # the next deal of the match
        self._ended = self._forfeit = False
        if self.render_mode == "human":
            self.render()
        return self._observe(obs, mask), {}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._native is None or self._obs is None:
            raise EcarteError("call reset() before step()")
        if self._ended:
            raise EcarteError("the deal is over: call reset()")
        a = int(action)
        if not (0 <= a < NUM_ACTIONS and self._obs["action_mask"][a]):
            self._ended = self._forfeit = True
            return self._last_obs(), ILLEGAL_ACTION_REWARD, True, False, {"illegal_action": True}
        obs, mask, rewards, terminated = self._native.step([a])
        self._ended = bool(terminated[0])
        if self.render_mode == "human":
            self.render()
        return self._observe(obs, mask), float(rewards[0]), self._ended, False, {}

    def render(self) -> str | None:
        if self.render_mode is None or self._native is None:
            return None
        text = _render(self._native, 0, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class DuelVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` duel deals against ``opponent``, stepped together inside Rust
    (``ecarte.duel.OpponentVecEnv``): one ``step`` applies the learner's action in every
    env and the opponent's replies, up to the learner's next decision. Autoreset is
    Gymnasium's next-step mode: the step after an env's ``terminated`` ignores its action
    and returns the first observation of its next deal. Actions must be legal (an illegal
    one raises ``IllegalActionError`` and changes nothing); an env awaiting its reset
    takes any action."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (as VectorEnv declares it)
        "render_modes": RENDER_MODES,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        opponent: str = "heuristic",
        seat: int = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.seat = _check_options(opponent, seat, render_mode)
        self.num_envs = num_envs
        self.opponent = opponent
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # Unseeded, a fresh seed, kept in np_random_seed as Gymnasium's own envs keep it.
        self._np_random, self._np_random_seed = seeding.np_random()
        self._native = OpponentVecEnv(num_envs, _seed_from(self.np_random), opponent, seat, rules)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0]
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        obs, mask = self._native.reset(_seed_from(self.np_random))
        return {"observation": obs, "action_mask": mask.view(np.int8)}, {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        obs, mask, rewards, terminated = self._native.step(actions)
        return (
            {"observation": obs, "action_mask": mask.view(np.int8)},
            rewards.astype(np.float64),
            terminated,
            np.zeros(self.num_envs, dtype=np.bool_),
            {},
        )

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        texts = tuple(_render(self._native, i, self.seat) for i in range(self.num_envs))
        if self.render_mode == "human":
            print("\n".join(texts))
            return None
        return texts


def _register() -> None:
    if ENV_ID not in gymnasium.envs.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="ecarte.gymnasium:DuelEnv",
            vector_entry_point="ecarte.gymnasium:DuelVectorEnv",
            disable_env_checker=False,
        )


_register()
