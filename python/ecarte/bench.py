"""Side-by-side speed comparisons: the engine against the pure-Python reference
(:mod:`ecarte.reference`) and, when installed, OpenSpiel, all measured in one run, and
the memory the engine's objects take.

:func:`run_benchmarks` returns one :class:`Row` per comparison; :func:`format_table` prints
them. A missing ``open_spiel`` gives rows marked "n/a" instead of errors. Absolute times
depend on the machine; quote the ratios, which are measured side by side.

The OpenSpiel comparison is a neutral loop: both engines are driven by the same
``rng.choice`` over their legal actions, and OpenSpiel's chance nodes (every deal outcome is
uniform) are sampled with ``rng.choice(state.chance_outcomes())[0]``, its fastest idiomatic
form, so no extra Python work is charged to it. ecarte and each OpenSpiel game are timed
alternately, and every game gets its own ratio.
"""

from __future__ import annotations

import functools
import gc
import itertools
import math
import operator
import os
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

import ecarte
from ecarte import reference as ref

__all__ = [
    "Inputs",
    "Row",
    "format_table",
    "interleaved_per_call",
    "interleaved_per_unit",
    "run_benchmarks",
    "time_per_call",
    "time_per_input",
]

NOT_INSTALLED = "n/a (open_spiel not installed)"


@dataclass(frozen=True)
class Row:
    """One comparison. Times are seconds per ``unit``; ``ratio`` is how many times faster
    ecarte is than the baseline (above 1: ecarte is faster)."""

    group: str
    unit: str
    ecarte: float | None
    baseline_name: str
    baseline: float | None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.ecarte is None or self.baseline is None or self.ecarte <= 0:
            return None
        return self.baseline / self.ecarte


LOOP = 0.002
"""Seconds of the shortest timed loop: short enough that many loops fit between the
bursts in which a shared host runs slower (about a millisecond at a time on the machines
measured)."""

SETS = 16
"""How many fixed sets of inputs a replayed workload's loops go round (see :class:`Inputs`):
the inputs measured are a fixed sample of ``SETS`` loops' worth, the same in every run."""

Restart = Callable[[int], None]
"""Rewinds a workload's inputs to the start of set ``k`` (``0 <= k < SETS``)."""


class Inputs:
    """The random inputs of timed workloads, replayed: :meth:`restart` rewinds ``rng`` and
    ``seeds`` to the start of one of :data:`SETS` fixed sets. Every loop timed on set ``k``
    then does the same work, so the best of them owes its speed to a quiet host and not to
    cheap inputs; the figure is the mean over the sets (a sample of ``SETS`` loops' worth
    of inputs). Different ``seed`` values give different sets."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.seeds: Iterator[int] = itertools.count()

    def restart(self, k: int) -> None:
        self.rng.seed(self.seed * SETS + k)
        self.seeds = itertools.count((self.seed * SETS + k) << 32)


def time_per_call(
    fn: Callable[[], object],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> float:
    """Seconds per call of ``fn``: the best of many short loops, about ``min_time`` seconds
    of them in all (see :func:`interleaved_per_call`)."""
    return _interleaved([fn], min_time, loop, False, 1, restart)[0]


def time_per_input(
    fn: Callable[[Any], object], inputs: Sequence[Any], min_time: float, loop: float = LOOP
) -> float:
    """Seconds per call of ``fn`` on one of ``inputs``: :func:`time_per_call` going round
    them, every loop a whole number of passes, so that every loop does the same work."""
    items = cycle(list(inputs))
    return _interleaved([lambda: fn(next(items))], min_time, loop, False, len(inputs), None)[0]


def interleaved_per_call(
    fns: Sequence[Callable[[], object]],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> list[float]:
    """Seconds per call of each of ``fns``: the best of its loops, each loop at least
    ``loop`` seconds long. Every function gets the same number of loops, about ``min_time``
    seconds of the slowest loop's (three at least, per set of inputs), taken in turn, so
    that the two sides of a ratio see the same load. Many short loops rather than a few
    long ones: the best of them is one that no disturbance of the host reached, so the
    figure is the code's own speed rather than the host's mood. Functions with random
    inputs need ``restart`` (:meth:`Inputs.restart`): it is called before every loop,
    which replays one of :data:`SETS` sets of inputs, and the figure is the mean of each
    set's best loop."""
    return _interleaved(fns, min_time, loop, False, 1, restart)


def interleaved_per_unit(
    fns: Sequence[Callable[[], int]],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> list[float]:
    """:func:`interleaved_per_call` for functions that return the units of work they did
    (a playout: its actions): seconds per unit, each set's best loop's time over that
    loop's units."""
    return _interleaved(fns, min_time, loop, True, 1, restart)


def _interleaved(
    fns: Sequence[Callable[[], object]],
    min_time: float,
    loop: float,
    counted: bool,
    calls: int,
    restart: Restart | None,
) -> list[float]:
    sets = SETS if restart is not None else 1

    def timed(fn: Callable[[], object], number: int, k: int) -> tuple[float, int]:
        if restart is not None:
            restart(k)
        return _loop(fn, number, counted)

    numbers = [_calibrate(functools.partial(timed, fn), loop, calls) for fn in fns]
    longest = max(elapsed for _, elapsed in numbers)
    rounds = sets * max(3, math.ceil(min_time / longest / sets))
    # Per function and set: the seconds and units of the set's best loop.
    best = [[(float("inf"), 1)] * sets for _ in fns]
    for r in range(rounds):
        k = r % sets
        for j, (fn, (number, _)) in enumerate(zip(fns, numbers, strict=True)):
            elapsed, units = timed(fn, number, k)
            if elapsed / units < best[j][k][0] / best[j][k][1]:
                best[j][k] = (elapsed, units)
    return [sum(e for e, _ in b) / sum(u for _, u in b) for b in best]


def _calibrate(
    timed: Callable[[int, int], tuple[float, int]], seconds: float, calls: int
) -> tuple[int, float]:
    """A loop count, a multiple of ``calls``, that takes at least ``seconds`` (on set 0)
    twice running, with the seconds the second loop took. Twice: a first call can be far
    slower than the rest (lazy set-up, cold caches), and a loop of one slow call would
    pass for a long one."""
    number = calls
    while True:
        elapsed, _ = timed(number, 0)
        if elapsed >= seconds:
            elapsed, _ = timed(number, 0)
            if elapsed >= seconds:
                return number, elapsed
        number *= 4 if elapsed < seconds / 10 else 2


def _loop(fn: Callable[[], object], number: int, counted: bool) -> tuple[float, int]:
    """Calls ``fn`` ``number`` times: the seconds in all and the units of work done (calls,
    or if ``counted`` the sum of what ``fn`` returned). The garbage collector is off while
    the loop runs, as in :mod:`timeit`: its passes over every live object cost whichever
    side they fall in, more the more objects the process holds."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        if counted:
            units = 0
            for _ in range(number):
                units += cast(int, fn())
        else:
            for _ in range(number):
                fn()
            units = number
        elapsed = time.perf_counter() - start
    finally:
        if collecting:
            gc.enable()
    if units <= 0:
        raise ValueError("a timed function did no work")
    return elapsed, units


# -- the workloads, shared with the pytest-benchmark suite in benches/ -------------------


def cycle(items: list[Any]) -> Iterator[Any]:
    while True:
        yield from items


def native_playout(deal: Any, rng: random.Random) -> int:
    """One deal to the end by random legal actions through the Python step API."""
    steps = 0
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_actions()))
        steps += 1
    return steps


def native_playout_ids(deal: Any, rng: random.Random) -> int:
    """:func:`native_playout` with action ids (``legal_action_ids``), as OpenSpiel's loop."""
    steps = 0
    while not deal.is_over():
        deal.apply(rng.choice(deal.legal_action_ids()))
        steps += 1
    return steps


def reference_playout(deal: ref.RefDeal, rng: random.Random) -> int:
    steps = 0
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
        steps += 1
    return steps


def mid_game_states(count: int, seed: int = 1) -> tuple[list[Any], list[ref.RefDeal]]:
    """The same ``count`` unfinished states on the engine and the reference, reached by
    random play from seeded deals (every phase occurs)."""
    rng = random.Random(seed)
    natives: list[Any] = []
    models: list[ref.RefDeal] = []
    while len(natives) < count:
        deal = ecarte.duel.Deal(seed=rng.getrandbits(32), dealer=rng.randint(0, 1))
        model = ref.RefDeal([ref.card_index(str(c)) for c in deal.deck], deal.dealer)
        for _ in range(rng.randint(0, 40)):
            if deal.is_over():
                break
            action = rng.choice(deal.legal_actions()).id
            deal.apply(action)
            model.apply(action)
        if not deal.is_over():
            natives.append(deal)
            models.append(model)
    return natives, models


def resolution_inputs(count: int, seed: int = 2) -> list[tuple[list[str], list[str], str]]:
    """Random tableau pairs from the shoe, half of them trump-heavy."""
    rng = random.Random(seed)
    shoe = ref.shoe()
    out = []
    for _ in range(count):
        trump = rng.choice("CDHS")
        pool = shoe if rng.random() < 0.5 else [c for c in shoe if c[1] == trump] * 2 + shoe
        drawn = rng.sample(pool, 8)
        out.append((drawn[:4], drawn[4:], trump))
    return out


def openspiel_playout(game: Any, rng: random.Random) -> int:
    """A random playout of an OpenSpiel game through the same Python loop; returns the
    number of actions applied, chance outcomes included. Chance outcomes are uniform in the
    games compared, so one ``rng.choice`` over them samples them exactly."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def openspiel_mid_state(game: Any, rng: random.Random, moves: int) -> Any:
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- the table ---------------------------------------------------------------------------


def run_benchmarks(full: bool = False, min_time: float | None = None) -> list[Row]:
    """Measures every comparison once; ``full`` runs each longer (steadier figures).
    ``min_time`` (seconds of timed loops per measurement) overrides the choice of ``full``."""
    if min_time is None:
        min_time = 0.5 if full else 0.05
    rows: list[Row] = []
    rows += _duel_rows(min_time, full)
    rows += _bank_rows(min_time)
    rows += _openspiel_rows(min_time)
    rows += memory_rows(1_000_000 if full else 100_000)
    return rows


def _duel_rows(min_time: float, full: bool) -> list[Row]:
    rows = []
    # Shuffle the 32-card pack.
    pack = ecarte.duel_pack()
    seeds = iter(range(1 << 62))
    rpack, rrng = ref.duel_pack(), random.Random(0)
    rows.append(
        Row(
            "shuffle 32 cards",
            "shuffle",
            time_per_call(lambda: ecarte.shuffled(pack, next(seeds)), min_time),
            "reference",
            time_per_call(lambda: ref.shuffle(rpack, rrng), min_time),
        )
    )
    # A new deal: shuffle and lay out.
    rows.append(
        Row(
            "new deal (shuffle + deal)",
            "deal",
            time_per_call(lambda: ecarte.duel.Deal(seed=next(seeds)), min_time),
            "reference",
            time_per_call(lambda: ref.RefDeal(ref.shuffle(rpack, rrng)), min_time),
        )
    )
    # Legal actions on mid-game states.
    natives, models = mid_game_states(200)
    # The reference has one form; it is timed once and set beside both native forms.
    ref_legal = time_per_input(operator.methodcaller("legal_actions"), models, min_time)
    for label, method in (
        ("list", "legal_actions"),
        ("ids", "legal_action_ids"),
        ("mask", "legal_action_mask"),
    ):
        rows.append(
            Row(
                f"legal actions ({label})",
                "call",
                time_per_input(operator.methodcaller(method), natives, min_time),
                "reference",
                ref_legal,
            )
        )
    # One random deal through the Python step API, and in a native batch (`simulate`),
    # each timed in turn with the reference's deal.
    inputs = Inputs(3)
    rng = inputs.rng
    batch = 20_000 if full else 2_000
    ref_deal_time, api_deal_time, batch_time = interleaved_per_call(
        [
            lambda: reference_playout(ref.RefDeal(ref.shuffle(rpack, rng)), rng),
            lambda: native_playout(ecarte.duel.Deal(seed=next(inputs.seeds)), rng),
            lambda: ecarte.duel.simulate(
                batch, seed=next(inputs.seeds), agents=("random", "random")
            ),
        ],
        3 * min_time,
        restart=inputs.restart,
    )
    rows.append(
        Row("random deal, Python step API", "deal", api_deal_time, "reference", ref_deal_time)
    )
    rows.append(
        Row(
            "random deal, native batch simulate",
            "deal",
            batch_time / batch,
            "reference",
            ref_deal_time,
        )
    )
    # Vectorised environment: steps of single games per second.
    rows.extend(_vecenv_row(min_time, rpack))
    # Double-dummy solve from the start of play.
    srng = random.Random(5)
    rules = ecarte.duel.Rules(max_exchanges=0)
    deals = [ecarte.duel.Deal(seed=srng.getrandbits(32), rules=rules) for _ in range(20)]
    solve_time = time_per_input(ecarte.duel.solve, deals, min_time)
    rows.append(Row("double-dummy solve", "solve", solve_time, "-", None))
    return rows


#: Issue 14's budget for one ``VecEnv`` env-step, in seconds.
VECENV_TARGET = 80e-9


def _vecenv_row(min_time: float, rpack: list[int]) -> list[Row]:
    """VecEnv steps, in each observation layout, against one step of a learning loop
    through the Python step API (observation tensor into a buffer, legal actions, a random
    choice, apply), against the reference's step and against the 80 ns target (a speed-up
    of at least 1.0 meets it). 4096 envs, stepped with ``env.random_actions()``."""
    inputs = Inputs(4)
    rng = inputs.rng
    # The deal in play; a restart starts a new one from the restarted inputs.
    deal: list[ref.RefDeal | None] = [None]
    native: list[Any] = [None]

    def restart(k: int) -> None:
        inputs.restart(k)
        deal[0] = native[0] = None

    def reference_step() -> None:
        d = deal[0]
        if d is None or d.phase == "over":
            d = deal[0] = ref.RefDeal(ref.shuffle(rpack, rng))
        d.apply(rng.choice(d.legal_actions()))

    buffer = np.zeros(ecarte.duel.OBSERVATION_SIZE, dtype=np.float32)

    def python_api_step() -> None:
        d = native[0]
        if d is None or d.is_over():
            d = native[0] = ecarte.duel.Deal(seed=next(inputs.seeds))
        player = d.current_player
        assert player is not None
        d.observation_tensor(player, out=buffer)
        d.apply(rng.choice(d.legal_actions()))

    api = ("Python step API", time_per_call(python_api_step, min_time, restart=restart))
    reference = ("reference step", time_per_call(reference_step, min_time, restart=restart))
    target = ("target (issue 14)", VECENV_TARGET)
    rows = []
    for layout in ("float32", "compact"):
        n = 4096
        env = ecarte.duel.VecEnv(n, seed=1, observation=layout)
        env.reset()
        vec_time = time_per_call(functools.partial(_random_step, env), min_time) / n
        rows += [
            Row(f"VecEnv step ({layout}) vs Python step API", "step", vec_time, *api),
            Row(f"VecEnv step ({layout}) vs reference step", "step", vec_time, *reference),
            Row(f"VecEnv step ({layout}) vs the 80 ns target", "step", vec_time, *target),
        ]
    return rows


def _random_step(env: Any) -> object:
    return env.step(env.random_actions())


def _bank_rows(min_time: float) -> list[Row]:
    rows = []
    inputs = resolution_inputs(500)
    ref_time = time_per_input(lambda tableaux: ref.resolve(*tableaux), inputs, min_time)
    resolve_time = time_per_input(lambda tableaux: ecarte.bank.resolve(*tableaux), inputs, min_time)
    rows.append(Row("tableau resolution", "call", resolve_time, "reference", ref_time))
    odds_time = time_per_input(ecarte.bank.odds, ["C", "D", "H", "S"], min_time)
    rows.append(Row("bank exact odds (full shoe)", "call", odds_time, "-", None))
    return rows


PLAYOUT_GAMES = ("euchre", "hearts", "skat")
# (game, tensor kind): euchre and hearts only have an information-state tensor; bridge and
# skat (3 players, the 32-card pack) have an observation tensor like ecarte's.
TENSOR_GAMES = (
    ("euchre", "information_state"),
    ("hearts", "information_state"),
    ("bridge", "observation"),
    ("skat", "observation"),
)


def openspiel_tensor_fns(
    pyspiel: Any, name: str, kind: str, seed: int = 3
) -> tuple[Callable[[], object], Callable[[], object]]:
    """For a mid-game state of OpenSpiel game ``name``: the list form
    (``state.observation_tensor(p)`` or ``information_state_tensor(p)``) and the buffer form
    (``make_observation(...)``, ``set_from``, then the NumPy ``tensor``)."""
    from open_spiel.python.observation import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
        make_observation,
    )

    game = pyspiel.load_game(name)
    state = openspiel_mid_state(game, random.Random(seed), 30)
    player = max(state.current_player(), 0)
    list_form = functools.partial(getattr(state, f"{kind}_tensor"), player)
    observer = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=kind == "information_state")
    )

    def buffer_form() -> object:
        observer.set_from(state, player)
        return observer.tensor

    return list_form, buffer_form


def _openspiel_rows(min_time: float) -> list[Row]:
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return [
            Row(f"random playout vs {g}", "action", None, f"open_spiel {g}", None, NOT_INSTALLED)
            for g in PLAYOUT_GAMES
        ] + [Row("observation tensor", "call", None, "open_spiel", None, NOT_INSTALLED)]
    rows = []
    inputs = Inputs(6)
    rng = inputs.rng

    def ecarte_playout() -> int:
        return native_playout(ecarte.duel.Deal(seed=next(inputs.seeds)), rng)

    def ecarte_playout_ids() -> int:
        return native_playout_ids(ecarte.duel.Deal(seed=next(inputs.seeds)), rng)

    for name in PLAYOUT_GAMES:
        game = pyspiel.load_game(name)
        peer = functools.partial(openspiel_playout, game, rng)
        ours, ids, theirs = interleaved_per_unit(
            [ecarte_playout, ecarte_playout_ids, peer], 3 * min_time, restart=inputs.restart
        )
        rows.append(Row(f"random playout vs {name}", "action", ours, f"open_spiel {name}", theirs))
        rows.append(
            Row(f"random playout (ids) vs {name}", "action", ids, f"open_spiel {name}", theirs)
        )
    ecarte_obs = time_per_input(
        lambda state: state.observation_tensor(0), mid_game_states(50)[0], min_time
    )
    for name, kind in TENSOR_GAMES:
        list_form, buffer_form = openspiel_tensor_fns(pyspiel, name, kind)
        label = "info-state" if kind == "information_state" else "observation"
        for form, fn in (("list", list_form), ("observer", buffer_form)):
            rows.append(
                Row(
                    f"obs tensor vs {name} {label} ({form})",
                    "call",
                    ecarte_obs,
                    f"open_spiel {name}",
                    time_per_call(fn, min_time),
                )
            )
    return rows


# -- memory ------------------------------------------------------------------------------


def _rss_bytes() -> int | None:
    """The resident set size of this process, from ``/proc`` (None elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def deal_bytes(count: int = 10_000) -> tuple[int, float]:
    """``sys.getsizeof`` of a ``Deal``, and the bytes each of ``count`` live deals takes as
    traced by ``tracemalloc`` (the object and its allocation overhead)."""
    size = sys.getsizeof(ecarte.duel.Deal(seed=0))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        deals = [ecarte.duel.Deal(seed=i) for i in range(count)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    list_bytes = sys.getsizeof(deals)
    return size, (after - before - list_bytes) / count


def vecenv_bytes(n: int, observation: str = "float32") -> float | None:
    """Resident bytes per env of a ``VecEnv`` of ``n`` envs with the ``observation``
    layout, after ``reset`` and one ``step``: its deals and its output buffers
    (observations, masks, rewards and the rest). Measured in a fresh Python process, so
    that memory freed earlier does not hide the growth; ``None`` where the resident size
    cannot be read."""
    script = (
        "import ecarte.bench as b, ecarte, gc\n"
        "gc.collect()\n"
        "before = b._rss_bytes()\n"
        f"env = ecarte.duel.VecEnv({int(n)}, seed=1, observation={observation!r})\n"
        "env.reset()\n"
        "env.step(env.random_actions())\n"
        "after = b._rss_bytes()\n"
        "print(-1 if before is None or after is None else after - before)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    growth = int(done.stdout.split()[-1])
    return None if growth < 0 else growth / n


#: Bytes of the solver's table, one per solving thread: 2**14 entries of 16 bytes
#: (``rust/src/solver/table.rs``, ``TT_BITS``; the size is pinned by a test). The endgame
#: tables are shared by all threads.
SOLVER_TABLE_BYTES = (1 << 14) * 16


def memory_rows(envs: int) -> list[Row]:
    """Bytes per ``Deal``, per ``VecEnv`` env in each observation layout (measured on
    ``envs`` envs, each in a fresh process) and per solver table. Rows with unit
    ``bytes``; the baseline column holds the 1 GiB budget for a ``VecEnv`` of a million
    envs."""
    size, traced = deal_bytes()
    rows = [
        Row("memory: Deal (sys.getsizeof)", "bytes", float(size), "-", None),
        Row("memory: Deal (traced, live)", "bytes", traced, "-", None),
    ]
    for layout in ("float32", "compact"):
        per_env = vecenv_bytes(envs, layout)
        million = None if per_env is None else per_env * 1_000_000
        rows += [
            Row(f"memory: VecEnv ({layout}) per env (n={envs:,})", "bytes", per_env, "-", None),
            Row(
                f"memory: VecEnv ({layout}) of 1,000,000 envs",
                "bytes",
                million,
                "1 GiB",
                float(1 << 30),
            ),
        ]
    rows.append(
        Row("memory: solver table per thread", "bytes", float(SOLVER_TABLE_BYTES), "-", None)
    )
    return rows


# -- printing ----------------------------------------------------------------------------


def _fmt_bytes(n: float | None) -> str:
    if n is None:
        return "-"
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n:.0f} B"


def _fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_table(rows: list[Row]) -> str:
    """A plain-text table: ecarte, the baseline, and how many times faster ecarte is."""
    header = ("benchmark", "per", "ecarte", "baseline", "baseline time", "ecarte speed-up")
    lines = [header]
    for r in rows:
        fmt = _fmt_bytes if r.unit == "bytes" else _fmt_time
        if r.unit == "bytes":
            if r.ecarte is not None and r.baseline is not None:
                ratio = f"{r.ecarte / r.baseline:.0%} of the budget"
            else:
                ratio = "-"
        elif r.ratio is not None:
            ratio = f"{r.ratio:.1f}x"
        elif r.note:
            ratio = r.note
        else:
            ratio = "-"
        lines.append((r.group, r.unit, fmt(r.ecarte), r.baseline_name, fmt(r.baseline), ratio))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for i, line in enumerate(lines):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
