"""Median, p90 and max solve time over 100 fixed seeded positions after 0, 4, 8 and 11
exchanges (one core: each solve is a single call on the calling thread).

The positions match `solver::bench_position` in Rust: the deal of seed 0..99 with dealer
0, exchanges proposed and accepted, each discard the first legal one (lowest in pack
order), then play. Run: `python benches/solver_positions.py`.

`--repeat N` times each position N times on the calling thread's CPU clock
(`time.thread_time`) and keeps the best: steadier figures on a shared machine.
"""

from __future__ import annotations

import statistics
import sys
import time

from ecarte.duel import Deal, solve


def bench_position(seed: int, exchanges: int) -> Deal:
    deal = Deal(seed=seed, dealer=0)
    made = 0
    while deal.phase != "play":
        first = deal.legal_actions()[0]
        if str(first) == "propose":
            if made == exchanges:
                deal.apply("decline")
                continue
            made += 1
        deal.apply(first)
    return deal


def main() -> None:
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 0
    clock = time.thread_time if repeat else time.perf_counter
    print(
        f"{'exchanges':>9} {'median ms':>10} {'p90 ms':>10} {'max ms':>10} {'nodes (median)':>15}"
    )
    for exchanges in (0, 4, 8, 11):
        times, nodes = [], []
        for seed in range(100):
            deal = bench_position(seed, exchanges)
            best = float("inf")
            for _ in range(max(repeat, 1)):
                start = clock()
                solution = solve(deal)
                best = min(best, clock() - start)
            times.append(best * 1e3)
            nodes.append(solution.nodes)
        times.sort()
        print(
            f"{exchanges:>9} {statistics.median(times):>10.4f} {times[89]:>10.4f} "
            f"{times[-1]:>10.4f} {int(statistics.median(nodes)):>15}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
