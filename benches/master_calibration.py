"""Regenerates the master's opponent model from the expert's own decisions.

    python benches/master_calibration.py [deals] [first_seed]

Plays `deals` deals (default 300) from `first_seed` (default 30000), the expert in both
seats (dealer alternating), and fits to the expert's decisions:
- its exchange decisions: `logit P(change) = a + b v` with `v` the heuristic's hand value,
  for the elder (propose) and the dealer (accept), as `benches/expert_calibration.py` fits
  PIMC's (the constants `EXPERT_PROPOSE` and `EXPERT_ACCEPT` of rust/src/play/master.rs);
- its follows (a card played to a lead, more than one legal): a logit over the legal cards'
  features (`play_features` in rust/src/play/master.rs, mirrored here), fitted on 70% of the
  follows and scored on the rest against a uniform choice and the heuristic's choice
  (the constant `FOLLOW_WEIGHTS`); its leads likewise, for comparison only (the master
  does not read leads).
"""

from __future__ import annotations

import sys

import numpy as np
from ecarte.agents import make_agent
from ecarte.duel import Deal, heuristic_action
from expert_calibration import STRENGTH, fit, hand_value


def beats(card: str, lead: str, trump: str) -> bool:
    same = card[1] == lead[1] and STRENGTH[card[0]] > STRENGTH[lead[0]]
    return same or (card[1] == trump and lead[1] != trump)


def play_features(
    card: str, hand: list[str], live: list[str], trump: str, lead: str | None, legal: list[str]
) -> list[float]:
    """The features of playing `card`; `live` holds both hands and the undrawn talon."""
    s, suit = STRENGTH[card[0]], card[1]
    mine = [c for c in hand if c[1] == suit]
    features = [
        float(suit == trump),
        float(all(STRENGTH[c[0]] < s for c in live if c[1] == suit and c not in hand)),
        s / 7,
        float(all(STRENGTH[c[0]] >= s for c in mine)),
        float(all(STRENGTH[c[0]] <= s for c in mine)),
        len(mine) / 5,
    ]
    if lead is not None:

        def cost(c: str) -> int:
            return STRENGTH[c[0]] + (10 if c[1] == trump else 0)

        wins = beats(card, lead, trump)
        winners = [c for c in legal if beats(c, lead, trump)]
        features += [
            float(wins),
            float(wins and all(cost(c) >= cost(card) for c in winners)),
            float(all(cost(c) >= cost(card) for c in legal)),
        ]
    return features


def logit_fit(rows: list[tuple[np.ndarray, int]], steps: int = 3000) -> np.ndarray:
    theta = np.zeros(rows[0][0].shape[1])
    for _ in range(steps):
        grad = np.zeros_like(theta)
        for features, chosen in rows:
            z = features @ theta
            p = np.exp(z - z.max())
            p /= p.sum()
            grad += features[chosen] - p @ features
        theta += 0.5 * grad / len(rows)
    return theta


def mean_nll(theta: np.ndarray, rows: list[tuple[np.ndarray, int]]) -> float:
    total = 0.0
    for features, chosen in rows:
        z = features @ theta
        total -= z[chosen] - z.max() - np.log(np.exp(z - z.max()).sum())
    return total / len(rows)


def main(deals: int = 300, first: int = 30000) -> None:
    exchange: dict[str, list[tuple[float, bool]]] = {"proposal": [], "response": []}
    plays: dict[str, list[tuple[np.ndarray, int, bool]]] = {"lead": [], "follow": []}
    for i in range(deals):
        deal = Deal(seed=first + i, dealer=i % 2)
        agents = (make_agent("expert", 2 * i), make_agent("expert", 2 * i + 1))
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            obs, legal = deal.observation(player), deal.legal_actions()
            action = agents[player](obs, legal)
            hand = [str(c) for c in deal.hand(player)]
            trump = str(deal.trump)
            if deal.phase in exchange:
                changed = str(action) in ("propose", "accept")
                exchange[deal.phase].append((hand_value(hand, trump), changed))
            elif deal.phase == "play" and len(legal) > 1:
                live = hand + [str(c) for c in deal.hand(1 - player)]
                live += [str(c) for c in deal.talon]
                lead = None if deal.lead is None else str(deal.lead)
                cards = [str(a.card) for a in legal]
                features = np.array([play_features(c, hand, live, trump, lead, cards) for c in cards])
                heuristic = str(heuristic_action(obs, legal).card)
                features = np.c_[features[:, :6], [float(c == heuristic) for c in cards], features[:, 6:]]
                agreed = str(action.card) == heuristic
                plays["lead" if lead is None else "follow"].append(
                    (features, cards.index(str(action.card)), agreed)
                )
            deal.apply(action)
    for role, data in exchange.items():
        x = np.array([v for v, _ in data])
        y = np.array([c for _, c in data], dtype=float)
        a, b = fit(x, y)
        print(f"{role}: {len(data)} decisions, a = {a:.2f}, b = {b:.2f}, change rate {y.mean():.2f}")
    for kind, data in plays.items():
        split = int(0.7 * len(data))
        rows = [(f, c) for f, c, _ in data]
        theta = logit_fit(rows[:split])
        test = data[split:]
        uniform = float(np.mean([np.log(len(f)) for f, _, _ in test]))
        agree = np.mean([a for _, _, a in data[:split]])
        heuristic = -float(
            np.mean([np.log(agree if a else (1 - agree) / (len(f) - 1)) for f, _, a in test])
        )
        print(f"{kind}: {len(data)} decisions, weights {np.round(theta, 2).tolist()}")
        print(
            f"  held-out log-loss per decision: model {mean_nll(theta, rows[split:]):.3f}, "
            f"heuristic's choice {heuristic:.3f} (agrees {agree:.2f}), uniform {uniform:.3f}"
        )


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
