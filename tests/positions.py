"""Positions for the agent tests: random deals played some way in by random agents."""

from __future__ import annotations

from ecarte import RandomAgent, derive_seed
from ecarte.duel import Deal


def random_positions(n: int, seed: int, max_actions: int) -> list[Deal]:
    """``n`` deals not yet over, each after fewer than ``max_actions`` random actions; the
    ``i``-th try draws its deal, dealer, agent and length from ``derive_seed(seed, i)``."""
    out = []
    tries = 0
    while len(out) < n:
        deal_seed = derive_seed(seed, tries)
        tries += 1
        deal = Deal(seed=deal_seed, dealer=derive_seed(deal_seed, 1) % 2)
        agent = RandomAgent(derive_seed(deal_seed, 2))
        for _ in range(derive_seed(deal_seed, 3) % max_actions):
            if deal.is_over():
                break
            player = deal.current_player
            assert player is not None
            deal.apply(agent(deal.observation(player), deal.legal_actions()))
        if not deal.is_over():
            out.append(deal)
    return out
