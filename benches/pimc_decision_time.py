"""PIMC decision time at the default sample count, by kind of decision.

    python benches/pimc_decision_time.py [deals]

Plays `deals` deals (default 6) of PimcAgent (default samples) against HeuristicAgent and
prints the median, p90 and max seconds per decision for exchange and play decisions.
"""

from __future__ import annotations

import statistics
import sys
import time

from ecarte import HeuristicAgent, PimcAgent
from ecarte.duel import Deal


def main(deals: int = 6) -> None:
    pimc, heuristic = PimcAgent(seed=1), HeuristicAgent()
    times: dict[str, list[float]] = {"exchange": [], "play": []}
    for i in range(deals):
        deal = Deal(seed=100 + i, dealer=i % 2)
        pimc_seat = i % 2
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            obs, legal = deal.observation(player), deal.legal_actions()
            if player == pimc_seat:
                start = time.perf_counter()
                action = pimc(obs, legal)
                kind = "play" if deal.phase == "play" else "exchange"
                times[kind].append(time.perf_counter() - start)
            else:
                action = heuristic(obs, legal)
            deal.apply(action)
    print(f"PimcAgent(samples={pimc.samples}), {deals} deals against HeuristicAgent")
    for kind, values in times.items():
        values.sort()
        p90 = values[int(0.9 * (len(values) - 1))]
        print(
            f"{kind:>8}: {len(values):3d} decisions, median {statistics.median(values):.4f} s, "
            f"p90 {p90:.4f} s, max {values[-1]:.4f} s"
        )
    every = times["exchange"] + times["play"]
    print(f"     all: mean {statistics.fmean(every):.4f} s per decision")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
