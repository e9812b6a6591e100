"""Holes in a row: where the index of a card the index finder missed must lie.

In a tight row each card leaves only a strip of its index showing, and stage 1 misses some of them. A seat short of
cards whose row shows two neighbours about twice the seat's spacing apart has a card between them, and its top-left
index lies halfway between theirs. ``hole_boxes`` gives those places, for the readers to be asked about them
(``CardDetector.detect``): a card is read there only if the readers read an index there the way its neighbours face.
"""

from __future__ import annotations

import math

import numpy as np

from referee.cards import HAND_SIZE

from .rows import facing_seat, quarter_turned_to, row_neighbours, split_rows
from .seats import grouped
from .types import Box, CardDetection

HOLE_MIN = 1.6     # two neighbours at least this many median spacings apart have a card between them
HOLE_SLACK = 0.45  # ... k cards when (k + 1) +- this many spacings apart
MAX_IN_A_HOLE = 3  # at most this many cards between two neighbours
MIN_GAPS = 4       # a seat's median spacing from at least this many neighbours


def _top_left_box(card: CardDetection) -> Box | None:
    """The index box the card was read by that is nearest the top-left corner of its outline as read (for a card
    read by its bottom-right index alone, that index). None without an outline."""
    if card.outline is None or not card.index_boxes:
        return None
    tl = card.outline[0]
    return min(card.index_boxes, key=lambda b: math.dist(tl, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)))


def _along(a: Box, b: Box, t: float) -> Box:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]), a[3] + t * (b[3] - a[3]))


def cards_between(gap: float, median: float) -> int:
    """How many cards lie between two neighbours ``gap`` apart along a row whose median spacing is ``median``
    (0 when the gap is no clear whole number of spacings).

    >>> cards_between(2.1, 1.0), cards_between(1.4, 1.0), cards_between(2.5, 1.0), cards_between(3.1, 1.0)
    (1, 0, 0, 2)
    """
    ratio = gap / median if median > 0 else 0.0
    k = round(ratio) - 1
    if ratio < HOLE_MIN or not 1 <= k <= MAX_IN_A_HOLE or abs(ratio - (k + 1)) > HOLE_SLACK:
        return 0
    return k


def hole_boxes(cards: list[CardDetection]) -> list[tuple[Box, float]]:
    """The places (index box, the glyph's facing) where cards not read lie between two read neighbours of a row:
    per seat short of cards, each two neighbours along a row read the same way up whose gap is a whole number of
    the seat's median spacings (``cards_between``), evenly between their index boxes; the widest gaps first, at
    most as many places as the seat lacks cards."""
    out: list[tuple[Box, float]] = []
    for group, up in grouped(cards):
        if not 4 <= len(group) < HAND_SIZE:
            continue
        turned = [quarter_turned_to(facing_seat(c, up), up) for c in group]
        original = dict(zip(map(id, turned), group, strict=True))
        bands = split_rows(turned, up)
        if bands is None:
            continue
        pairs = [p for band in row_neighbours(bands, up) for p in band]
        if len(pairs) < MIN_GAPS:
            continue
        median = float(np.median([gap for gap, _, _ in pairs]))
        found: list[tuple[float, Box, float]] = []
        for gap, a, b in pairs:
            ca, cb = original[id(a)], original[id(b)]
            k = cards_between(gap, median)
            if k == 0 or ca.up is None or cb.up is None or abs((ca.up - cb.up) % 360) > 1:
                continue
            ba, bb = _top_left_box(ca), _top_left_box(cb)
            if ba is not None and bb is not None:
                found.extend((gap, _along(ba, bb, j / (k + 1)), ca.up) for j in range(1, k + 1))
        found.sort(key=lambda f: -f[0])
        out.extend((box, facing) for _, box, facing in found[:HAND_SIZE - len(group)])
    return out


__all__ = ["cards_between", "hole_boxes"]
