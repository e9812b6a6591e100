"""The deck's own proportions, from the photo: how tall its cards are in index heights.

A card read from one index gets an outline estimated from that index and the training decks' mean card
(``vision.tiles.CARD_GEOMETRY``: 4.6 index heights tall). Decks with large indices (poker decks' jumbo indices) are
half that: a card read only by its bottom-right index, which the layout turns to find its top-left corner, is then
placed half a card off, often in another row. Where cards show both corners, the distance between the two indices
measures the deck: the outlines of every card are then estimated with its proportions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .thresholds import THRESHOLDS
from .tiles import CARD_GEOMETRY, outline_from_index
from .types import Box, CardDetection, Point, box_centre, box_long_side


def _height(box: Box) -> float:
    return max(box_long_side(box), 1.0)


def size_factor(card: CardDetection) -> float | None:
    """How many times the mean card's width and height this card's are, from the distance between its two opposite
    corner indices (in index heights); None for a card not seen by two opposite corners."""
    if not card.up_either_way or len(card.index_boxes) != 2:
        return None
    a, b = card.index_boxes
    apart = math.dist(box_centre(a), box_centre(b)) / ((_height(a) + _height(b)) / 2)
    g = CARD_GEOMETRY
    # the two index centres lie (s w - 2 cx, s h - 2 cy) index heights apart: solve |that| = apart for s
    w, h, p, q = g["w"], g["h"], 2 * g["cx"], 2 * g["cy"]
    qa, qb, qc = w * w + h * h, w * p + h * q, p * p + q * q - apart * apart
    return (qb + math.sqrt(max(qb * qb - qa * qc, 0.0))) / qa


def deck_factor(cards: Sequence[CardDetection]) -> float | None:
    """The photo's deck size factor (``size_factor``'s median over the cards seen by both corners), or None when
    fewer than ``THRESHOLDS.proportion_cards`` show both."""
    factors = [f for f in map(size_factor, cards) if f is not None]
    if len(factors) < THRESHOLDS.proportion_cards:
        return None
    return float(np.median(factors))


def outline_of(card: CardDetection, geometry: dict[str, float]) -> tuple[Point, Point, Point, Point] | None:
    """``card``'s outline estimated from its indices as ``vision.join`` estimates it, with ``geometry``: from the first
    index, or the mean of the two opposite corners' estimates."""
    if card.up is None or not card.index_boxes:
        return card.outline
    o = outline_from_index(card.index_boxes[0], card.up, geometry)
    if card.up_either_way and len(card.index_boxes) == 2:
        o2 = outline_from_index(card.index_boxes[1], (card.up + 180) % 360, geometry)
        o = tuple(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(o, o2[2:] + o2[:2], strict=True))
    return (o[0], o[1], o[2], o[3])


def with_deck_proportions(cards: Sequence[CardDetection]) -> list[CardDetection]:
    """``cards`` with outlines estimated in the deck's own proportions (``deck_factor``) where they lie outside the
    training decks' (``THRESHOLDS.proportion_range``); else as they are."""
    factor = deck_factor(cards)
    low, high = THRESHOLDS.proportion_range
    if factor is None or low <= factor <= high:
        return list(cards)
    geometry = {**CARD_GEOMETRY, "w": CARD_GEOMETRY["w"] * factor, "h": CARD_GEOMETRY["h"] * factor}
    return [replace(c, outline=outline_of(c, geometry)) for c in cards]


__all__ = ["deck_factor", "outline_of", "size_factor", "with_deck_proportions"]
