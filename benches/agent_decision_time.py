"""Seconds per decision of two agents playing each other, by kind of decision.

    python benches/agent_decision_time.py [deals] [agent_a] [agent_b]

Plays `deals` deals (default 6) of agent A against agent B (default "expert" and "pimc"),
seats alternating, and prints for each agent the mean, median and p90 seconds per decision,
for exchange and play decisions and over all, in wall time, and the mean CPU seconds (all
threads of the process: a load-independent measure on a shared machine). The agents are
the Python ones (`make_agent`), which call the same native code as `duel.simulate`.
"""

from __future__ import annotations

import statistics
import sys
import time

from ecarte.agents import make_agent
from ecarte.duel import Deal


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))]


def main(deals: int = 6, a: str = "expert", b: str = "pimc") -> None:
    agents = {a: make_agent(a, 1), b: make_agent(b, 2)}
    times: dict[str, dict[str, list[float]]] = {n: {"exchange": [], "play": []} for n in agents}
    cpu: dict[str, float] = dict.fromkeys(agents, 0.0)
    for i in range(deals):
        deal = Deal(seed=100 + i, dealer=i % 2)
        seats = (a, b) if i % 2 == 0 else (b, a)
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            name = seats[player]
            obs, legal = deal.observation(player), deal.legal_actions()
            start, start_cpu = time.perf_counter(), time.process_time()
            action = agents[name](obs, legal)
            kind = "play" if deal.phase == "play" else "exchange"
            times[name][kind].append(time.perf_counter() - start)
            cpu[name] += time.process_time() - start_cpu
            deal.apply(action)
    print(f"{a} against {b}, {deals} deals")
    for name, kinds in times.items():
        every = kinds["exchange"] + kinds["play"]
        print(f"{name:>10} mean CPU {cpu[name] / max(len(every), 1):.4f} s per decision")
        for kind, values in [*kinds.items(), ("all", every)]:
            if values:
                print(
                    f"{name:>10} {kind:>8}: {len(values):4d} decisions, "
                    f"mean {statistics.fmean(values):.4f} s, "
                    f"median {statistics.median(values):.4f} s, p90 {p90(values):.4f} s"
                )


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 6, *args[1:3])
