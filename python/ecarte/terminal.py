"""The duel table as terminal text, drawn with rich: the screen of ``ecarte play``
(:func:`game_screen`, a :class:`ecarte.play.Game` from its human's seat) and the
``render_mode="ansi"`` of the game environments (:func:`table`, :func:`table_text`)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ecarte._core import Card, Suit
from ecarte._public import api_dir
from ecarte.display import card_str, suit_str
from ecarte.duel import Action, Deal
from ecarte.play import Game

__all__ = ["card_text", "game_screen", "table", "table_text"]
__dir__ = api_dir(globals())


def card_text(card: Card) -> Text:
    """A card as shown everywhere (:func:`ecarte.display.card_str`), red for hearts and
    diamonds."""
    red = card.suit in (Suit.Hearts, Suit.Diamonds)
    return Text(card_str(card), style="bold red" if red else "bold")


def action_text(action: Action) -> Text:
    """An action as shown in the list of moves, its card coloured."""
    card = action.card
    if card is None:
        return Text(str(action))
    if action.kind == "discard":
        return Text("discard ") + card_text(card)
    return card_text(card)


def game_screen(game: Game) -> Group:
    """The table of ``game`` from its human's seat: the deal on the table, the log, the
    moves, and a finished deal's result or the match's end."""
    match, me = game.match, game.seat
    number = game.shown_index + 1
    over = None
    if match.is_over():
        winner = "You win" if match.winner == me else "The opponent wins"
        score = match.score
        over = f"{winner} the match, you {score[me]}, opponent {score[1 - me]}."
    shows_banner = bool(game.pending_banner) or (match.is_over() and bool(game.last_banner))
    return table(
        match.deals[number - 1],
        me,
        score=match.score,
        target=match.target,
        deal_number=number,
        log=game.deal_log,
        legal=None if over or game.pending_banner else match.legal_actions(),
        over=over,
        banner=game.last_banner if shows_banner else None,
        waiting=bool(game.pending_banner) and over is None,
    )


def table(
    deal: Deal,
    seat: int,
    *,
    score: tuple[int, int] = (0, 0),
    target: int | None = None,
    deal_number: int | None = None,
    log: Sequence[str] = (),
    legal: Sequence[Action] | None = None,
    over: str | None = None,
    banner: str | None = None,
    waiting: bool = False,
) -> Group:
    """The table of ``ecarte play`` as rich renderables: ``deal`` seen from ``seat``, with
    the match ``score`` (to ``target``, default the rules'), the last lines of ``log``, and
    the ``legal`` moves (or the ``over`` line once the match is over, or none while
    ``waiting`` for the next deal, which the prompt asks for), and a finished deal's result
    ``banner``. The game
    environments of ``ecarte.pettingzoo`` and ``ecarte.gymnasium`` render with it too."""
    me = seat
    obs = deal.observation(me, score)
    target = deal.rules.target if target is None else target
    score_text = f"you {score[me]}, opponent {score[1 - me]}"
    status = Table.grid(padding=(0, 2))
    status.add_row(
        Text(f"Deal {deal_number}" if deal_number is not None else "Deal", style="bold"),
        Text(f"Score: {score_text} (to {target})"),
        Text("You deal" if deal.dealer == me else "Opponent deals"),
    )
    trump = Text(f"Trump {suit_str(deal.trump)} (turn-up ") + card_text(deal.turn_up) + Text(")")
    status.add_row(trump, Text(f"Talon: {obs.talon_size}"), Text(f"Exchanges: {obs.exchanges}"))
    taken = obs.cards_taken
    status.add_row(
        Text(f"Tricks: you {obs.tricks_taken[me]}, opponent {obs.tricks_taken[1 - me]}"),
        Text(f"Cards: you {taken[me]}, opponent {taken[1 - me]}"),
        Text(f"Phase: {obs.phase}"),
    )
    trick = Text("Current trick: ")
    trick.append_text(card_text(obs.lead) if obs.lead else Text("-"))
    if obs.tricks:
        last = obs.tricks[-1]
        trick.append("   Last trick: ")
        trick.append_text(card_text(last.cards[0]))
        trick.append(" ")
        trick.append_text(card_text(last.cards[1]))
        trick.append(f" won by {'you' if last.winner == me else 'the opponent'}")
    hand = Text("Your hand: ")
    for card in obs.hand:
        hand.append_text(card_text(card))
        hand.append(" ")
    parts: list[Text | Table | Panel] = [status, trick, hand]
    holder = obs.turn_up_holder
    if holder is not None:
        # A line of its own: the table's columns keep their widths when the turn-up goes.
        drawn = Text("The turn-up ") + card_text(deal.turn_up)
        parts.append(drawn + Text(f" was drawn by {'you' if holder == me else 'the opponent'}."))
    if log:
        parts.append(Panel(Text("\n".join(log[-6:])), title="Log", expand=False))
    if banner:
        title = f"Deal {deal_number} result" if deal_number is not None else "Deal result"
        parts.append(Panel(Text(banner, style="bold"), title=title, expand=False))
    if over is not None:
        parts.append(Text(over, style="bold"))
    elif legal and not waiting:
        choices = Text("Your move: ")
        for i, action in enumerate(legal, 1):
            choices.append(f"{i}) ")
            choices.append_text(action_text(action))
            choices.append("  ")
        if len(legal) == 1:
            choices.append("(Enter plays it)")
        parts.append(choices)
    return Group(*parts)


def table_text(group: Group, width: int = 100) -> str:
    """A table from :func:`table` as plain text (no colour), e.g. for ``render_mode="ansi"``."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, highlight=False).print(group)
    return buffer.getvalue()
