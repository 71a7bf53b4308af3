"""Readable text for cards, deals and matches (suit symbols, trump, exchanges, tricks)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ecarte._core import Card
from ecarte.duel import Deal, Outcome

__all__ = ["cards_text", "counted", "deal_report", "outcome_reason"]

#: Plurals that do not just add an s.
PLURALS = {"match": "matches"}


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, singular or plural: ``1 deal``, ``2 deals``, ``3 matches``."""
    return f"{n} {noun if n == 1 else PLURALS.get(noun, noun + 's')}"


def cards_text(cards: Iterable[Card]) -> str:
    """Cards with suit symbols, e.g. ``Q♥ 7♣``."""
    return " ".join(c.pretty() for c in cards)


def outcome_reason(outcome: Outcome, names: Sequence[str]) -> str:
    """Why the deal went to its winner, by the scoring rules (``RULES.md``): every trick (a
    vole, 2 points), more cards (1 point), or, on equal cards, the last trick (1 point).
    E.g. ``"16–16 on cards: the last trick decides, and Seat 1 took it"``."""
    winner, loser = outcome.winner, 1 - outcome.winner
    won, lost = outcome.cards[winner], outcome.cards[loser]
    if outcome.vole:
        tricks = outcome.tricks[winner]
        return f"{names[winner]} took all {tricks} tricks: a vole scores 2"
    if won == lost:
        return f"{won}–{lost} on cards: the last trick decides, and {names[winner]} took it"
    return f"{won}–{lost} on cards: more cards win"


def deal_report(deal: Deal, names: Sequence[str]) -> list[str]:
    """A finished (or partly played) deal as lines of text, from a spectator's seat: both
    initial hands, the trump, each exchange, each trick and the outcome."""
    deck = deal.deck
    elder, dealer = deal.elder, deal.dealer
    hands = {elder: deck[0:5], dealer: deck[5:10]}
    lines = [
        f"{names[dealer]} deals. Trump {deal.trump.symbol} (turn-up {deal.turn_up.pretty()})",
        f"  {names[elder]:<12} {cards_text(sorted(hands[elder]))}",
        f"  {names[dealer]:<12} {cards_text(sorted(hands[dealer]))}",
    ]
    replay = Deal.from_deck(deck, dealer=dealer, rules=deal.rules)
    trick_no = 0
    for actor, action in deal.moves:
        if action.kind in ("propose", "decline", "accept", "refuse"):
            verb = {
                "propose": "proposes",
                "decline": "declines: play",
                "accept": "accepts",
                "refuse": "refuses: play",
            }[action.kind]
            lines.append(f"  {names[actor]} {verb}")
        elif action.kind == "discard":
            assert action.card is not None
            lines.append(f"  {names[actor]} discards {action.card.pretty()}")
        drawn = replay.talon[:2]
        replay.apply(action)
        if action.kind == "accept":
            lines.append(
                f"  exchange {replay.exchanges}: {names[elder]} draws {drawn[0].pretty()}, "
                f"{names[dealer]} draws {drawn[1].pretty()}"
            )
        if action.kind == "play" and replay.lead is None:
            trick = replay.tricks[-1]
            trick_no += 1
            lead, follow = trick.cards
            lines.append(
                f"  trick {trick_no:>2}: {names[trick.leader]} {lead.pretty():<3} "
                f"{names[1 - trick.leader]} {follow.pretty():<3} -> {names[trick.winner]}"
            )
    outcome = deal.outcome()
    if outcome is not None:
        vole = ", vole" if outcome.vole else ""
        lines.append(
            f"  {names[outcome.winner]} wins the deal: "
            f"cards {outcome.cards[0]}-{outcome.cards[1]}, "
            f"tricks {outcome.tricks[0]}-{outcome.tricks[1]}{vole}: "
            f"{outcome.points} point{'s' if outcome.points > 1 else ''} "
            f"({outcome_reason(outcome, names)})"
        )
    return lines
