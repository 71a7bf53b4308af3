"""Readable text for cards, deals and matches (suit symbols, trump, exchanges, tricks and
draws). Cards are shown one way everywhere, in the engine's card styles: with suit symbols
(``Q♥``, ``10♠``), or in ASCII (``QH``, ``10S``) after :func:`use_ascii` (the command
line's ``--ascii``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Literal

from ecarte._core import Card, Suit
from ecarte._public import api_dir
from ecarte.duel import Action, Deal, Outcome

__all__ = [
    "action_str",
    "card_str",
    "card_style",
    "cards_text",
    "counted",
    "deal_report",
    "deal_steps",
    "outcome_reason",
    "suit_str",
    "use_ascii",
]
__dir__ = api_dir(globals())

#: Plurals that do not just add an s.
PLURALS = {"match": "matches"}

_style = {"ascii": False}


def use_ascii(ascii_only: bool = True) -> None:
    """Shows cards and suits in ASCII (``QH``, ``H``) from now on, or with symbols again."""
    _style["ascii"] = ascii_only


def card_style() -> Literal["symbols", "ascii"]:
    """The engine's card style (``Card.text``) cards are shown in to a person now."""
    return "ascii" if _style["ascii"] else "symbols"


def card_str(card: Card) -> str:
    """A card as shown to a person: ``Q♥``, ``10♠``, or ``QH``, ``10S`` in ASCII."""
    return card.text(card_style())


def suit_str(suit: Suit) -> str:
    """A suit as shown to a person: ``♥``, or ``H`` in ASCII."""
    return suit.text(card_style())


def action_str(action: Action) -> str:
    """An action as shown to a person: ``Q♥``, ``discard 7♣``, ``propose``."""
    if action.card is None:
        return str(action)
    return ("discard " if action.kind == "discard" else "") + card_str(action.card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as shown to a person, e.g. ``Q♥ 7♣``."""
    return " ".join(card_str(c) for c in cards)


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, singular or plural: ``1 deal``, ``2 deals``, ``3 matches``."""
    return f"{n} {noun if n == 1 else PLURALS.get(noun, noun + 's')}"


def outcome_reason(outcome: Outcome, names: Sequence[str]) -> str:
    """Why the deal went to its winner, by the scoring rules (docs/rules.md, "Scoring"):
    every trick (a vole, 2 points), more cards (1 point), or, on equal cards, the last trick
    (1 point). E.g. ``"16-16 on cards: the last trick decides, and Seat 1 took it"``."""
    winner, loser = outcome.winner, 1 - outcome.winner
    won, lost = outcome.cards[winner], outcome.cards[loser]
    if outcome.vole:
        tricks = outcome.tricks[winner]
        return f"{names[winner]} took all {tricks} tricks: a vole scores 2"
    if won == lost:
        return f"{won}-{lost} on cards: the last trick decides, and {names[winner]} took it"
    return f"{won}-{lost} on cards: more cards win"


_CALLS = {
    "propose": "proposes",
    "decline": "declines: play",
    "accept": "accepts",
    "refuse": "refuses: play",
}


def deal_steps(deal: Deal, names: Sequence[str]) -> list[list[str]]:
    """A finished (or partly played) deal as a spectator follows it, seeing both hands, in
    steps of lines: the deal (dealer, trump, both hands), each exchange (the proposal, the
    answer, the draws and the discards), each trick with the cards both players then draw
    from the talon, and the outcome, or a note that the deal is unfinished. The lines are
    read off the deal's frames (``Deal.frames``)."""
    frames = deal.frames()
    elder, dealer = deal.elder, deal.dealer
    dealt = frames[0].hands
    steps = [
        [
            f"{names[dealer]} deals. Trump {suit_str(deal.trump)} "
            f"(turn-up {card_str(deal.turn_up)})",
            f"  {names[elder]:<12} {cards_text(dealt[elder])}",
            f"  {names[dealer]:<12} {cards_text(dealt[dealer])}",
        ]
    ]
    for before, frame in pairwise(frames):
        action, actor = frame.action, frame.actor
        assert action is not None and actor is not None  # every frame after the first
        starts_step = action.kind in ("propose", "decline") or (
            action.kind == "play" and before.lead is None
        )
        if starts_step:
            steps.append([])
        lines = steps[-1]
        drawn = frame.drawn
        if action.kind in _CALLS:
            lines.append(f"  {names[actor]} {_CALLS[action.kind]}")
        elif action.kind == "discard" and action.card is not None:
            lines.append(f"  {names[actor]} discards {card_str(action.card)}")
        if action.kind == "accept":
            lines.append(
                f"  exchange {frame.exchanges}: {names[elder]} draws "
                f"{card_str(drawn[elder][0])}, {names[dealer]} draws {card_str(drawn[dealer][0])}"
            )
        if action.kind == "play" and frame.lead is None:
            trick = frame.tricks[-1]
            lead, follow = trick.cards
            winner, loser = trick.winner, 1 - trick.winner
            lines.append(
                f"  trick {len(frame.tricks):>2}: {names[trick.leader]} {card_str(lead):<3} "
                f"{names[1 - trick.leader]} {card_str(follow):<3} -> {names[winner]}"
            )
            if drawn[winner]:
                lines.append(
                    f"            draws: {names[winner]} {card_str(drawn[winner][0])}, "
                    f"{names[loser]} {card_str(drawn[loser][0])}"
                )
    outcome = frames[-1].outcome
    if outcome is None:
        steps[-1].append("  (unfinished: the record ends here)")
    else:
        won, lost = outcome.winner, 1 - outcome.winner
        tricks = "" if outcome.vole else f" (tricks {outcome.tricks[won]}-{outcome.tricks[lost]})"
        steps[-1].append(
            f"  {names[won]} wins the deal, {counted(outcome.points, 'point')}: "
            f"{outcome_reason(outcome, names)}{tricks}"
        )
    return steps


def deal_report(deal: Deal, names: Sequence[str]) -> list[str]:
    """:func:`deal_steps` as one list of lines."""
    return [line for step in deal_steps(deal, names) for line in step]
