"""What the engine sends about a game, as JSON-ready values.

A seat's view is built only from what that seat may know: the duel's
:class:`~ecarte.duel.Observation` (its own record, ``Observation.to_json``) and the bank's
:class:`~ecarte.bank.PunterView`. The all-seeing forms (:func:`deal_frames`,
:func:`match_frames`, :func:`table_frames`) serve only a client that holds every seat or
gave the record itself.
"""

from __future__ import annotations

import json
from typing import Any

from ecarte._core import Suit, full_pack
from ecarte._public import api_dir
from ecarte.bank import LegalAction, PunterView, session_steps
from ecarte.display import outcome_reason
from ecarte.duel import Deal, Frame, Match, Observation, Outcome

__all__ = [
    "card_faces",
    "deal_frames",
    "frame_view",
    "legal_action_view",
    "match_frames",
    "observation_view",
    "outcome_view",
    "public_view",
    "punter_view",
    "table_frames",
]
__dir__ = api_dir(globals())


def card_faces() -> dict[str, Any]:
    """How a person reads the cards the views name by code (``"TH"``): each suit's symbol
    (``suits``) and each card of the full pack written in the engine's ``"symbols"`` style
    (``cards``: its text ``10♥``, its rank ``10`` and its suit ``♥``), for a client that
    draws cards, so that it writes them as every other face does."""
    suits = (Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades)
    cards = {}
    for card in full_pack():
        text, suit = card.text("symbols"), card.suit.text("symbols")
        cards[str(card)] = {"text": text, "rank": text.removesuffix(suit), "suit": suit}
    return {"suits": {s.letter: s.text("symbols") for s in suits}, "cards": cards}


def observation_view(observation: Observation) -> dict[str, Any]:
    """A seat's observation: exactly its record (docs/api.md, "Records")."""
    view: dict[str, Any] = json.loads(observation.to_json())
    return view


def outcome_view(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    view: dict[str, Any] = json.loads(outcome.to_json())
    view["reason"] = outcome_reason(outcome, ["seat 0", "seat 1"])
    return view


def public_view(deal: Deal) -> dict[str, Any]:
    """What both seats know of a deal: whose turn, the phase, the turn-up, the counts."""
    lead = deal.lead
    return {
        "phase": deal.phase,
        "current_player": deal.current_player,
        "dealer": deal.dealer,
        "trump": str(deal.trump),
        "turn_up": str(deal.turn_up),
        "turn_up_holder": deal.turn_up_holder,
        "talon_size": deal.talon_size,
        "exchanges": deal.exchanges,
        "lead": None if lead is None else str(lead),
        "tricks_taken": list(deal.tricks_taken),
        "cards_taken": list(deal.cards_taken),
        "outcome": outcome_view(deal.outcome()),
    }


def _cards(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def punter_view(view: PunterView) -> dict[str, Any]:
    """The punters' view of a table (the tableaux and results only once revealed)."""
    return {
        "phase": view.phase,
        "banker": view.banker,
        "bank": view.bank,
        "mode": view.mode,
        "fixed_stake": view.fixed_stake,
        "responsible": view.responsible,
        "chips": dict(view.chips),
        "stakes": [s.__dict__.copy() for s in view.stakes],
        "trump_card": None if view.trump_card is None else str(view.trump_card),
        "discards": len(view.discards),
        "tableaux": None if view.tableaux is None else [_cards(t) for t in view.tableaux],
        "results": None
        if view.results is None
        else [
            {
                "tableau": t,
                "banker_tricks": r.banker_tricks,
                "punter_tricks": r.punter_tricks,
                "outcome": r.outcome,
            }
            for t, r in zip((2, 3, 4), view.results, strict=True)
        ],
    }


def frame_view(frame: Frame) -> dict[str, Any]:
    """One step of a replay, seen by a spectator who holds the record: the engine's frame
    (both hands, never the talon), its outcome with the reason."""
    view: dict[str, Any] = json.loads(frame.to_json())
    view["outcome"] = outcome_view(frame.outcome)
    return view


def deal_frames(deal: Deal) -> list[dict[str, Any]]:
    """Every step of a deal record, from the deal to its last action."""
    return [frame_view(frame) for frame in deal.frames()]


def match_frames(match: Match, index: int | None = None) -> list[dict[str, Any]]:
    """Every step of deal ``index`` (from 0) of a match, or of all its deals, each with its
    deal number and the match score after it."""
    return [frame_view(frame) for frame in match.frames(index)]


def legal_action_view(legal: LegalAction) -> dict[str, Any]:
    """An action a table player may take now: its record form so far (``action``), and the
    bounds of the value still to append (``bounds``: ``null`` when the action is whole)."""
    bounds = legal.bounds
    return {
        **legal._asdict(),
        "action": list(legal.action),
        "bounds": None if bounds is None else bounds._asdict(),
    }


def table_frames(record: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every step of a bank session record, replayed once and checked
    (:func:`~ecarte.bank.session_steps`): the punters' view after each action, the tableaux
    shown once revealed, as the players saw the table; and the session's ledger."""
    table, steps = session_steps(record)
    frames = [{"action": step.action, **punter_view(step.view)} for step in steps]
    return frames, table.ledger
