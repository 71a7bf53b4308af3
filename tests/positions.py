"""Positions for the agent tests: random deals played some way in by random agents."""

from __future__ import annotations

import random

from ecarte import RandomAgent
from ecarte.duel import Deal


def random_positions(n: int, seed: int, max_actions: int) -> list[Deal]:
    """``n`` deals not yet over, each after fewer than ``max_actions`` random actions."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deal = Deal(seed=rng.randrange(2**63), dealer=rng.randrange(2))
        agent = RandomAgent(rng.randrange(2**32))
        for _ in range(rng.randrange(max_actions)):
            if deal.is_over():
                break
            player = deal.current_player
            assert player is not None
            deal.apply(agent(deal.observation(player), deal.legal_actions()))
        if not deal.is_over():
            out.append(deal)
    return out
