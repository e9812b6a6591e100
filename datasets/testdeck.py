"""A tiny procedurally drawn deck, so the generator can run (and be tested) without the art cache.

Cards carry a rank and a drawn suit shape in two corners and a big pip in the
middle; the index boxes are found by the same ink detection as real decks.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import DECK, Card

from .art_cache import CardArt, make_mips
from .index_box import deck_index_boxes

Image = NDArray[Any]
W, H = 120, 168


def draw_suit(img: Image, suit: str, cx: int, cy: int, r: int, colour: tuple[int, ...]) -> None:
    """A plain suit shape of radius ``r`` centred at (cx, cy), in ``colour`` (one value per channel)."""
    if suit == "d":
        pts = np.array([[cx, cy - r], [cx + int(0.75 * r), cy], [cx, cy + r], [cx - int(0.75 * r), cy]])
        cv2.fillConvexPoly(img, pts, colour, cv2.LINE_AA)
    elif suit == "h":
        cv2.circle(img, (cx - r // 2, cy - r // 3), r // 2 + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r // 2, cy - r // 3), r // 2 + 1, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([[cx - r, cy - r // 4], [cx + r, cy - r // 4], [cx, cy + r]]), colour,
                           cv2.LINE_AA)
    elif suit == "s":
        cv2.fillConvexPoly(img, np.array([[cx, cy - r], [cx + r, cy + r // 3], [cx - r, cy + r // 3]]), colour,
                           cv2.LINE_AA)
        cv2.rectangle(img, (cx - r // 6, cy), (cx + r // 6, cy + r), colour, -1)
    else:
        for dx, dy in ((0, -r // 2), (-r // 2, r // 5), (r // 2, r // 5)):
            cv2.circle(img, (cx + dx, cy + dy), r // 2, colour, -1, cv2.LINE_AA)
        cv2.rectangle(img, (cx - r // 6, cy), (cx + r // 6, cy + r), colour, -1)


def draw_card(card: Card) -> Image:
    rgb = np.full((H, W, 3), 250, np.uint8)
    cv2.rectangle(rgb, (0, 0), (W - 1, H - 1), (120, 120, 120), 1)
    colour = (30, 30, 210) if card.suit.is_red else (20, 20, 20)
    label = "10" if card.rank == 10 else card.rank.symbol
    cv2.putText(rgb, label, (6, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    draw_suit(rgb, card.suit.value, 14, 36, 6, colour)
    corner = rgb[2:48, 2:36].copy()
    rgb[H - 48:H - 2, W - 36:W - 2] = corner[::-1, ::-1]
    draw_suit(rgb, card.suit.value, W // 2, H // 2, 22, colour)
    return np.dstack([rgb, np.full((H, W), 255, np.uint8)])


def procedural_deck() -> CardArt:
    cards = {c: draw_card(c) for c in DECK}
    boxes = deck_index_boxes(cards)
    stack = np.stack([cards[c] for c in DECK])
    box_arr = np.array([boxes[c] for c in DECK], dtype=np.float64)
    return CardArt(name="procedural-test", family="procedural", images=stack, boxes=box_arr, back=None,
                   mips=tuple(make_mips(stack)))
