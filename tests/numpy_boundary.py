"""Every array the API hands out or takes, changed by the caller in each way a caller can.

Run as a script (``python tests/numpy_boundary.py``) by ``test_numpy_boundary.py``, so that
an abort fails that test instead of killing pytest. Each case prints one line as it ends,
``<case>\\tok\\t<outcome>`` or ``<case>\\tFAIL\\t<reason>``, and a case either raises a
typed error and changes nothing (no env advances; a retry after the caller undoes the
change works), or is harmless: the engine never writes into the changed array again.
Either way the next call gives what an untouched twin gives.
"""

from __future__ import annotations

import sys
import traceback
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
from ecarte import EcarteError
from ecarte._core.duel import decode_compact_rows
from ecarte.duel import OBSERVATION_SIZE, Deal, OpponentVecEnv, VecEnv, decode_observations

Arrays = list[Any]
Tamper = Callable[[np.ndarray[Any, Any]], None]

# A NumPy 2.4 deprecation: the tampering below sets strides in place on purpose.
warnings.filterwarnings("ignore", "Setting the strides", DeprecationWarning)


def _other_dtype(a: np.ndarray[Any, Any]) -> type:
    """A dtype of the same item size as ``a``'s, but not ``a``'s."""
    same_size = {1: (np.int8, np.uint8), 4: (np.int32, np.float32), 8: (np.float64, np.int64)}
    first, second = same_size[a.itemsize]
    return first if a.dtype != first else second


def _resize_then_reinterpret(a: np.ndarray[Any, Any]) -> None:
    # A smaller array, then its bytes as uint8.
    a.resize((1, *a.shape[1:]), refcheck=False)
    a.dtype = np.uint8  # type: ignore[assignment]


def _set_dtype(a: np.ndarray[Any, Any]) -> None:
    a.dtype = _other_dtype(a)  # type: ignore[assignment]


def _read_only(a: np.ndarray[Any, Any]) -> None:
    a.flags.writeable = False


def _zero_strides(a: np.ndarray[Any, Any]) -> None:
    # Every entry aliases the first: a non-contiguous view of the same memory, in place.
    a.strides = (0,) * a.ndim  # type: ignore[misc]


def _fortran_strides(a: np.ndarray[Any, Any]) -> None:
    # The same shape read column by column: Fortran order over the same memory, in place.
    a.strides = (a.itemsize, a.itemsize * a.shape[0])  # type: ignore[misc]


#: What a caller may do in place to an array it was handed.
TAMPERS: dict[str, Tamper] = {
    "resize larger": lambda a: a.resize(2 * a.size + 3, refcheck=False),
    "resize smaller": lambda a: a.resize(max(a.size // 2, 1), refcheck=False),
    "resize then uint8 dtype": _resize_then_reinterpret,
    "dtype": _set_dtype,
    "read-only": _read_only,
    "non-contiguous strides": _zero_strides,
    "Fortran order": _fortran_strides,
}


def _layout(a: np.ndarray[Any, Any]) -> tuple[Any, ...]:
    return (a.dtype, a.shape, a.strides, a.flags.writeable)


def _undo(a: np.ndarray[Any, Any], layout: tuple[Any, ...]) -> None:
    """Undoes any tampering above that NumPy allowed (none of them moves the memory)."""
    dtype, shape, strides, writeable = layout
    if a.dtype != dtype:
        a.dtype = dtype
    if a.strides != strides:
        a.strides = strides
    assert a.shape == shape
    a.flags.writeable = writeable


def _same(got: object, expected: object) -> bool:
    if isinstance(got, dict) and isinstance(expected, dict):
        return got.keys() == expected.keys() and all(_same(got[k], expected[k]) for k in got)
    if isinstance(got, tuple | list) and isinstance(expected, tuple | list):
        return len(got) == len(expected) and all(map(_same, got, expected))
    if isinstance(got, np.ndarray) and isinstance(expected, np.ndarray):
        return (
            got.dtype == expected.dtype
            and got.shape == expected.shape
            and np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(expected).tobytes()
        )
    return bool(got == expected)


def _arrays_in(value: object) -> Iterator[np.ndarray[Any, Any]]:
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _arrays_in(v)
    elif isinstance(value, tuple | list):
        for v in value:
            yield from _arrays_in(v)


@dataclass
class Source:
    """Something that hands out arrays: ``first`` makes it and returns them, ``again``
    makes its next call (with the same inputs for the twin), ``state`` snapshots it.
    ``reuses`` says whether ``again`` writes into the arrays ``first`` returned."""

    name: str
    make: Callable[[], Any]
    first: Callable[[Any], Arrays]
    again: Callable[[Any, Any], object]
    state: Callable[[Any], object]
    reuses: bool
    #: Undoes a change that NumPy allowed (by default in place, see `_undo`).
    undo: Callable[[Any, np.ndarray[Any, Any], tuple[Any, ...]], None] = field(
        default=lambda obj, a, layout: _undo(a, layout)
    )


def _first_legal_ids(env: Any, n: int) -> list[int]:
    return [env.deal(i).legal_action_ids()[0] for i in range(n)]


def _vecenv(layout: str) -> Source:
    n = 3
    return Source(
        name=f"VecEnv({layout})",
        make=lambda: VecEnv(n, seed=5, observation=layout),  # type: ignore[arg-type]
        first=lambda env: list(env.step(_first_legal_ids(env, n))),
        again=lambda env, twin: env.step(_first_legal_ids(twin, n)),
        state=lambda env: [env.deal(i).to_json() for i in range(n)],
        reuses=True,
    )


def _opponent_env() -> Source:
    n = 3

    def actions(twin: Any) -> list[int]:
        return [ids[0] if (ids := twin.deal(i).legal_action_ids()) else 0 for i in range(n)]

    return Source(
        name="OpponentVecEnv",
        make=lambda: OpponentVecEnv(n, seed=5, opponent="heuristic"),
        first=lambda env: list(env.step(actions(env))),
        again=lambda env, twin: env.step(actions(twin)),
        state=lambda env: [env.deal(i).to_json() for i in range(n)],
        reuses=False,
    )


def _observation_tensor() -> Source:
    return Source(
        name="Deal.observation_tensor",
        make=lambda: Deal(seed=5),
        first=lambda deal: [deal.observation_tensor(0)],
        again=lambda deal, twin: deal.observation_tensor(0),
        state=lambda deal: deal.to_json(),
        reuses=False,
    )


def _framework_source(
    name: str,
    make: Callable[[], Any],
    again: Callable[[Any, Any], object],
    state: Callable[[Any], object],
) -> Source:
    """A framework env whose ``again`` (its next step) returns a dict observation of new
    arrays."""

    def first(env: Any) -> Arrays:
        obs = again(env, env)
        assert isinstance(obs, dict)
        return list(obs.values())

    return Source(name, make, first, again, state, reuses=False)


def _gymnasium_env() -> Source:
    from ecarte.gymnasium import DuelEnv

    def make() -> Any:
        env = DuelEnv(opponent="heuristic")
        env.reset(seed=3)
        return env

    def again(env: Any, twin: Any) -> object:
        action = int(np.flatnonzero(twin.action_masks())[0])
        return env.step(action)[0]

    return _framework_source(
        "gymnasium DuelEnv", make, again, lambda env: env._native.deal(0).to_json()
    )


def _gymnasium_vector_env() -> Source:
    from ecarte.gymnasium import DuelVectorEnv

    n = 2

    def make() -> Any:
        env = DuelVectorEnv(num_envs=n, opponent="heuristic")
        env.reset(seed=3)
        return env

    def again(env: Any, twin: Any) -> object:
        actions = [
            ids[0] if (ids := twin._native.deal(i).legal_action_ids()) else 0 for i in range(n)
        ]
        return env.step(np.array(actions))[0]

    return _framework_source(
        "gymnasium DuelVectorEnv",
        make,
        again,
        lambda env: [env._native.deal(i).to_json() for i in range(n)],
    )


def _pettingzoo_env() -> Source:
    from ecarte.pettingzoo import raw_env

    def make() -> Any:
        env = raw_env()
        env.reset(seed=3)
        return env

    def again(env: Any, twin: Any) -> object:
        env.step(twin.deal.legal_action_ids()[0])
        return env.observe(env.agent_selection)

    return _framework_source("PettingZoo raw_env", make, again, lambda env: env.deal.to_json())


@dataclass
class _Observed:
    """An OpenSpiel state and an observer of it; `calls` counts the observations made."""

    state: Any
    observer: Any
    calls: int = 0


def _openspiel_observer(piece: str) -> Source:
    import pyspiel
    from ecarte.openspiel import GAME_NAME
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(GAME_NAME)
    kind = pyspiel.IIGObservationType(perfect_recall=True)

    def make() -> _Observed:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        state.apply_action(state.legal_actions()[0])
        return _Observed(state, make_observation(game, kind))

    def again(obj: _Observed, twin: _Observed) -> object:
        # Observing changes no state: each call observes the other player.
        obj.observer.set_from(obj.state, (obj.calls + 1) % 2)
        obj.calls += 1
        return obj.observer.tensor.copy()

    def first(obj: _Observed) -> Arrays:
        again(obj, obj)
        return [obj.observer.tensor if piece == "tensor" else obj.observer.dict[piece]]

    def new_observer(obj: _Observed, a: np.ndarray[Any, Any], layout: tuple[Any, ...]) -> None:
        # The observer's own arrays cannot all be put back (a resize moves the tensor).
        obj.observer = make_observation(game, kind)

    return Source(
        name=f"OpenSpiel observer.{piece}",
        make=make,
        first=first,
        again=again,
        state=lambda obj: obj.state.history(),
        reuses=True,
        undo=new_observer,
    )


def handed_out(source: Source, index: int, tamper: Tamper) -> str:
    """Tampers with array ``index`` of those ``source`` hands out, then calls it again."""
    obj, twin = source.make(), source.make()
    arrays, twin_arrays = source.first(obj), source.first(twin)
    assert _same(arrays, twin_arrays)
    a = arrays[index]
    layout, state = _layout(a), source.state(obj)
    try:
        tamper(a)
    except ValueError:
        assert _layout(a) == layout, "NumPy refused the change, yet the array changed"
        outcome = "refused by NumPy"
        got = source.again(obj, twin)
    else:
        try:
            got = source.again(obj, twin)
        except EcarteError:
            assert source.state(obj) == state, "refused, yet the object changed"
            assert source.reuses, "refused a change to an array it never writes again"
            source.undo(obj, a, layout)
            outcome = "EcarteError, then a retry worked"
            got = source.again(obj, twin)
        else:
            if source.reuses:
                raise AssertionError("accepted a changed array that it writes into")
            assert not any(np.shares_memory(a, g) for g in _arrays_in(got)), "wrote into it"
            outcome = "harmless: never written again"
    expected = source.again(twin, twin)
    assert _same(got, expected), "the next call differs from the untouched twin's"
    return outcome


# -- arrays the API takes ------------------------------------------------------------------


def _compact_rows() -> np.ndarray[Any, Any]:
    env = VecEnv(3, seed=5, observation="compact")
    return np.array(env.reset()[0])


def _taken_tampers(base: Callable[[], np.ndarray[Any, Any]]) -> dict[str, Callable[[], Any]]:
    """The arrays to pass in: ``base()`` changed in each way, and views of it."""

    def changed(tamper: Tamper) -> Callable[[], Any]:
        def make() -> Any:
            a = base()
            tamper(a)
            return a

        return make

    def fortran() -> Any:
        a = base()
        return np.asfortranarray(a if a.ndim > 1 else a[:, None])

    return {
        **{name: changed(t) for name, t in TAMPERS.items() if name in _TAKEN},
        "non-contiguous view": lambda: np.repeat(base(), 2, axis=0)[::2],
        "reversed view": lambda: base()[::-1],
        "Fortran order": fortran,
        "unaligned copy": lambda: _unaligned(base()),
    }


_TAKEN = ("resize larger", "resize smaller", "resize then uint8 dtype", "dtype", "read-only")


def _unaligned(a: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    raw = np.zeros(a.nbytes + 1, np.uint8)
    out = raw[1:].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def taken(call: Callable[[Any], object], expect: Callable[[Any], object], arg: Any) -> str:
    """Calls ``call(arg)``: a typed error that leaves ``arg`` as it was, or the result
    ``expect`` gives (from a clean copy of ``arg``)."""
    before = np.array(arg, copy=True) if isinstance(arg, np.ndarray) else arg
    try:
        got = call(arg)
    except EcarteError:
        if isinstance(arg, np.ndarray):
            assert _same(arg, before), "refused, yet the array changed"
        return "EcarteError"
    assert _same(got, expect(before)), "the result differs from a clean call's"
    return "accepted, the same result"


def _into_out(deal: Deal, out: Any) -> object:
    return np.array(deal.observation_tensor(1, out=out))


def _out_alias_of_a_vecenv_output() -> str:
    deal, env, twin = Deal(seed=5), VecEnv(3, seed=5), VecEnv(3, seed=5)
    obs = env.reset()[0]
    twin.reset()
    deal.observation_tensor(1, out=obs[0])  # the env's memory, rewritten by its next step
    ids = _first_legal_ids(twin, 3)
    assert _same(env.step(ids), twin.step(ids))
    return "harmless: the next step rewrites every entry"


def _out_cases() -> dict[str, Callable[[], str]]:
    deal = Deal(seed=5)
    expected = deal.observation_tensor(1)

    def zeros() -> np.ndarray[Any, Any]:
        return np.zeros(OBSERVATION_SIZE, np.float32)

    cases: dict[str, Callable[[], str]] = {
        f"observation_tensor(out=) {name}": partial(
            lambda make: taken(partial(_into_out, deal), lambda _: expected, make()), make
        )
        for name, make in _taken_tampers(zeros).items()
    }
    cases["observation_tensor(out=) alias of a VecEnv output"] = _out_alias_of_a_vecenv_output
    return cases


def _decode_alias(decode: Callable[[Any], Any]) -> str:
    rows = VecEnv(3, seed=5, observation="compact").reset()[0]
    assert _same(decode(rows), decode_observations(_compact_rows()))
    return "accepted, the same result"


def _decode_cases() -> dict[str, Callable[[], str]]:
    clean = _compact_rows()
    cases: dict[str, Callable[[], str]] = {}
    for label, decode in (
        ("decode_observations", decode_observations),
        ("decode_compact_rows", decode_compact_rows),
    ):
        for name, make in _taken_tampers(clean.copy).items():
            cases[f"{label} {name}"] = partial(
                lambda decode, make: taken(
                    decode, lambda a: decode_observations(np.ascontiguousarray(a)), make()
                ),
                decode,
                make,
            )
        cases[f"{label} alias of a VecEnv output"] = partial(_decode_alias, decode)
    return cases


#: The envs whose ``step`` takes an array of actions.
STEPPED: dict[str, Callable[[], Any]] = {
    "VecEnv.step": lambda: VecEnv(3, seed=5),
    "OpponentVecEnv.step": lambda: OpponentVecEnv(3, seed=5, opponent="heuristic"),
}


def _step_and_compare(env: Any, twin: Any, actions: Any, sent: list[int]) -> str:
    """``env.step(actions)``: a typed error and no env advanced, or what ``twin`` gives
    for ``sent`` (the ids as they were before the step)."""
    state = [env.deal(i).to_json() for i in range(3)]
    try:
        got = env.step(actions)
    except EcarteError:
        assert [env.deal(i).to_json() for i in range(3)] == state, "an env advanced"
        return "EcarteError"
    assert _same(got, twin.step(sent))
    return "accepted, the same result"


def _step_with(make_env: Callable[[], Any], make_actions: Callable[[], Any]) -> str:
    actions = make_actions()
    sent = np.array(actions).reshape(-1).tolist()
    return _step_and_compare(make_env(), make_env(), actions, sent)


def _step_with_its_own_output(make_env: Callable[[], Any]) -> str:
    """The env's last output as its next actions: its current players (a VecEnv's, which
    that step rewrites), or its rewards (an OpponentVecEnv's)."""
    env, twin = make_env(), make_env()
    ids = _first_legal_ids(twin, 3)
    outputs = env.step(ids)
    twin.step(ids)
    actions = outputs[4] if len(outputs) == 5 else outputs[2]
    return _step_and_compare(env, twin, actions, actions.tolist())


def _legal_ids(make_env: Callable[[], Any]) -> np.ndarray[Any, Any]:
    return np.array(_first_legal_ids(make_env(), 3), dtype=np.int64)


def _action_cases() -> dict[str, Callable[[], str]]:
    cases: dict[str, Callable[[], str]] = {}
    for label, make_env in STEPPED.items():
        for name, make in _taken_tampers(partial(_legal_ids, make_env)).items():
            cases[f"{label} actions {name}"] = partial(_step_with, make_env, make)
        cases[f"{label} actions alias of an output"] = partial(_step_with_its_own_output, make_env)
    return cases


def _sources() -> list[Source]:
    sources = [
        _vecenv("float32"),
        _vecenv("compact"),
        _opponent_env(),
        _observation_tensor(),
        _gymnasium_env(),
        _gymnasium_vector_env(),
        _pettingzoo_env(),
    ]
    sources += [_openspiel_observer(piece) for piece in ("tensor", "observation")]
    return sources


def cases() -> dict[str, Callable[[], str]]:
    """Every case by name."""
    out: dict[str, Callable[[], str]] = {}
    for source in _sources():
        arrays = source.first(source.make())
        for index, a in enumerate(arrays):
            for name, tamper in TAMPERS.items():
                if name == "Fortran order" and a.ndim < 2:
                    continue  # a 1-D array's Fortran order is its C order
                out[f"{source.name} output {index} {name}"] = lambda s=source, i=index, t=tamper: (
                    handed_out(s, i, t)
                )
    out |= _out_cases()
    out |= _decode_cases()
    out |= _action_cases()
    return out


def main() -> int:
    for name, case in cases().items():
        try:
            result = f"ok\t{case()}"
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # a PanicException too
            result = "FAIL\t" + traceback.format_exc().strip().replace("\n", " | ")
        print(f"{name}\t{result}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
