"""Ctrl-C: every long native call and command stops within about a second, with
``KeyboardInterrupt`` (never a ``PanicException``) in Python and one line ``interrupted``,
status 130, on the command line. Each case runs in a subprocess that receives SIGINT while
the long call works; the call is the process's first native call that makes arrays."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

#: Seconds from SIGINT to exit. The goal is about one second; the slack is for a loaded
#: test machine (before this bound existed, the same runs took 7 to 35 seconds or more).
BOUND = 2.0
#: How long the call works before Ctrl-C.
DELAY = 1.0

PLAY_PHASE = "d = duel.Deal(seed=3); d.apply('decline'); obs = d.observation(d.current_player)\n"


def interrupt(argv: list[str], ready: bool, delay: float = DELAY) -> tuple[float, int, str, str]:
    """Runs ``argv``, waits for its ``ready`` line (if it prints one) and ``delay`` seconds,
    sends SIGINT and returns the seconds the process took to exit, its status, stdout and
    stderr."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    before = ""
    if ready:
        line = proc.stdout.readline()
        while line.startswith("one call "):  # a figure printed before the run
            before, line = before + line, proc.stdout.readline()
        assert line == "ready\n", (line, proc.stderr.read() if proc.stderr else "")
    time.sleep(delay)
    assert proc.poll() is None, "the call ended before Ctrl-C"
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return time.perf_counter() - sent, proc.returncode, before + out, err


API_CALLS = {
    "simulate deals, pimc": "duel.simulate(200_000, seed=1, agents=('pimc', 'heuristic'))",
    "simulate matches, expert": (
        "duel.simulate(2_000, seed=1, agents=('expert', 'heuristic'), matches=True)"
    ),
    "simulate, a billion random deals in pieces": (
        "[duel.simulate(10**7, seed=1, start=k * 10**7) for k in range(100)]"
    ),
    "self_play_decisions, master v grandmaster": (
        "duel.self_play_decisions(2_000, 1, [('master', 'grandmaster')])"
    ),
    "solve_many": "duel.solve_many([d] * 200_000)",
    "solve_many_timed": "duel.solve_many_timed([d] * 200_000)",
    # 10,000 worlds take under a second: each of these calls is made over and over, so
    # that Ctrl-C finds one at work.
    "pimc_values, over and over": "while True: duel.pimc_values(obs, 10_000, 1)",
    "expert_values, over and over": "while True: duel.expert_values(obs, 10_000, 1)",
    "a pimc:10000 agent, over and over": (
        "while True: duel.BuiltinAgent('pimc:10000', 1)(obs, d.legal_actions())"
    ),
    "an expert agent, decision after decision (each on the caller's thread)": (
        "a = duel.BuiltinAgent('expert', 1)\nwhile True: a(obs, d.legal_actions())"
    ),
    "BuiltinAgent.values, over and over": (
        "while True: duel.BuiltinAgent('expert:10000', 1).values(obs)"
    ),
    "Match.play, pimc agents, match after match": (
        "while True: duel.Match(seed=1).play(duel.BuiltinAgent('pimc', 1), "
        "duel.BuiltinAgent('pimc', 2))"
    ),
    "sample_worlds, over and over": "while True: duel.sample_worlds(obs, 10_000, 1)",
    "analyse, over and over": "while True: duel.analyse(d, worlds=10_000, seed=1)",
    "bank.simulate": "bank.simulate(10**9, seed=1)",
    "bank.odds, over and over": "while True: bank.odds(trump_card='7H', removed=['5H'])",
    "a big VecEnv, step after step": "while True: env.step(env.random_actions())",
    "an OpponentVecEnv step, pimc": (
        "env = duel.OpponentVecEnv(256, 1, 'pimc:50')\n"
        "env.step([int(m.nonzero()[0][0]) for m in env.reset()[1]])"
    ),
    "arena, Python agents": (
        "arena.play(lambda seed: duel.BuiltinAgent('pimc', seed), 'heuristic', matches=50)"
    ),
}


#: The calls made over and over because one takes under a second, each timed once before
#: the run: Ctrl-C must end the run in well under one call's time, so that a call that
#: could not be stopped, only raising once it returned, would fail the test.
ONE_CALL = {
    "pimc_values, over and over": "duel.pimc_values(obs, 10_000, 1)",
    "expert_values, over and over": "duel.expert_values(obs, 10_000, 1)",
    "a pimc:10000 agent, over and over": (
        "duel.BuiltinAgent('pimc:10000', 1)(obs, d.legal_actions())"
    ),
    "BuiltinAgent.values, over and over": "duel.BuiltinAgent('expert:10000', 1).values(obs)",
}

#: What a call needs made before it starts.
SETUP = {"a big VecEnv, step after step": "env = duel.VecEnv(2**18, seed=1)\n"}


@pytest.mark.parametrize("name", sorted(API_CALLS))
def test_ctrl_c_raises_keyboard_interrupt_at_once(name: str) -> None:
    # The call runs in a function: CPython 3.11 checks for signals at a loop's back edge,
    # which its exception table leaves outside the `try` around the loop, so a Ctrl-C
    # that lands there would escape an `except` in the same frame (6 runs of 75 did).
    code = (
        "from ecarte import arena, bank, duel\n"
        + PLAY_PHASE
        + SETUP.get(name, "")
        + (
            f"import time\nstart = time.perf_counter()\n{ONE_CALL[name]}\n"
            "print('one call', time.perf_counter() - start, flush=True)\n"
            if name in ONE_CALL
            else ""
        )
        + "def call():\n"
        + textwrap.indent(API_CALLS[name], "    ")
        + "\n"
        + "print('ready', flush=True)\n"
        + "try:\n"
        + "    call()\n"
        + "except KeyboardInterrupt as e:\n"
        + "    print('KeyboardInterrupt', type(e).__name__, flush=True)\n"
    )
    seconds, status, out, err = interrupt([sys.executable, "-c", code], ready=True)
    assert "KeyboardInterrupt" in out, (out, err)
    assert status == 0 and err == "", err
    assert seconds < BOUND, f"{name}: {seconds:.2f} s"
    if name in ONE_CALL:
        one = float(out.split()[2])
        assert seconds < one / 2, f"{name}: {seconds:.2f} s, one call {one:.2f} s"


def test_an_interrupted_arena_keeps_the_seeds_that_finished() -> None:
    code = (
        "from ecarte import arena\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    arena.play('heuristic', 'random', matches=10**6, seed=3)\n"
        "except arena.ArenaInterrupted as stop:\n"
        "    r = stop.partial\n"
        "    print(r.partial, r.pairs > 0, r.pairs < 10**6, isinstance(stop, KeyboardInterrupt))\n"
        "    print(r)\n"
    )
    seconds, status, out, err = interrupt([sys.executable, "-c", code], ready=True)
    assert status == 0 and err == "", err
    assert out.splitlines()[0] == "True True True True", out
    assert "partial: interrupted" in out
    assert seconds < BOUND


#: The command line, once it has loaded (a signal during the imports is the interpreter's).
CLI = [sys.executable, "-c", "from ecarte.cli import run; print('ready', flush=True); run()"]

CLI_RUNS = [
    ["arena", "pimc", "heuristic", "--matches", "200"],
    ["simulate", "--deals", "200000", "--agents", "pimc", "heuristic"],
    ["simulate", "--deals", "1000000000"],
    ["simulate", "--deals", "2000", "--matches", "--agents", "expert", "heuristic"],
    ["bank", "--simulate", "1000000000"],
    ["solve", "--seed", "1", "--positions", "200000"],
    ["match", "--seed", "1", "--agents", "pimc:1000", "pimc:1000"],
    ["bench"],
]


@pytest.mark.parametrize("args", CLI_RUNS, ids=" ".join)
def test_ctrl_c_ends_a_command_in_one_line(args: list[str]) -> None:
    seconds, status, _out, err = interrupt([*CLI, *args], ready=True)
    assert status == 130, (status, err)
    assert err == "interrupted\n"
    assert seconds < BOUND, f"{args}: {seconds:.2f} s"


def test_an_interrupted_arena_command_prints_its_partial_result() -> None:
    args = ["arena", "heuristic", "random", "--matches", "1000000"]
    # Long enough to finish the first chunk of seeds.
    seconds, status, out, err = interrupt([*CLI, *args], ready=True, delay=3.0)
    assert status == 130 and err == "interrupted\n"
    assert "partial: interrupted" in out and "match win rate of heuristic" in out
    assert out.strip().splitlines()[-1].endswith("of 1000000 seeds finished before Ctrl-C")
    assert seconds < BOUND
