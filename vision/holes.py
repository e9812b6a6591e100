"""Holes in a row: where the index of a card the index finder missed must lie.

In a tight row each card leaves only a strip of its index showing, and stage 1 misses some of them. A seat short of
cards whose row shows two neighbours about twice the seat's spacing apart has a card between them, and its top-left
index lies halfway between theirs; a row the seat's other rows say is short, with no such hole, has it past one of
its ends. ``hole_boxes`` gives those places, for the readers to be asked about them (``CardDetector.read_holes``): a
card is read there only if the readers read an index there the way its neighbours face, as an identity no card holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from referee.cards import HAND_SIZE

from .rows import facing_seat, quarter_turned_to, row_neighbours, rows_fills, split_rows, top_left_index
from .seats import grouped
from .thresholds import THRESHOLDS
from .types import Box, CardDetection


def _along(a: Box, b: Box, t: float) -> Box:
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2]), a[3] + t * (b[3] - a[3]))


def cards_between(gap: float, median: float) -> int:
    """How many cards lie between two neighbours ``gap`` apart along a row whose median spacing is ``median``
    (0 when the gap is no clear whole number of spacings).

    >>> cards_between(2.1, 1.0), cards_between(1.4, 1.0), cards_between(2.5, 1.0), cards_between(3.1, 1.0)
    (1, 0, 0, 2)
    """
    t = THRESHOLDS
    ratio = gap / median if median > 0 else 0.0
    k = round(ratio) - 1
    if ratio < t.hole_min or not 1 <= k <= t.max_in_a_hole or abs(ratio - (k + 1)) > t.hole_slack:
        return 0
    return k


@dataclass(frozen=True)
class Hole:
    """A place where a card not read may lie: its index box and facing. The holes of one ``group`` are
    alternatives: at most ``room`` of them hold a card (the two ends of a row short of a card)."""

    box: Box
    facing: float
    group: int
    room: int = 1


def _same_way(cards: list[CardDetection]) -> bool:
    ups = [c.up for c in cards]
    return all(u is not None for u in ups) and all(abs(((u or 0.0) - (ups[0] or 0.0)) % 360) < 1 for u in ups)


def hole_boxes(cards: list[CardDetection], ends: bool = True) -> list[Hole]:
    """The places where cards not read lie in a seat short of cards. Between two read neighbours of a row read
    the same way up whose gap is a whole number of the seat's median spacings (``cards_between``): evenly between
    their index boxes, the widest gaps first, at most as many places as the seat lacks cards. With ``ends``, a row
    that the seat's other rows say is short (``rows.rows_fills``, one way only) and shows no such gap: a spacing past
    each of its ends, one group (the card lies at one end)."""
    out: list[Hole] = []
    for group, up in grouped(cards):
        if not 4 <= len(group) < HAND_SIZE:
            continue
        turned = [quarter_turned_to(facing_seat(c, up), up) for c in group]
        original = dict(zip(map(id, turned), group, strict=True))
        bands = split_rows(turned, up)
        if bands is None:
            continue
        per_band = row_neighbours(bands, up)
        pairs = [p for band in per_band for p in band]
        if len(pairs) < THRESHOLDS.hole_min_gaps:
            continue
        median = float(np.median([gap for gap, _, _ in pairs]))
        found: list[tuple[float, Box, float]] = []
        gapped: set[int] = set()
        for b, band in enumerate(per_band):
            for gap, a, c in band:
                ca, cc = original[id(a)], original[id(c)]
                k = cards_between(gap, median)
                if k == 0 or not _same_way([ca, cc]):
                    continue
                ba, bc = top_left_index(ca), top_left_index(cc)
                if ba is not None and bc is not None and ca.up is not None:
                    found.extend((gap, _along(ba, bc, j / (k + 1)), ca.up) for j in range(1, k + 1))
                    gapped.add(b)
        found.sort(key=lambda f: -f[0])
        lacking = HAND_SIZE - len(group)
        out.extend(Hole(box, facing, len(out) + i) for i, (_, box, facing) in enumerate(found[:lacking]))
        fills = rows_fills(bands, lacking)
        if not ends or len(fills) != 1 or len(found) >= lacking:
            continue
        for b, (band, short) in enumerate(zip(per_band, fills[0][1], strict=True)):
            if short == 0 or b in gapped or len(band) < 1:
                continue
            line = [original[id(band[0][1])]] + [original[id(c)] for _, _, c in band]
            if not _same_way(line) or line[0].up is None:
                continue
            boxes = [top_left_index(c) for c in line]
            if any(x is None for x in boxes):
                continue
            first, second, last, before = boxes[0], boxes[1], boxes[-1], boxes[-2]
            assert first is not None and second is not None and last is not None and before is not None
            n = len(out)
            for j in range(1, short + 1):
                out.append(Hole(_along(first, second, -j), line[0].up, n, short))
                out.append(Hole(_along(last, before, -j), line[0].up, n, short))
    return out


__all__ = ["Hole", "cards_between", "hole_boxes"]
