"""Side-by-side speed comparisons: the engine against the pure-Python reference
(:mod:`ecarte.bench.reference`) and, when installed, OpenSpiel, all measured in one run, and
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
import operator
import os
import random
import subprocess
import sys
import tracemalloc
from dataclasses import dataclass
from typing import Any

import numpy as np

import ecarte
from ecarte.bench import reference as ref
from ecarte.bench.timing import (
    Inputs,
    interleaved_per_call,
    interleaved_per_unit,
    time_per_call,
    time_per_input,
)
from ecarte.bench.workloads import (
    PLAYOUT_GAMES,
    TENSOR_GAMES,
    mid_game_states,
    native_playout,
    native_playout_ids,
    openspiel_playout,
    openspiel_tensor_fns,
    reference_playout,
    resolution_inputs,
)

__all__ = [
    "AREAS",
    "NOTES",
    "Row",
    "format_figure",
    "format_table",
    "json_lines",
    "memory_rows",
    "run_areas",
    "run_benchmarks",
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


# -- the table ---------------------------------------------------------------------------


#: The areas of the table, in its order: the duel's engine, the banking game, the duel
#: against OpenSpiel's games, and memory.
AREAS = ("duel", "bank", "openspiel", "memory")


def run_areas(full: bool = False, min_time: float | None = None) -> dict[str, list[Row]]:
    """Measures every comparison once, by area (:data:`AREAS`); ``full`` runs each longer
    (steadier figures). ``min_time`` (seconds of timed loops per measurement) overrides the
    choice of ``full``."""
    if min_time is None:
        min_time = 0.5 if full else 0.05
    return {
        "duel": _duel_rows(min_time, full),
        "bank": _bank_rows(min_time),
        "openspiel": _openspiel_rows(min_time),
        "memory": memory_rows(1_000_000 if full else 100_000),
    }


def run_benchmarks(full: bool = False, min_time: float | None = None) -> list[Row]:
    """Every comparison of :func:`run_areas`, in one list."""
    return [row for rows in run_areas(full, min_time).values() for row in rows]


def json_lines(areas: dict[str, list[Row]], meta: dict[str, Any]) -> list[str]:
    """``ecarte bench --json``: the run's metadata (``meta``, with ``bench`` set to
    ``"compare"``), then one object per row: its ``area``, ``benchmark``, ``unit``, the
    ``ecarte`` figure and the ``peer``'s (seconds per unit, or bytes), the ``ratio`` (the
    peer's figure over ecarte's: above 1, ecarte is faster or smaller) and a ``note``;
    a figure not measured is ``null``."""
    import json

    lines = [json.dumps({**meta, "bench": "compare"})]
    for area, rows in areas.items():
        for r in rows:
            lines.append(
                json.dumps(
                    {
                        "area": area,
                        "benchmark": r.group,
                        "unit": r.unit,
                        "ecarte": r.ecarte,
                        "peer": r.baseline_name,
                        "peer_value": r.baseline,
                        "ratio": r.ratio,
                        "note": r.note,
                    }
                )
            )
    return lines


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


#: The design budget for one ``VecEnv`` env-step, in seconds (see :data:`NOTES`).
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
    target = ("80 ns target", VECENV_TARGET)
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
        "import ecarte.bench.harness as b, ecarte, gc\n"
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
        rows.append(
            Row(f"memory: VecEnv ({layout}) per env (n={envs:,})", "bytes", per_env, "-", None)
        )
        if layout == BUDGET_LAYOUT:
            rows.append(
                Row(
                    f"memory: VecEnv ({layout}) of 1,000,000 envs",
                    "bytes",
                    million,
                    "1 GiB",
                    float(1 << 30),
                )
            )
        else:
            # The float32 layout is not held to the budget: the row says how far it goes.
            fits = "-" if not per_env else f"{int((1 << 30) / per_env):,} envs fit in 1 GiB"
            rows.append(
                Row(
                    f"memory: VecEnv ({layout}) of 1,000,000 envs",
                    "bytes",
                    million,
                    "-",
                    None,
                    fits,
                )
            )
    rows.append(
        Row("memory: solver table per thread", "bytes", float(SOLVER_TABLE_BYTES), "-", None)
    )
    return rows


#: The observation layout held to the memory budget: the one to use for a million envs.
BUDGET_LAYOUT = "compact"

#: What the table's budget rows measure against, printed under it by ``ecarte bench``.
NOTES = (
    "Budgets: a VecEnv step should take at most 80 ns per env (a speed-up of 1.0x or more "
    "meets it), and a VecEnv of 1,000,000 envs should fit in 1 GiB in the compact layout "
    "(observation='compact'), so that a learner can step a million games on one machine; "
    "its memory row gives the share of that budget the observations, masks and deals take. "
    "The float32 layout holds no budget: its row says how many envs fit in 1 GiB with their "
    "float32 observations, masks and deals."
)

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


def format_figure(value: float | None, unit: str) -> str:
    """A figure as the table shows it: bytes for the unit ``bytes``, else seconds in the
    unit that suits it ("-" when not measured)."""
    return _fmt_bytes(value) if unit == "bytes" else _fmt_time(value)


def format_table(rows: list[Row]) -> str:
    """A plain-text table: ecarte, the baseline, and how many times faster ecarte is."""
    header = ("benchmark", "per", "ecarte", "baseline", "baseline time", "ecarte speed-up")
    lines = [header]
    for r in rows:
        if r.unit == "bytes":
            if r.ecarte is not None and r.baseline is not None:
                ratio = f"{r.ecarte / r.baseline:.0%} of the budget"
            else:
                ratio = r.note or "-"
        elif r.ratio is not None:
            ratio = f"{r.ratio:.1f}x"
        elif r.note:
            ratio = r.note
        else:
            ratio = "-"
        lines.append(
            (
                r.group,
                r.unit,
                format_figure(r.ecarte, r.unit),
                r.baseline_name,
                format_figure(r.baseline, r.unit),
                ratio,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for i, line in enumerate(lines):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
