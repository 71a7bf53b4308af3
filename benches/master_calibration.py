"""Measures the master's follow model on the expert's own plays.

    python benches/master_calibration.py [deals] [first_seed]

Plays `deals` deals (default 300) from `first_seed` (default 30000), the expert in both
seats (dealer alternating), and prints how often the expert's follows (a card played to a
lead, more than one legal) and leads are the heuristic's card: the first rate is the
constant `FOLLOW_AGREEMENT` of rust/src/play/master.rs. Also the held-out log-loss per follow
of that model against a uniform choice among the legal cards (first 70% to measure the rate,
the rest to score it).
"""

from __future__ import annotations

import math
import sys

from ecarte.agents import make_agent
from ecarte.duel import Deal, heuristic_action


def main(deals: int = 300, first: int = 30000) -> None:
    plays: dict[str, list[tuple[bool, int]]] = {"lead": [], "follow": []}
    for i in range(deals):
        deal = Deal(seed=first + i, dealer=i % 2)
        agents = (make_agent("expert", 2 * i), make_agent("expert", 2 * i + 1))
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            obs, legal = deal.observation(player), deal.legal_actions()
            action = agents[player](obs, legal)
            if deal.phase == "play" and len(legal) > 1:
                kind = "lead" if deal.lead is None else "follow"
                plays[kind].append((action == heuristic_action(obs, legal), len(legal)))
            deal.apply(action)
    for kind, data in plays.items():
        split = int(0.7 * len(data))
        rate = sum(agreed for agreed, _ in data[:split]) / split
        test = data[split:]
        model = -sum(
            math.log(rate if agreed else (1 - rate) / (n - 1)) for agreed, n in test
        ) / len(test)
        uniform = sum(math.log(n) for _, n in test) / len(test)
        print(
            f"{kind}s: {len(data)} with a choice, the heuristic's card {rate:.2f} of the first "
            f"{split}; held-out log-loss per {kind}: model {model:.3f}, uniform {uniform:.3f}"
        )


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:3]])
