"""The speed of ``ecarte analyse`` (docs/analysis.md, "Speed"): a 10-deal match record
analysed on one thread with the default worlds, and the double-dummy part of one deal.

    python benches/analysis_speed.py [SEED]

The match is the first match from ``SEED`` (default 1) on, played by the heuristic in both
seats, that lasts exactly 10 deals. CPU seconds (``time.process_time``) are printed beside
the wall time: on a loaded machine the CPU time is the figure to quote.
"""

from __future__ import annotations

import sys
import time

from ecarte.agents import make_agent
from ecarte.duel import DEFAULT_MASTER_SAMPLES, Deal, Match, action_values, analyse


def match_of_ten_deals(seed: int) -> Match:
    while True:
        game = Match(seed=seed)
        agents = [make_agent("heuristic", seed), make_agent("heuristic", seed + 1)]
        while not game.is_over():
            seat = game.current_player
            assert seat is not None
            game.apply(agents[seat](game.observation(seat), game.legal_actions()))
        if len(game.deals) == 10:
            return game
        seed += 1


def dd_seconds(deal: Deal) -> tuple[float, int]:
    """The CPU seconds of the double-dummy values at every play decision of ``deal``."""
    replay = Deal.from_deck(deal.deck, deal.dealer, deal.rules)
    spent, solved = 0.0, 0
    for action in deal.history:
        if replay.phase == "play":
            start = time.process_time()
            action_values(replay)
            spent += time.process_time() - start
            solved += 1
        replay.apply(action)
    return spent, solved


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    game = match_of_ten_deals(seed)
    decisions = sum(len(d.history) for d in game.deals)
    cpu, wall = time.process_time(), time.perf_counter()
    analyse(game, worlds=DEFAULT_MASTER_SAMPLES, seed=1, threads=1)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"match seed {game.seed}: 10 deals, {decisions} decisions, "
        f"{DEFAULT_MASTER_SAMPLES} worlds, 1 thread: {cpu:.2f} s CPU, {wall:.2f} s wall"
    )
    spent = [dd_seconds(deal) for deal in game.deals]
    worst = max(s for s, _ in spent)
    mean = sum(s for s, _ in spent) / len(spent)
    positions = sum(n for _, n in spent)
    print(
        f"double-dummy part per deal ({positions} play decisions in all): "
        f"mean {mean * 1e3:.1f} ms, slowest {worst * 1e3:.1f} ms CPU"
    )


if __name__ == "__main__":
    main()
