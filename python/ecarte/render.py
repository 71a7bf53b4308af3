"""A picture of a duel table, for ``render_mode="rgb_array"`` (videos, dashboards).

:func:`table_image` draws a deal as one seat sees it, 640 × 400 pixels: the seat's hand, the
trump and the turn-up, the trick on the table and the last trick, the match score, the
talon count, who deals and whose turn it is. It shows only what that seat may know.
Drawn with Pillow, an optional extra (the ``[render]`` extra); the suits are
drawn as shapes, so no font with suit symbols is needed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._core import Card, Suit
from ecarte._frameworks import missing
from ecarte._public import api_dir
from ecarte.duel import Deal

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as exc:
    raise missing("Pillow", "render") from exc

__all__ = ["HEIGHT", "WIDTH", "table_image"]
__dir__ = api_dir(globals())

WIDTH, HEIGHT = 640, 400

FELT = (22, 96, 56)
INK = (245, 245, 235)
DIM = (170, 205, 180)
RED = (200, 30, 40)
BLACK = (20, 20, 20)
CARD_FACE = (252, 250, 244)
CARD_BACK = (40, 60, 140)
HIGHLIGHT = (250, 205, 60)

CARD_W, CARD_H = 62, 90


def _font(size: int) -> Any:
    return ImageFont.load_default(size=size)


def _suit_shape(draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, r: float) -> None:
    """The suit's shape centred on ``(cx, cy)``, about ``2r`` across."""
    colour = RED if suit in (Suit.Hearts, Suit.Diamonds) else BLACK
    lobe = r * 0.52
    if suit == Suit.Diamonds:
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], colour)
    elif suit == Suit.Hearts:
        for dx in (-lobe, lobe):
            draw.ellipse(
                [cx + dx - lobe, cy - r * 0.55 - lobe, cx + dx + lobe, cy - r * 0.55 + lobe], colour
            )
        draw.polygon(
            [(cx - 2 * lobe, cy - r * 0.45), (cx + 2 * lobe, cy - r * 0.45), (cx, cy + r)], colour
        )
    elif suit == Suit.Spades:
        for dx in (-lobe, lobe):
            draw.ellipse(
                [cx + dx - lobe, cy + r * 0.2 - lobe, cx + dx + lobe, cy + r * 0.2 + lobe], colour
            )
        draw.polygon(
            [(cx - 2 * lobe, cy + r * 0.1), (cx + 2 * lobe, cy + r * 0.1), (cx, cy - r)], colour
        )
        draw.polygon([(cx, cy + r * 0.2), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], colour)
    else:  # clubs
        small = r * 0.42
        for dx, dy in ((0.0, -r * 0.45), (-r * 0.45, r * 0.1), (r * 0.45, r * 0.1)):
            draw.ellipse(
                [cx + dx - small, cy + dy - small, cx + dx + small, cy + dy + small], colour
            )
        draw.polygon([(cx, cy), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], colour)


def _card(
    draw: ImageDraw.ImageDraw, card: Card | None, x: float, y: float, scale: float = 1.0
) -> None:
    """A card face (or its back, for ``None``) with its top-left corner at ``(x, y)``."""
    w, h = CARD_W * scale, CARD_H * scale
    if card is None:
        draw.rounded_rectangle(
            [x, y, x + w, y + h], radius=6 * scale, fill=CARD_BACK, outline=INK, width=2
        )
        draw.rounded_rectangle([x + 6, y + 6, x + w - 6, y + h - 6], radius=4 * scale, outline=DIM)
        return
    draw.rounded_rectangle(
        [x, y, x + w, y + h], radius=6 * scale, fill=CARD_FACE, outline=BLACK, width=1
    )
    suit = card.suit
    colour = RED if suit in (Suit.Hearts, Suit.Diamonds) else BLACK
    rank = card.rank.letter
    draw.text(
        (x + 5 * scale, y + 3 * scale),
        "10" if rank == "T" else rank,
        fill=colour,
        font=_font(int(18 * scale)),
    )
    _suit_shape(draw, suit, x + w / 2, y + h * 0.6, 17 * scale)


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = 15,
    fill: tuple[int, int, int] = INK,
) -> None:
    draw.text(xy, text, fill=fill, font=_font(size))


def table_image(
    deal: Deal,
    seat: int,
    *,
    score: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> npt.NDArray[np.uint8]:
    """``deal`` as ``seat`` sees it, with the match ``score`` (to ``target``, default the
    rules'): an RGB array of shape ``(400, 640, 3)``."""
    me = seat
    obs = deal.observation(me, score)
    target = deal.rules.target if target is None else target
    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)

    # The top line: score, dealer, phase.
    _text(draw, (16, 10), f"Score  you {score[me]} - opponent {score[1 - me]}   (to {target})", 17)
    dealer = "you deal" if deal.dealer == me else "opponent deals"
    _text(
        draw,
        (16, 34),
        f"{dealer}   ·   phase: {obs.phase}   ·   exchanges: {obs.exchanges}",
        13,
        DIM,
    )
    taken, tricks = obs.cards_taken, obs.tricks_taken
    _text(draw, (420, 10), f"Tricks  you {tricks[me]}  opp. {tricks[1 - me]}", 14)
    _text(draw, (420, 30), f"Cards   you {taken[me]}  opp. {taken[1 - me]}", 14)

    # The trump: its suit and the turn-up card.
    _text(draw, (16, 64), "Trump", 15)
    _suit_shape(draw, obs.trump, 90, 75, 12)
    _card(draw, obs.turn_up, 16, 92)
    holder = obs.turn_up_holder
    if holder is not None:
        _text(draw, (16, 188), f"drawn by {'you' if holder == me else 'opp.'}", 12, DIM)

    # The talon: a card back and its count.
    _text(draw, (540, 64), f"Talon {obs.talon_size}", 15)
    if obs.talon_size:
        _card(draw, None, 548, 92)

    # The trick on the table, and the last trick.
    _text(draw, (250, 64), "Trick", 15)
    if obs.lead is not None:
        _card(draw, obs.lead, 250, 92)
    else:
        draw.rounded_rectangle([250, 92, 250 + CARD_W, 92 + CARD_H], radius=6, outline=DIM)
    if obs.tricks:
        last = obs.tricks[-1]
        _text(draw, (360, 64), f"Last trick ({'you' if last.winner == me else 'opp.'})", 13, DIM)
        _card(draw, last.cards[0], 360, 92, 0.8)
        _card(draw, last.cards[1], 416, 92, 0.8)

    # The hand, and whose turn it is.
    turn = obs.current_player
    label = "Your hand" + (
        "  -  your turn" if turn == me else "  -  opponent to play" if turn is not None else ""
    )
    _text(draw, (16, 232), label, 16, HIGHLIGHT if turn == me else INK)
    for k, card in enumerate(obs.hand):
        _card(draw, card, 16 + k * (CARD_W + 10), 262)
    if obs.discards:
        _text(draw, (420, 232), "Your discards", 13, DIM)
        for k, card in enumerate(obs.discards[-6:]):
            _card(draw, card, 420 + k * 34, 262, 0.7)
    outcome = deal.outcome()
    if outcome is not None:
        won = outcome.winner == me
        points = f"{outcome.points} point{'s' if outcome.points > 1 else ''}"
        _text(
            draw,
            (16, 364),
            f"Deal over: {'you win' if won else 'opponent wins'} {points}",
            18,
            HIGHLIGHT,
        )
    return np.asarray(image, dtype=np.uint8)
