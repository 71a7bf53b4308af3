"""Regenerates the expert's opponent model: PIMC's first exchange decisions by hand value.

    python benches/expert_calibration.py [deals] [first_seed]

For `deals` deals (default 150) from `first_seed` (default 1000), dealer 0, asks PIMC(24)
(`pimc_values` with the deal's seed) whether the elder proposes, then, after a proposal,
whether the dealer accepts, and fits `logit P(change) = a + b v` by logistic regression,
with `v` the heuristic's hand value (`hand_value` in rust/src/play/policy.rs, mirrored
here). Prints the rate by whole hand value and the fitted `(a, b)` for each role: the
constants `PROPOSE_MODEL` and `ACCEPT_MODEL` of rust/src/play/expert.rs.
"""

from __future__ import annotations

import sys

import numpy as np
from ecarte.duel import Action, Deal, pimc_values

STRENGTH = {"7": 0, "8": 1, "9": 2, "T": 3, "A": 4, "J": 5, "Q": 6, "K": 7}  # ecarte order


def hand_value(hand: list[str], trump: str) -> float:
    value = 0.0
    for card in hand:
        s = STRENGTH[card[0]]
        if card[1] == trump:
            value += 1.5 + s / 7
        elif s >= 5:
            value += 0.5 + (s - 5) * 0.3
    return value


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    design = np.c_[np.ones_like(x), x]
    w = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ w))
        hessian = (design.T * (p * (1 - p))) @ design + 1e-6 * np.eye(2)
        w += np.linalg.solve(hessian, design.T @ (y - p))
    return w


def main(deals: int = 150, first: int = 1000) -> None:
    rows: dict[str, list[tuple[float, bool]]] = {"elder": [], "dealer": []}
    for seed in range(first, first + deals):
        deal = Deal(seed=seed, dealer=0)
        trump = str(deal.observation(0).turn_up)[1]
        for role, change, keep in (("elder", "propose", "decline"), ("dealer", "accept", "refuse")):
            player = deal.current_player
            assert player is not None
            obs = deal.observation(player)
            values = {str(a): v for a, v in pimc_values(obs, 24, seed)}
            v = hand_value([str(c) for c in obs.hand], trump)
            rows[role].append((v, values[change] > values[keep]))
            if role == "elder":
                deal.apply(Action("propose"))
    for role, data in rows.items():
        x = np.array([v for v, _ in data])
        y = np.array([c for _, c in data], dtype=float)
        for low in range(10):
            inside = (x >= low) & (x < low + 1)
            if inside.any():
                print(
                    f"{role} value {low}-{low + 1}: {inside.sum():3d} hands, "
                    f"change rate {y[inside].mean():.2f}"
                )
        a, b = fit(x, y)
        print(f"{role}: a = {a:.2f}, b = {b:.2f} (overall change rate {y.mean():.2f})")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
