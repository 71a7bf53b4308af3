"""Built-in duel agents and the agent protocol.

An agent is any callable ``agent(observation, legal_actions) -> action``. It sees only the
player's :class:`~ecarte.duel.Observation` and the legal actions, never the deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ecarte._core import Card, DuelAction as Action, DuelObservation as Observation

__all__ = ["Agent", "HeuristicAgent", "RandomAgent", "card_strength", "make_agent"]


class Agent(Protocol):
    """Chooses one of ``legal_actions`` from what ``observation`` shows."""

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomAgent:
    """Plays uniformly at random among the legal actions (Python's Mersenne Twister,
    seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return self._rng.choice(list(legal_actions))

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


_ECARTE_ORDER = "789TAJQK"
_TRADITIONAL_ORDER = "789TJQKA"


def card_strength(card: Card, order: str) -> int:
    """Rank strength 0 (seven) to 7 (top card) under the rank order ``order``."""
    ranks = _ECARTE_ORDER if order == "ecarte" else _TRADITIONAL_ORDER
    return ranks.index(str(card)[0])


class HeuristicAgent:
    """Rule-based play.

    Exchange: the elder proposes and the dealer accepts while the hand is weak (few trumps
    and high cards); discards go lowest non-trump first, kings kept. Play: win as cheaply
    as possible, do not waste trumps on a trick that cannot be won, lead trumps to draw the
    opponent's when holding three or more, otherwise lead the strongest side-suit card.
    """

    #: Hand value at which the elder stops proposing and the dealer refuses.
    keep_threshold: float = 5.0

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # deterministic already; the seed is accepted for a common API

    def __repr__(self) -> str:
        return "HeuristicAgent()"

    def hand_value(self, observation: Observation) -> float:
        order = observation.rules.order
        trump = observation.trump
        value = 0.0
        for card in observation.hand:
            s = card_strength(card, order)
            if card.suit == trump:
                value += 1.5 + s / 7
            elif s >= 5:  # J, Q, K (or Q, K, A traditionally)
                value += 0.5 + (s - 5) * 0.3
        return value

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        kinds = {a.kind for a in legal}
        if "propose" in kinds:
            strong = self.hand_value(observation) >= self.keep_threshold
            return _named(legal, "decline" if strong else "propose")
        if "accept" in kinds:
            strong = self.hand_value(observation) >= self.keep_threshold
            return _named(legal, "refuse" if strong else "accept")
        if "discard" in kinds:
            return min(legal, key=lambda a: self._keep_value(a.card, observation))
        return self._play(observation, legal)

    def _keep_value(self, card: Card | None, observation: Observation) -> float:
        assert card is not None
        s = card_strength(card, observation.rules.order)
        return s + (10 if card.suit == observation.trump else 0)

    def _play(self, observation: Observation, legal: list[Action]) -> Action:
        order = observation.rules.order
        trump = observation.trump

        def cost(a: Action) -> float:
            card = a.card
            assert card is not None
            return card_strength(card, order) + (8 if card.suit == trump else 0)

        lead = observation.lead
        if lead is None:
            trumps = [a for a in legal if a.card is not None and a.card.suit == trump]
            if len(trumps) >= 3:
                return max(trumps, key=cost)
            side = [a for a in legal if a not in trumps]
            return max(side, key=cost) if side else min(legal, key=cost)
        winners = [a for a in legal if a.card is not None and _beats(a.card, lead, trump, order)]
        if winners:
            return min(winners, key=cost)
        return min(legal, key=cost)


def _beats(card: Card, lead: Card, trump: object, order: str) -> bool:
    if card.suit == lead.suit:
        return card_strength(card, order) > card_strength(lead, order)
    return card.suit == trump


def _named(legal: list[Action], name: str) -> Action:
    return next(a for a in legal if a.kind == name)


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A built-in agent by name: ``"random"``, ``"heuristic"`` or ``"pimc"``."""
    from ecarte.pimc import PimcAgent

    agents: dict[str, Callable[[int | None], Agent]] = {
        "random": RandomAgent,
        "heuristic": HeuristicAgent,
        "pimc": lambda s: PimcAgent(seed=s),
    }
    try:
        return agents[name](seed)
    except KeyError:
        from ecarte._core import EcarteError

        raise EcarteError(
            f"unknown agent {name!r}: choose one of {', '.join(sorted(agents))}"
        ) from None
