"""Where a card points and how big it is in the photo: the measures the layout's modules share."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .thresholds import THRESHOLDS
from .types import CardDetection


def up_vector(angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return math.sin(a), -math.cos(a)



def card_size(card: CardDetection) -> float:
    """The card's height in pixels, from its outline or its index box."""
    if card.outline is not None:
        pts = np.array(card.outline)
        return float(np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1).max())
    if card.index_boxes:
        x1, y1, x2, y2 = card.index_boxes[0]
        return max(x2 - x1, y2 - y1) * THRESHOLDS.index_to_card
    x1, y1, x2, y2 = card.box
    return max(x2 - x1, y2 - y1)



def median_size(cards: Sequence[CardDetection]) -> float:
    return float(np.median([card_size(c) for c in cards]))



def out_of_scale(card: CardDetection, median: float) -> bool:
    """``card`` is far smaller or larger than cards of ``median`` size (``THRESHOLDS.clutter_scale``)."""
    return not THRESHOLDS.clutter_scale <= card_size(card) / median <= 1 / THRESHOLDS.clutter_scale



def in_scale(card: CardDetection, median: float) -> bool:
    """``card`` is the size of cards of ``median`` size (``THRESHOLDS.in_scale``)."""
    return THRESHOLDS.in_scale[0] <= card_size(card) / median <= THRESHOLDS.in_scale[1]



def turned(card: CardDetection) -> CardDetection:
    """The same card facing the other way (same rectangle, corners renumbered)."""
    if card.up is None:
        return card
    o = card.outline
    return replace(card, up=(card.up + 180) % 360, outline=None if o is None else (o[2], o[3], o[0], o[1]))



def faces(card: CardDetection, up: float) -> bool:
    """The card's top points within 90 degrees of ``up`` (a seat's facing)."""
    return card.up is not None and abs((card.up - up + 180) % 360 - 180) <= 90



def linked(x: CardDetection, y: CardDetection) -> float | None:
    """The distance between two cards when they lie in one player's area (closer than
    THRESHOLDS.link_card_heights of the larger one's height, as in ``components``), else None."""
    d = math.hypot(x.center[0] - y.center[0], x.center[1] - y.center[1])
    return d if d < THRESHOLDS.link_card_heights * max(card_size(x), card_size(y)) else None
