"""Issue 26: memory safety at the NumPy boundary. Whatever a caller does to an array the API
handed out or takes, the engine writes only in bounds, raises a typed error or does no harm,
and no ``PanicException`` reaches Python. The dangerous cases run in a child process, so
that an abort fails a test instead of killing pytest."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from ecarte import EcarteError, IllegalActionError, InvalidActionError, duel

CASES = Path(__file__).with_name("numpy_boundary.py")


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_every_array_the_api_hands_out_or_takes() -> None:
    proc = subprocess.run(
        [sys.executable, str(CASES)], capture_output=True, text=True, timeout=600, check=False
    )
    lines = [line.split("\t") for line in proc.stdout.splitlines()]
    done = {line[0]: line[1:] for line in lines}
    last = lines[-1][0] if lines else "none"
    assert proc.returncode == 0, (
        f"the child died (code {proc.returncode}) after case {last!r}: {proc.stderr[-1500:]}"
    )
    failed = {name: result for name, result in done.items() if result[0] != "ok"}
    assert not failed, "\n".join(f"{name}: {result}" for name, result in failed.items())
    outcomes = {result[1] for result in done.values()}
    # Every kind of outcome is exercised, and every source and every change.
    assert {"refused by NumPy", "EcarteError, then a retry worked"} <= outcomes
    assert {"harmless: never written again", "EcarteError"} <= outcomes
    for source in (
        "VecEnv(float32)",
        "VecEnv(compact)",
        "OpponentVecEnv",
        "Deal.observation_tensor",
        "observation_tensor(out=)",
        "decode_observations",
        "decode_compact_rows",
        "VecEnv.step actions",
        "OpponentVecEnv.step actions",
        "gymnasium DuelEnv",
        "gymnasium DuelVectorEnv",
        "PettingZoo raw_env",
        "OpenSpiel observer.tensor",
    ):
        for change in ("resize larger", "resize smaller", "dtype", "read-only"):
            assert any(n.startswith(source) and n.endswith(change) for n in done), (source, change)
    assert any(name.endswith("non-contiguous view") for name in done)
    assert any(name.endswith("Fortran order") for name in done)
    assert any("alias" in name for name in done)


#: What a caller did to an array a ``VecEnv`` handed out.
TABLE = {
    "resize and change the dtype": "o.resize((1, 214), refcheck=False); o.dtype = np.uint8",
    "resize smaller": "o.resize((1, 214), refcheck=False)",
    "make the mask read-only": "m.flags.writeable = False",
    "make the rewards read-only": "r.flags.writeable = False",
    "change the dtype to int32": "o.dtype = np.int32",
}


@pytest.mark.parametrize("change", sorted(TABLE))
def test_the_issues_table_raises_typed_errors_and_changes_nothing(change: str) -> None:
    proc = run_child(
        f"""
        import numpy as np
        from ecarte import duel
        env, twin = duel.VecEnv(3, seed=1), duel.VecEnv(3, seed=1)
        o, m, r, *_ = env.step(env.random_actions())
        twin.step(twin.random_actions())
        layout = [(a.dtype, a.shape, a.flags.writeable) for a in (o, m, r)]
        before = [env.deal(i).to_json() for i in range(3)]
        try:
            {TABLE[change]}
        except ValueError as e:  # NumPy refuses: the array does not own its data
            print("refused:", e)
        actions = twin.random_actions()
        env.random_actions()
        try:
            env.step(actions)
        except ValueError as e:  # EcarteError
            print("error:", type(e).__name__, e)
            assert [env.deal(i).to_json() for i in range(3)] == before, "an env advanced"
            for a, (dtype, shape, writeable) in zip((o, m, r), layout):
                a.dtype = dtype
                a.flags.writeable = writeable
            env.step(actions)  # a retry after the repair works
        expected = twin.step(actions)
        assert all(env.deal(i).to_json() == twin.deal(i).to_json() for i in range(3))
        assert all(np.array_equal(a, b) for a, b in zip((o, m, r), expected))
        print("alive")
        """
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.strip().endswith("alive")
    assert "refused:" in proc.stdout or "error: EcarteError" in proc.stdout, proc.stdout
    assert "PanicException" not in proc.stdout + proc.stderr


def test_a_pending_signal_cannot_make_the_first_array_call_panic() -> None:
    # `ctypes`' `raise` leaves SIGINT pending without running Python's handler, and the
    # native call comes next with no bytecode in between: the NumPy API must already be
    # loaded (at import), or loading it runs Python code, meets the signal and panics.
    proc = run_child(
        """
        import ctypes, functools, operator, signal
        # Python's own handler, even if this process was started with SIGINT ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        import ecarte._core as core
        libc = ctypes.CDLL(None)
        raise_sigint = functools.partial(getattr(libc, "raise"), signal.SIGINT)
        try:
            list(map(operator.call, [raise_sigint, functools.partial(core.duel.VecEnv, 3, 1)]))
        except BaseException as e:
            print(type(e).__name__)
        core.duel.VecEnv(3, 1).step([64, 64, 64])
        print("alive")
        """
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    assert proc.stdout.split() == ["KeyboardInterrupt", "alive"], proc.stdout + proc.stderr


@pytest.mark.parametrize("wide", [2**64 - 1, 2**63, -(2**63) - 1, 10**30])
def test_an_action_id_is_reported_as_the_caller_wrote_it(wide: int) -> None:
    env = duel.VecEnv(2, seed=1)
    before = [env.deal(i).to_json() for i in range(2)]
    with pytest.raises(IllegalActionError, match=rf"illegal action id {wide} in env 1;"):
        env.step([64, wide])
    with pytest.raises(IllegalActionError, match=rf"illegal action id {wide} in env 1;"):
        env.step(np.array([64, wide], dtype=object))
    assert [env.deal(i).to_json() for i in range(2)] == before
    if 0 <= wide < 2**64:
        with pytest.raises(IllegalActionError, match=rf"illegal action id {wide} in env 1;"):
            env.step(np.array([64, wide], dtype=np.uint64))
    opponent = duel.OpponentVecEnv(2, seed=1, opponent="random")
    with pytest.raises(IllegalActionError, match=rf"illegal action id {wide} in env 0;"):
        opponent.step([wide, 0])
    with pytest.raises(InvalidActionError, match=rf"got {wide}"):
        duel.Action.from_id(wide)
    with pytest.raises(InvalidActionError, match=rf"got {wide}"):
        duel.Deal(seed=1).apply(wide)


def test_an_env_awaiting_its_reset_ignores_any_action_id() -> None:
    env = duel.OpponentVecEnv(1, seed=2, opponent="random")
    for _ in range(100):
        *_, terminated = env.step([env.deal(0).legal_action_ids()[0]])
        if terminated[0]:
            break
    assert terminated[0]
    env.step([2**64 - 1])  # the deal is over: the next step ignores its action


def test_vecenv_arrays_view_memory_the_env_owns() -> None:
    env = duel.VecEnv(2, seed=1)
    arrays = env.step(env.random_actions())
    for a, again in zip(arrays, env.step(env.random_actions()), strict=True):
        assert a is again and not a.flags.owndata and a.flags.writeable
        assert type(a.base.base).__name__ == "VecEnvMemory"
    with pytest.raises(EcarteError, match=r"masks array .* read-only"):
        arrays[1].flags.writeable = False
        env.step(env.random_actions())
    arrays[1].flags.writeable = True
    env.step(env.random_actions())
