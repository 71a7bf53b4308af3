"""How a user's arena run goes: wall and CPU time, and how often its progress bar moves.

    python benches/arena_bar.py A B matches [seed]

Runs ``arena.play(A, B, matches=matches, seed=seed, progress=True)`` (the bar drawn on
stderr, as ``ecarte arena A B --matches N`` draws it) and prints the wall time, the
process's CPU time (all threads), the time until the bar first moved and the longest wait
between two moves of the bar.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from ecarte import arena, progress


def main(a: str, b: str, matches: int, seed: int = 1) -> None:
    moves: list[float] = []
    counted, running = progress.Bar.__call__, progress.Bar.running

    def on_count(bar: progress.Bar, k: int) -> None:
        moves.append(time.perf_counter())
        counted(bar, k)

    def on_running(bar: progress.Bar, items: float, note: str = "") -> None:
        moves.append(time.perf_counter())
        running(bar, items, note)

    patched: Any = progress.Bar
    patched.__call__, patched.running = on_count, on_running
    start, cpu = time.perf_counter(), time.process_time()
    result = arena.play(a, b, matches=matches, seed=seed, progress=True)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    gaps = [later - earlier for earlier, later in zip([start, *moves[:-1]], moves, strict=True)]
    print(
        f"{a} v {b}, {matches} matches: wall {wall:.1f} s, CPU {cpu:.1f} s, "
        f"{len(moves)} bar moves, first after {gaps[0] if gaps else float('nan'):.2f} s, "
        f"longest wait {max(gaps, default=float('nan')):.2f} s; "
        f"match win rate of {a} {result.match_win_rate.mean:.3f}",
        flush=True,
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), *[int(s) for s in sys.argv[4:5]])
