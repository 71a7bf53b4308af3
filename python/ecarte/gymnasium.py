"""Gymnasium single-agent environments: one seat of a duel against a built-in opponent.

Importing this module registers ``"ecarte/Duel-v0"``::

    import gymnasium
    import ecarte.gymnasium

    env = gymnasium.make("ecarte/Duel-v0", opponent="heuristic", seat=0)
    envs = gymnasium.make_vec("ecarte/Duel-v0", num_envs=64,
                              vectorization_mode="vector_entry_point", opponent="pimc:8")

The opponent is a built-in agent named by its spec (any agent of ``ecarte.duel.AGENTS``:
``"heuristic"``, ``"pimc:8"``, ...) and acts inside Rust. An
episode is one deal; consecutive episodes are the consecutive deals of a run of matches to
the rules' target, so the deal alternates between the seats and the observation carries the
match score.
Observations are a dict of the 214-float tensor (``"observation"``) and the 68-entry
``int8`` legal-action mask (``"action_mask"``), or the tensor alone
(``observation="flat"``). Every env has ``action_masks()``, where mask-aware learners
(``sb3_contrib.MaskablePPO``) look for the mask. The reward, at the deal's end, is the
learner's deal points: +1 or +2 (vole) won, -1 or -2 lost; the ``info`` of that step holds
the deal's ``"outcome"`` and the match ``"score"`` after it. See ``docs/integrations.md``.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ecarte._frameworks import missing, observation_high
from ecarte._public import api_dir
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, OpponentVecEnv, Outcome, Rules, parse_agent
from ecarte.errors import EcarteError, InvalidSeedError
from ecarte.seeding import check_seed

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:
    raise missing("gymnasium", "gymnasium") from exc

__all__ = [
    "ENV_ID",
    "ILLEGAL_ACTION_REWARD",
    "OBSERVATIONS",
    "RENDER_MODES",
    "DuelEnv",
    "DuelVectorEnv",
    "end_info",
    "observation_space",
]
__dir__ = api_dir(globals())

ENV_ID = "ecarte/Duel-v0"

#: Reward for an illegal action, which ends the episode (the env goes on with its next
#: match): the worst loss of a deal. Mask-aware learners never take one; Gymnasium's
#: checker samples unmasked actions.
ILLEGAL_ACTION_REWARD = -2.0

#: The observation forms: a dict with the mask, or the tensor alone.
OBSERVATIONS = ("dict", "flat")

RENDER_MODES = ["ansi", "human", "rgb_array"]

#: An observation: ``{"observation": float32 (214,), "action_mask": int8 (68,)}``, or the
#: float32 tensor alone.
Obs = Any


def observation_space(observation: str = "dict") -> spaces.Space[Any]:
    """The space of one observation: ``"dict"``, a ``Dict`` of ``"observation"`` (214
    float32, bounds in ``docs/api.md``) and ``"action_mask"`` (68 int8, 1 for a legal
    action); ``"flat"``, the ``Box`` of the tensor alone."""
    tensor = spaces.Box(
        low=0.0, high=observation_high(), shape=(OBSERVATION_SIZE,), dtype=np.float32
    )
    if observation == "flat":
        return tensor
    mask = spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8)
    return spaces.Dict({"observation": tensor, "action_mask": mask})


def observe(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], observation: str) -> Obs:
    """The observation (one or a batch) in the form ``observation`` names."""
    if observation == "flat":
        return obs
    return {"observation": obs, "action_mask": mask.view(np.int8)}


def end_info(outcome: Outcome | None, score: npt.NDArray[np.uint8]) -> dict[str, Any]:
    """The ``info`` of the step that ends a deal: its ``"outcome"`` (winner, points, cards,
    tricks, vole), or ``"illegal_action"`` for a deal the learner forfeited, and the match
    ``"score"`` after it (seat 0's points, seat 1's)."""
    info: dict[str, Any] = {"score": (int(score[0]), int(score[1]))}
    if outcome is None:
        info["illegal_action"] = True
    else:
        info["outcome"] = outcome
    return info


def ended_deals(native: OpponentVecEnv, observation: str) -> list[tuple[int, Obs, dict[str, Any]]]:
    """The envs whose deal ended at the last step: each one's index, final observation and
    end-of-deal info."""
    envs, obs, mask, outcomes, scores = native.ended()
    return [
        (int(i), observe(obs[k], mask[k], observation), end_info(outcomes[k], scores[k]))
        for k, i in enumerate(envs)
    ]


def _seed_from(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63, dtype=np.int64))


def check_options(opponent: str, seat: int, render_mode: str | None, observation: str) -> int:
    """Checks the arguments both environments take; returns the seat as an ``int``."""
    parse_agent(opponent)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise EcarteError(
            f"render_mode must be 'ansi', 'human', 'rgb_array' or None, got {render_mode!r}"
        )
    if seat not in (0, 1) or isinstance(seat, bool):
        raise EcarteError(f"seat must be 0 or 1, got {seat!r}")
    if observation not in OBSERVATIONS:
        raise EcarteError(f"observation must be 'dict' or 'flat', got {observation!r}")
    return int(seat)


def render_env(native: OpponentVecEnv, i: int, mode: str) -> Any:
    """Env ``i`` of ``native`` from the learner's seat: the ``ecarte play`` table as text
    (``"ansi"``, ``"human"``) or as an RGB picture (``"rgb_array"``)."""
    deal, seat = native.deal(i), native.seat
    score, target = native.score(i), native.rules.target
    if mode == "rgb_array":
        from ecarte.render import table_image

        return table_image(deal, seat, score=score, target=target)
    from ecarte.terminal import table, table_text

    legal = deal.legal_actions() if deal.current_player == seat else None
    return table_text(table(deal, seat, score=score, target=target, legal=legal), 100)


class DuelEnv(gymnasium.Env[Obs, np.int64]):
    """One seat (``seat``, 0 or 1) of duel deals against ``opponent``, a built-in agent
    spec played natively. ``rules`` passes through; ``observation`` is ``"dict"`` or
    ``"flat"``; ``render_mode`` is ``"ansi"`` (the ``ecarte play`` table as text),
    ``"human"`` (printed) or ``"rgb_array"`` (a picture of the table, with Pillow).

    ``reset(seed=s)`` starts a run of matches from ``s``: match ``j`` has seed
    ``derive_seed(s, j)``. ``reset()`` after a deal's end moves to the match's next deal
    (the dealer alternates); in mid-deal, to the run's next match. An illegal action ends
    the episode with :data:`ILLEGAL_ACTION_REWARD` and ``info["illegal_action"]``.
    ``action_masks()`` is the legal-action mask of the last observation. The env pickles
    and deep-copies at any point; the copy plays on identically.
    """

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "heuristic",
        seat: int = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
        observation: str = "dict",
    ) -> None:
        self.seat = check_options(opponent, seat, render_mode, observation)
        self.opponent = opponent
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.observation = observation
        self.observation_space = observation_space(observation)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._native: OpponentVecEnv | None = None
        self._ended = True  # the native deal is over: the next reset moves on

    def _native_env(self) -> OpponentVecEnv:
        if self._native is None:
            raise EcarteError("call reset() first")
        return self._native

    def _observe(self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> Obs:
        return observe(obs[0], mask[0], self.observation)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=None if seed is None else check_seed(seed))
        if self._native is None or seed is not None:
            run_seed = seed if seed is not None else _seed_from(self.np_random)
            if self._native is None:
                self._native = OpponentVecEnv(1, 0, self.opponent, self.seat, self.rules)
            obs, mask = self._native.reset([run_seed])
        elif not self._ended:
            obs, mask = self._native.next_match()
        else:
            obs, mask, _, _ = self._native.step([0])  # the next deal of the run
        self._ended = False
        if self.render_mode == "human":
            self.render()
        return self._observe(obs, mask), {}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        native = self._native_env()
        if self._ended:
            raise EcarteError("the deal is over: call reset()")
        obs, mask, rewards, terminated = native.step([action], illegal_reward=ILLEGAL_ACTION_REWARD)
        self._ended = bool(terminated[0])
        info = ended_deals(native, self.observation)[0][2] if self._ended else {}
        if self.render_mode == "human":
            self.render()
        return self._observe(obs, mask), float(rewards[0]), self._ended, False, info

    def __repr__(self) -> str:
        return (
            f"<DuelEnv seat={self.seat} opponent={self.opponent} "
            f"observation={self.observation} {self.rules!r}>"
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action mask of the last observation (68 bools; after a deal's end,
        only action 0, which the env ignores)."""
        mask: npt.NDArray[np.bool_] = self._native_env().masks()[0]
        return mask

    def render(self) -> Any:
        if self.render_mode is None or self._native is None:
            return None
        picture = render_env(self._native, 0, self.render_mode)
        if self.render_mode == "human":
            print(picture)
            return None
        return picture


class DuelVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` duel deals against ``opponent``, stepped together inside Rust
    (``ecarte.duel.OpponentVecEnv``): one ``step`` applies the learner's action in every
    env and the opponent's replies, up to the learner's next decision.

    ``autoreset_mode`` is Gymnasium's ``NEXT_STEP`` (the default: the step after an env's
    ``terminated`` ignores its action and returns the first observation of its next deal)
    or ``SAME_STEP`` (the step that ends a deal returns the next deal's first observation,
    and ``info["final_obs"]`` and ``info["final_info"]`` hold the final ones), as
    Gymnasium 1.x specifies. Actions must be legal (an illegal one raises
    ``IllegalActionError`` and changes nothing); an env awaiting its reset takes any
    action. ``reset(seed=s)`` gives env ``i`` the seed ``derive_seed(s, i)``;
    ``reset(seed=[s0, s1, ...])`` gives env ``i`` the seed ``s_i`` (``None``: a fresh one).
    ``action_masks()`` is the ``(num_envs, 68)`` legal-action mask."""

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
        observation: str = "dict",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        self.seat = check_options(opponent, seat, render_mode, observation)
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            mode = None
        if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
            raise EcarteError(
                "autoreset_mode must be AutoresetMode.NEXT_STEP or SAME_STEP, "
                f"got {autoreset_mode!r}"
            )
        self.autoreset_mode = mode
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.num_envs = num_envs
        self.opponent = opponent
        self.rules = rules or Rules()
        self.render_mode = render_mode
        self.observation = observation
        self.single_observation_space = observation_space(observation)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # Unseeded, a fresh seed, kept in np_random_seed as Gymnasium's own envs keep it.
        self._np_random, self._np_random_seed = seeding.np_random()
        autoreset: Literal["next_step", "same_step"] = (
            "same_step" if mode == AutoresetMode.SAME_STEP else "next_step"
        )
        self._native = OpponentVecEnv(
            num_envs, _seed_from(self.np_random), opponent, seat, rules, autoreset
        )
        self._fresh = True  # nothing played since the native env was built

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise InvalidSeedError(
                    f"reset takes {self.num_envs} seeds, one per env, got {seed!r}"
                )
            seeds = [s if s is not None else _seed_from(self.np_random) for s in seed]
            obs, mask = self._native.reset(seeds)
        elif seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(check_seed(seed))
            obs, mask = self._native.reset(seed)
        elif self._fresh:
            obs, mask = self._native.reset()
        else:
            obs, mask = self._native.next_match()
        self._fresh = False
        return observe(obs, mask, self.observation), {}

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        Obs, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        obs, mask, rewards, terminated = self._native.step(actions)
        self._fresh = False
        infos: dict[str, Any] = {}
        if terminated.any():
            for i, final, info in ended_deals(self._native, self.observation):
                if self.autoreset_mode == AutoresetMode.SAME_STEP:
                    info = {"final_obs": final, "final_info": info}
                infos = self._add_info(infos, info, i)
        return (
            observe(obs, mask, self.observation),
            rewards.astype(np.float64),
            terminated,
            np.zeros(self.num_envs, dtype=np.bool_),
            infos,
        )

    def __repr__(self) -> str:
        return (
            f"<DuelVectorEnv num_envs={self.num_envs} seat={self.seat} "
            f"opponent={self.opponent} observation={self.observation} {self.rules!r}>"
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks of the last observations, ``(num_envs, 68)`` bools (an
        env awaiting its reset: only action 0, which it ignores)."""
        return self._native.masks()

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        mode = self.render_mode
        pictures = tuple(render_env(self._native, i, mode) for i in range(self.num_envs))
        if mode == "human":
            print("\n".join(pictures))
            return None
        return pictures


def _register() -> None:
    if ENV_ID not in gymnasium.envs.registration.registry:
        gymnasium.register(
            id=ENV_ID,
            entry_point="ecarte.gymnasium:DuelEnv",
            vector_entry_point="ecarte.gymnasium:DuelVectorEnv",
            disable_env_checker=False,
        )


_register()
