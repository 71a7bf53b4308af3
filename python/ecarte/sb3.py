"""Stable-Baselines3 and sb3-contrib: a native ``VecEnv`` and trained models as agents.

The ``[sb3]`` extra installs both libraries (and PyTorch)::

    from sb3_contrib import MaskablePPO
    import ecarte.sb3

    env = ecarte.sb3.make_vec_env(64, opponent="heuristic", seed=1)
    model = MaskablePPO("MultiInputPolicy", env).learn(100_000)
    agent = ecarte.sb3.PolicyAgent(model)       # agent(observation, legal_actions)

:func:`make_vec_env` returns a ``stable_baselines3.common.vec_env.VecEnv`` that the engine
steps natively (``ecarte.duel.OpponentVecEnv``): one call steps every env and the opponent's
replies. It resets in the same step, with ``infos[i]["terminal_observation"]``, as sb3
expects, and serves sb3-contrib's masks (``env_method("action_masks")``) from the native
batch. :class:`PolicyAgent` turns a trained model into an ecarte agent for the arena,
``ecarte match --agents model.zip ...`` and ``ecarte play --opponent model.zip``.
See ``docs/learning.md``.
"""

from __future__ import annotations

import functools
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._core import Stream
from ecarte._frameworks import missing
from ecarte._public import api_dir
from ecarte.duel import NUM_ACTIONS, Action, Observation, OpponentVecEnv, Rules
from ecarte.errors import EcarteError
from ecarte.gymnasium import (
    ILLEGAL_ACTION_REWARD,
    check_options,
    ended_deals,
    observation_space,
    observe,
    render_env,
)
from ecarte.seeding import fresh_seed, resolve_seed

try:
    import torch
    from gymnasium import spaces
    from stable_baselines3.common.base_class import BaseAlgorithm
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn
except ImportError as exc:
    raise missing("stable-baselines3", "sb3") from exc

__all__ = [
    "ILLEGAL_ACTIONS",
    "DuelVecEnv",
    "PolicyAgent",
    "PolicyFactory",
    "load_model",
    "make_vec_env",
    "policy",
]
__dir__ = api_dir(globals())

#: What an illegal action does: ``"raise"`` (``IllegalActionError``, nothing changes: for
#: mask-aware learners, which never take one) or ``"lose"`` (the deal ends with
#: ``ecarte.gymnasium.ILLEGAL_ACTION_REWARD``, -2, and the env goes on with its next match:
#: for learners without masks, such as ``PPO``).
ILLEGAL_ACTIONS = ("raise", "lose")


class DuelVecEnv(VecEnv):
    """``n_envs`` duel deals against ``opponent`` (an agent spec: ``random``,
    ``heuristic``, ``pimc:N``, ...) as a ``stable_baselines3.common.vec_env.VecEnv`` that
    the engine steps natively, the learner in ``seat``. Env ``i`` plays a run of matches
    from the seed ``derive_seed(seed, i)`` (``seed=None``: a fresh seed, kept in
    ``env.run_seed``); ``env.seed(s)`` makes the next reset give env ``i`` the seed ``s + i``,
    as sb3 does.

    ``observation`` is ``"dict"`` (the tensor and the ``int8`` mask: ``MultiInputPolicy``)
    or ``"flat"`` (the tensor alone: ``MlpPolicy``); masks are always served through
    ``action_masks()`` and ``env_method("action_masks")``, never all zero. Each step that
    ends a deal deals the next one at once and puts the final observation in
    ``infos[i]["terminal_observation"]``, with ``"outcome"`` and the match ``"score"``.
    ``illegal_action`` is ``"raise"`` (for masked learners) or ``"lose"`` (for ``PPO``
    without masks: an illegal action loses the deal, -2). Works with ``VecNormalize``,
    ``VecMonitor``, ``MaskablePPO`` and ``PPO``."""

    def __init__(
        self,
        n_envs: int,
        opponent: str = "heuristic",
        seed: int | None = None,
        rules: Rules | None = None,
        observation: str = "dict",
        *,
        seat: int = 0,
        illegal_action: str = "raise",
        render_mode: str | None = None,
    ) -> None:
        seat = check_options(opponent, seat, render_mode, observation)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise EcarteError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.run_seed = resolve_seed(seed)
        self.observation = observation
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self._native = OpponentVecEnv(
            n_envs, self.run_seed, opponent, seat, rules, autoreset="same_step"
        )
        self._fresh = True  # nothing played since the env was built
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(n_envs, observation_space(observation), spaces.Discrete(NUM_ACTIONS))

    @property
    def native(self) -> OpponentVecEnv:
        """The engine's batch behind this env."""
        return self._native

    def reset(self) -> Any:
        """Starts every env on a match: with the seeds set by ``seed()`` if any, else the
        run's first match (the first reset) or its next one."""
        if any(s is not None for s in self._seeds):
            seeds = [s if s is not None else fresh_seed() for s in self._seeds]
            obs, mask = self._native.reset(seeds)
        elif self._fresh:
            obs, mask = self._native.reset()
        else:
            obs, mask = self._native.next_match()
        self._fresh = False
        self._reset_seeds()
        self._reset_options()
        return observe(obs, mask, self.observation)

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise EcarteError("step_wait() comes after step_async(actions)")
        forfeit = ILLEGAL_ACTION_REWARD if self.illegal_action == "lose" else None
        obs, mask, rewards, terminated = self._native.step(self._actions, illegal_reward=forfeit)
        self._actions, self._fresh = None, False
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if terminated.any():
            for i, final, info in ended_deals(self._native, self.observation):
                info["terminal_observation"] = final
                infos[i] = info
        return observe(obs, mask, self.observation), rewards, terminated, infos

    def __repr__(self) -> str:
        native = self._native
        return (
            f"<DuelVecEnv n_envs={self.num_envs} seat={native.seat} opponent={native.opponent} "
            f"observation={self.observation} run_seed={self.run_seed}>"
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal-action masks of the current observations, ``(n_envs, 68)`` bools."""
        return self._native.masks()

    def _mask_of(self, i: int) -> npt.NDArray[np.bool_]:
        mask: npt.NDArray[np.bool_] = self._native.masks()[i]
        return mask

    def close(self) -> None:
        pass

    def get_images(self) -> Sequence[npt.NDArray[np.uint8] | None]:
        if self.render_mode != "rgb_array":
            return [None] * self.num_envs
        return [render_env(self._native, i, "rgb_array") for i in range(self.num_envs)]

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The attribute of each env: ``action_masks`` is each env's mask method; any other
        attribute of this env (``render_mode``, ``observation``, ...) is the same for all."""
        envs = self._indices(indices)
        if attr_name == "action_masks":
            return [functools.partial(self._mask_of, i) for i in envs]
        if attr_name.startswith("_") or not hasattr(self, attr_name):
            raise AttributeError(f"the ecarte envs have no attribute {attr_name!r}")
        return [getattr(self, attr_name)] * len(envs)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the ecarte envs are native: {attr_name!r} cannot be set per env")

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Calls a method of each env. ``action_masks`` (as sb3-contrib's
        ``get_action_masks`` calls it) gives each env's mask, rows of one native batch;
        ``render`` each env's picture or text."""
        envs = self._indices(indices)
        if method_name == "action_masks":
            return list(self._native.masks()[envs])
        if method_name == "render" and self.render_mode is not None:
            return [render_env(self._native, i, self.render_mode) for i in envs]
        raise AttributeError(f"the ecarte envs have no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(self._indices(indices))


#: The sb3-style name of the env's constructor: ``make_vec_env(64, opponent="heuristic")``.
make_vec_env = DuelVecEnv


# -- trained models as agents --------------------------------------------------------------


def load_model(path: str | Path) -> BaseAlgorithm:
    """A model saved by sb3 (``model.save(path)``): a ``MaskablePPO`` if its policy is
    sb3-contrib's maskable one, else a ``PPO``."""
    path = Path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            data = archive.read("data").decode("utf-8", "replace")
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise EcarteError(f"{path} is not a model saved by stable-baselines3 ({exc})") from None
    if "maskable" in data:
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(path, device="cpu")
    from stable_baselines3 import PPO

    return PPO.load(path, device="cpu")


class PolicyAgent:
    """A trained sb3 model as an ecarte agent, ``agent(observation, legal_actions)``: the
    model reads the observation's tensor (``Observation.tensor()``, as the environments
    give it, in the model's observation form), and the agent plays the model's most
    probable legal action (``deterministic=True``) or samples the model's distribution
    over the legal actions, from its own stream (``seed``). Works with any model whose
    policy gives an action distribution (``MaskablePPO``, ``PPO``, ``A2C``)."""

    def __init__(
        self, model: BaseAlgorithm, deterministic: bool = True, seed: int | None = None
    ) -> None:
        if not hasattr(model.policy, "get_distribution"):
            raise EcarteError(
                f"{type(model).__name__}'s policy gives no action distribution: use an "
                "actor-critic model (MaskablePPO, PPO, A2C)"
            )
        self.model = model
        self.deterministic = deterministic
        self.seed = resolve_seed(seed)
        self._stream = Stream(self.seed)
        self._dict = isinstance(model.observation_space, spaces.Dict)

    @classmethod
    def load(
        cls, path: str | Path, deterministic: bool = True, seed: int | None = None
    ) -> PolicyAgent:
        """The agent of a saved model (see :func:`load_model`)."""
        return cls(load_model(path), deterministic, seed)

    def probabilities(
        self, observation: Observation, legal_actions: Iterable[Action]
    ) -> npt.NDArray[np.float64]:
        """The model's probability of each of the 68 actions, renormalised over the legal
        ones (0 elsewhere)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[[a.id for a in legal_actions]] = True
        if not mask.any():
            raise EcarteError("no legal action to choose from")
        tensor = observation.tensor()
        obs: Any = {"observation": tensor, "action_mask": mask.view(np.int8)}
        if not self._dict:
            obs = tensor
        policy: Any = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(obs)
        with torch.no_grad():
            logits = policy.get_distribution(obs_tensor).distribution.logits[0]
        logits = logits.cpu().numpy().astype(np.float64)
        logits[~mask] = -np.inf
        weights = np.exp(logits - logits.max())
        probabilities: npt.NDArray[np.float64] = weights / weights.sum()
        return probabilities

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        probabilities = self.probabilities(observation, legal_actions)
        if self.deterministic:
            return Action.from_id(int(np.argmax(probabilities)))
        # One draw from the agent's stream: the first action whose cumulative weight
        # passes a uniform point.
        point = self._stream.next_u64() / 2**64
        ids = np.flatnonzero(probabilities)
        cumulative = np.cumsum(probabilities[ids])
        k = min(
            int(np.searchsorted(cumulative, point * cumulative[-1], side="right")), len(ids) - 1
        )
        return Action.from_id(int(ids[k]))

    def __repr__(self) -> str:
        return f"PolicyAgent({type(self.model).__name__}, deterministic={self.deterministic})"


@functools.lru_cache(maxsize=8)
def _cached_model(path: str) -> BaseAlgorithm:
    return load_model(path)


class PolicyFactory:
    """The agent factory of a saved model (see :func:`policy`)."""

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        self.path = str(path)
        self.deterministic = deterministic
        self.__name__ = Path(path).stem

    def __call__(self, seed: int) -> PolicyAgent:
        return PolicyAgent(_cached_model(self.path), self.deterministic, seed)

    def __repr__(self) -> str:
        return f"policy({self.path!r})"


def policy(path: str | Path, deterministic: bool = True) -> PolicyFactory:
    """A picklable agent factory for the arena: ``arena.play(ecarte.sb3.policy("m.zip"),
    "heuristic", ...)``. Each process loads the model once; ``factory(seed)`` is a
    :class:`PolicyAgent` with that seed. The arena names the agent by the file's stem."""
    return PolicyFactory(path, deterministic)
