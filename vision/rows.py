"""Rows within a seat: head, middle and tail, three bands across the player's view of the cards' top-left corners.

Their direction starts from the cards' own and is searched for the clearest bands. Rows that are not clear (two cards
at one place, a turned card the others do not place) are a problem; a seat short of cards keeps its rows when the
missing cards complete them one way only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

import numpy as np
import numpy.typing as npt

from referee.cards import HAND_SIZE, ROW_NAMES
from referee.cards import ROW_SIZES as SIZE_OF_ROW
from vision.tiles import outline_from_index

from .seats import faces, turned, up_vector
from .thresholds import THRESHOLDS
from .turn import fold_turn
from .types import Box, CardDetection, LaidRows, Problem, SeatLayout, box_centre

ROW_SIZES = tuple(SIZE_OF_ROW[name] for name in ROW_NAMES)  # 3, 5, 5: head, middle, tail


def top_left_index(card: CardDetection) -> Box | None:
    """The index box of ``card`` nearest the top-left corner of its outline as read (for a card read by its
    bottom-right index alone, that index); None without an outline or an index box."""
    if card.outline is None or not card.index_boxes:
        return None
    tl = card.outline[0]
    return min(card.index_boxes, key=lambda b: math.dist(tl, box_centre(b)))


def _anchor(card: CardDetection) -> tuple[float, float]:
    """The card's top-left corner: in overlapped rows it is the part that always shows.

    A card seen by both corners has an outline averaged from the two; its row neighbours, seen by the top-left index
    only, carry that index's estimate (off by the same amount on one deck). So such a card is anchored by its top-left
    index alone, like them."""
    if len(card.index_boxes) == 2 and card.up is not None and (box := top_left_index(card)) is not None:
        return outline_from_index(box, card.up)[0]
    if card.outline is not None:
        return card.outline[0]
    if card.index_boxes:
        x1, y1, x2, y2 = card.index_boxes[0]
        return ((x1 + x2) / 2, (y1 + y2) / 2)
    return card.center


def _anchor_choices(card: CardDetection) -> list[tuple[float, float]]:
    """Where ``card`` may be anchored. One read of an identity twice at the same turn (two indices facing the same way
    are not one card's two corners) is one real index and one misread region (a pip, the next card's index): either may
    be the card's top-left, and the rows decide."""
    if card.up is not None and len(card.index_boxes) == 2 and not card.up_either_way:
        return [outline_from_index(b, card.up)[0] for b in card.index_boxes]
    return [_anchor(card)]


def _row_direction(cards: Sequence[CardDetection], up_deg: float) -> tuple[float, float]:
    """Unit vector along the rows (to the player's right), from the cards' top edges when known."""
    vx = vy = 0.0
    for c in cards:
        if c.outline is not None:
            (x0, y0), (x1, y1) = c.outline[0], c.outline[1]
            length = math.hypot(x1 - x0, y1 - y0) or 1.0
            vx += (x1 - x0) / length
            vy += (y1 - y0) / length
    if vx == vy == 0.0:
        ux, uy = up_vector(up_deg)
        return -uy, ux
    norm = math.hypot(vx, vy)
    return vx / norm, vy / norm


def _cut_in_three(far: npt.NDArray[np.float64], kind: Literal["quicksort", "stable"] = "quicksort"
                  ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Each row of ``far`` (the anchors' distances across the rows, the far side larger) cut into three bands at its
    two widest gaps: the anchors' order (farthest first), the two cuts (sorted: a band ends after each), and the
    separation, the narrower cut over the widest gap left inside a band (inf when none is left). ``kind``: the sort."""
    order = np.argsort(-far, axis=1, kind=kind)
    gaps = -np.diff(np.take_along_axis(far, order, axis=1), axis=1)
    cuts = np.sort(np.argsort(-gaps, axis=1, kind=kind)[:, :2], axis=1)
    if gaps.shape[1] <= 2:
        return order, cuts, np.full(len(far), math.inf)
    inside = gaps.copy()
    np.put_along_axis(inside, cuts, -np.inf, axis=1)
    separation = np.take_along_axis(gaps, cuts, axis=1).min(axis=1) / np.maximum(inside.max(axis=1), 1e-6)
    return order, cuts, separation


def _bands(anchors: list[tuple[float, float]], rx: float, ry: float, up_deg: float) -> tuple[float, list[list[int]]]:
    """Split anchors into three bands across direction (rx, ry): (separation, bands far to near)."""
    ux, uy = up_vector(up_deg)
    nx, ny = (ry, -rx) if ry * ux - rx * uy >= 0 else (-ry, rx)  # normal to the rows, toward the far side
    far = np.array([x * nx + y * ny for x, y in anchors])
    along = np.array([x * rx + y * ry for x, y in anchors])
    orders, cuts, separations = _cut_in_three(far[None])
    order, (first, second) = orders[0], cuts[0].tolist()
    bands = [order[: first + 1], order[first + 1: second + 1], order[second + 1:]]
    return float(separations[0]), [sorted(band.tolist(), key=lambda i: along[i]) for band in bands]


def _fanned_rows(cards: list[CardDetection], up_deg: float) -> tuple[list[CardDetection], ...] | None:
    """Three rows of 3 + 5 + 5 laid as fans (far to near, as ``split_rows``), or None. A fanned row's cards turn a
    little more each along it, so their top-left corners lie on an arc bending toward the player: each anchor's
    distance across the rows is lifted by ``bend`` * (its distance along them from the seat's middle)² / (2 * a card's
    height), for ``bend`` 0.1 to ``THRESHOLDS.row_bends`` / 10 and row directions within
    ``THRESHOLDS.row_tilt_search_deg`` of the cards' own, and the clearest such 3 + 5 + 5 split is kept when its bands
    are ``THRESHOLDS.row_separation`` clear, none has a hole (two neighbours more than ``THRESHOLDS.row_bend_hole``
    times the median spacing apart) and the three lie side by side (``_side_by_side``): 13 cards laid in one line or
    arc as a special hand split clearly only into parts of it one after another, or into its two ends (a hole wide)
    and its middle."""
    heights = [math.dist(c.outline[0], c.outline[3]) for c in cards if c.outline is not None]
    if len(cards) != HAND_SIZE or not heights:
        return None
    height = max(float(np.median(heights)), 1e-6)
    anchors = np.array([_anchor(c) for c in cards], np.float64)
    rx, ry = _row_direction(cards, up_deg)
    ux, uy = up_vector(up_deg)
    offsets = np.radians(np.arange(-THRESHOLDS.row_tilt_search_deg, THRESHOLDS.row_tilt_search_deg + 1))
    dx, dy = rx * np.cos(offsets) - ry * np.sin(offsets), rx * np.sin(offsets) + ry * np.cos(offsets)
    toward_far = np.where(dy * ux - dx * uy >= 0, 1.0, -1.0)  # the normal to the rows, toward the far side
    along = anchors[:, 0][None] * dx[:, None] + anchors[:, 1][None] * dy[:, None]             # (directions, cards)
    across = toward_far[:, None] * (anchors[:, 0][None] * dy[:, None] - anchors[:, 1][None] * dx[:, None])
    lift = (along - np.median(along, axis=1, keepdims=True)) ** 2 / (2 * height)
    bends = 0.1 * np.arange(1, THRESHOLDS.row_bends + 1)
    far = (across[None] + bends[:, None, None] * lift[None]).reshape(-1, len(cards))  # (bends * directions, cards)
    order, cuts, clear = _cut_in_three(far, kind="stable")
    sizes = np.stack([cuts[:, 0] + 1, cuts[:, 1] - cuts[:, 0], len(cards) - 1 - cuts[:, 1]], axis=1)
    fits = (np.sort(sizes, axis=1) == np.array(sorted(ROW_SIZES))).all(axis=1)
    if not fits.any():
        return None
    separation = np.where(fits, clear, -np.inf)
    # the cards' own direction and the least bend win ties, as in split_rows
    penalty = (0.002 * np.abs(np.degrees(offsets))[None] + 0.01 * bends[:, None]).ravel()
    best = int(np.argmax(separation - penalty))
    if separation[best] < THRESHOLDS.row_separation:
        return None
    k = best % len(offsets)
    first, second = int(cuts[best, 0]) + 1, int(cuts[best, 1]) + 1
    if first != ROW_SIZES[0]:
        return None  # rows bent toward the player lift the ends of each row into the next one farther: the head is
        #              left the 3 middle cards of the nearest row
    bands = [sorted(band.tolist(), key=lambda i: along[k, i])
             for band in (order[best, :first], order[best, first:second], order[best, second:])]
    spacings = [float(along[k, b]) - float(along[k, a]) for band in bands for a, b in itertools.pairwise(band)]
    if max(spacings) > THRESHOLDS.row_bend_hole * float(np.median(spacings)):
        return None  # a band with a hole: not a row but the ends of a line or an arc of cards, lifted by the bend
    spans = [(float(along[k, band[0]]), float(along[k, band[-1]])) for band in bands]
    if any(not _side_by_side(spans[i], spans[j]) for i, j in itertools.combinations(range(3), 2)):
        return None  # bands one after another along the rows: parts of one line or arc of cards, not rows
    if not _turned_as_a_fan(cards, bands, along[k]) and _straight_rows_disagree(cards, up_deg, bands):
        return None
    return tuple([cards[i] for i in band] for band in bands)


def _turned_as_a_fan(cards: list[CardDetection], bands: list[list[int]], along: npt.NDArray[np.float64]) -> bool:
    """Whether the cards' own turns (``CardDetection.turn``, measured around their indices) show rows laid as fans:
    along each 5-card row (``along``: each card's place along the rows, to the player's right) the cards turn further
    clockwise card by card, at least ``THRESHOLDS.fan_turn_span`` degrees from end to end, in order (correlation
    ``THRESHOLDS.fan_turn_order``), with a turn told for all but one of its cards. Straight rows with one card pushed
    out of its row keep their cards' turns; a fan's are its own."""
    for band in bands:
        if len(band) != max(ROW_SIZES):
            continue
        told = [(float(along[i]), t) for i in band if (t := cards[i].turn) is not None]
        if len(told) < len(band) - 1:
            return False
        places = np.array([a for a, _ in told])
        middle = float(np.median([t for _, t in told]))
        turns = np.array([middle + fold_turn(t - middle) for _, t in told])  # unfolded about the middle
        if turns.max() - turns.min() < THRESHOLDS.fan_turn_span or places.std() == 0 or turns.std() == 0:
            return False
        if float(np.corrcoef(places, turns)[0, 1]) < THRESHOLDS.fan_turn_order:
            return False
    return True


def _side_by_side(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two rows' extents along the rows (first and last card) overlap by at least half the shorter one: rows
    of one hand lie one above the other."""
    shared = min(a[1], b[1]) - max(a[0], b[0])
    return shared >= 0.5 * min(a[1] - a[0], b[1] - b[0])


def _straight_split(cards: list[CardDetection], up_deg: float) -> tuple[bool, float, list[list[int]]] | None:
    """The clearest split of ``cards`` into three straight bands (see ``split_rows``): whether it is 3 + 5 + 5, its
    separation (less a little for each degree off the cards' own direction), the bands (indices, far to near)."""
    rx, ry = _row_direction(cards, up_deg)
    choices = [_anchor_choices(c) for c in cards]
    open_at = [i for i, ch in enumerate(choices) if len(ch) > 1][:THRESHOLDS.max_open_anchors]
    near, far = THRESHOLDS.row_tilt_search_deg, max(THRESHOLDS.row_turn_search_deg, THRESHOLDS.row_tilt_search_deg)
    best: tuple[bool, float, list[list[int]]] | None = None
    for picks in itertools.product(*(range(len(choices[i])) for i in open_at)):
        anchors = [ch[0] for ch in choices]
        for i, k in zip(open_at, picks, strict=True):
            anchors[i] = choices[i][k]
        splits: list[tuple[int, float, list[list[int]]]] = []
        for offset in range(-far, far + 1):
            a = math.radians(offset)
            dx, dy = rx * math.cos(a) - ry * math.sin(a), rx * math.sin(a) + ry * math.cos(a)
            splits.append((offset, *_bands(anchors, dx, dy, up_deg)))
        clearest_near = max(sep for offset, sep, _ in splits if abs(offset) <= near)
        for offset, separation, bands in splits:
            if abs(offset) > near and separation <= clearest_near:
                continue
            sizes_ok = sorted(len(b) for b in bands) == sorted(ROW_SIZES)
            # the cards' own direction wins ties: search outward from offset 0
            key = (sizes_ok, separation - 0.002 * abs(offset))
            if best is None or key > (best[0], best[1]):
                best = (sizes_ok, key[1], bands)
    return best


def split_rows(cards: list[CardDetection], up_deg: float, fans: bool = True) -> tuple[list[CardDetection], ...] | None:
    """Three rows ordered farthest to nearest in the player's frame, or None if the cards do not form three clearly
    separate rows.

    The rows' direction starts from the cards' own (top edges, or across their facing) and is searched within
    ±THRESHOLDS.row_tilt_search_deg for the clearest three bands, preferring splits that give 3 + 5 + 5. The cards'
    own direction is known only to a quarter turn (an index's box is upright in the photo), so in a photo turned about
    45 deg the rows run further off: out to ±THRESHOLDS.row_turn_search_deg, a direction counts only where its bands
    are clearer than any within the first search (else a 3 + 5 + 5 met by chance across the rows would win). A hand
    of 13 with no clear straight 3 + 5 + 5 may be laid in fanned rows (``_fanned_rows``; ``fans``: looked for)."""
    if len(cards) < 3:
        return None
    best = _straight_split(cards, up_deg)
    if fans and (best is None or not best[0] or best[1] < THRESHOLDS.row_separation):
        fanned = _fanned_rows(cards, up_deg)
        if fanned is not None:
            return fanned
    if best is None or best[1] < THRESHOLDS.row_separation:
        return None
    return tuple([cards[i] for i in band] for band in best[2])


def _straight_rows_disagree(cards: list[CardDetection], up_deg: float, bands: list[list[int]]) -> bool:
    """Whether fanned ``bands`` (indices into ``cards``, far to near) disagree with straight rows: with any one card
    left out, the other 12 may lie in clear straight rows that it completes one way only (rows_fills); the fan must
    then give each of them the same row, and the one left out the row it completes. Straight rows with one card moved
    toward or away from its player show so, and the bend of a fan can lift another card of its row into the next."""
    row_of = {i: r for r, band in enumerate(bands) for i in band}
    for left_out in range(len(cards)):
        rest = [i for i in range(len(cards)) if i != left_out]
        split = _straight_split([cards[i] for i in rest], up_deg)
        if split is None or split[1] < THRESHOLDS.row_separation:
            continue
        straight = [[rest[j] for j in band] for band in split[2]]
        fills = rows_fills(tuple([cards[i] for i in band] for band in straight), 1)
        if len(fills) != 1:
            continue
        lacking = fills[0][1].index(1)
        if any(row_of[i] != r for r, band in enumerate(straight) for i in band) or row_of[left_out] != lacking:
            return True
    return False


def _assign_rows(rows: tuple[list[CardDetection], ...]) -> tuple[list[CardDetection], ...] | None:
    """Head is the 3-card row, middle the 5-card row beside it, tail the other."""
    sizes = [len(r) for r in rows]
    if sorted(sizes) != sorted(ROW_SIZES):
        return None
    if sizes.index(3) == 1:
        return None  # head between the two 5-card rows: which is the middle is not clear
    return (rows[0], rows[1], rows[2]) if sizes.index(3) == 0 else (rows[2], rows[1], rows[0])


def facing_seat(card: CardDetection, up: float) -> CardDetection:
    """A card whose facing is opposite its seat's was read from its bottom-right index: turn it half round (same
    rectangle, corners renamed) so its top-left is the anchor."""
    if card.up is None or faces(card, up):
        return card
    return turned(card)


def quarter_turned_to(card: CardDetection, up: float) -> CardDetection:
    """A one-corner card read a quarter turn off its seat's facing ``up`` (an index lying near 45 degrees reads almost
    as well in two turns) takes the turn nearest the seat's, and the outline that goes with it: its row is found from
    that outline. A card seen by both corners and read a quarter turn off is turned the same way; its top-left index is
    then the one farther toward the seat's facing, and the card is anchored by that index's outline."""
    if card.up is None or len(card.index_boxes) not in (1, 2):
        return card
    off = (up - card.up + 180) % 360 - 180
    if abs(off) < 45:
        return card
    turned = (card.up + 90 * round(off / 90)) % 360
    ux, uy = up_vector(turned)
    top = max(card.index_boxes, key=lambda b: (b[0] + b[2]) * ux + (b[1] + b[3]) * uy)
    o = outline_from_index(top, turned)
    return replace(card, up=turned, outline=(o[0], o[1], o[2], o[3]))


def _turned_ids(read_up: dict[Box, float | None], group: list[CardDetection]) -> set[int]:
    """The cards of ``group`` (by ``id``) read from one index that the layout turned (see ``turned_unclear``)."""
    return {id(g) for g in group if len(g.index_boxes) == 1 and read_up.get(g.index_boxes[0]) not in (None, g.up)}


def rows_fills(bands: tuple[list[CardDetection], ...], missing: int) -> list[tuple[bool, tuple[int, int, int]]]:
    """How ``missing`` more cards can complete three bands (far to near) to 3 + 5 + 5: whether the head is the far band
    (else the near one; see ``_assign_rows``), and the count each band lacks."""
    sizes = [len(b) for b in bands]
    fills = [(far, (t[0] - sizes[0], t[1] - sizes[1], t[2] - sizes[2]))
             for far, t in ((True, ROW_SIZES), (False, ROW_SIZES[::-1]))]
    return [(far, f) for far, f in fills if min(f) >= 0 and sum(f) == missing]


def short_rows(bands: tuple[list[CardDetection], ...] | None, group: list[CardDetection], up: float,
                read_up: dict[Box, float | None]) -> LaidRows | None:
    """A seat short of cards: its rows (head, middle, tail) as laid when its cards show three rows that the missing
    cards complete to 3 + 5 + 5 one way only, no card read twice may lie in either of two rows (``either_row``), no two
    cards lie at one place in a row (``_stacked_in_a_row``), and the cards placed by an outline estimated from a turned
    corner (``turned_unclear``), if any, are where the other cards alone say; else None."""
    if bands is None or len(group) >= HAND_SIZE:
        return None
    if either_row(bands, up):
        return None
    turned = _turned_ids(read_up, group)
    if turned:
        if len(turned) > THRESHOLDS.max_turned:
            return None
        alone, alone_fills = _without_turned(turned, group, up)
        # with more than one row short without them, the turned cards' rows are their outline estimates' word alone
        # against the cards not seen, and an estimate off by a row puts a card not seen in the wrong row
        if not _turned_placed(turned, bands, alone, alone_fills) or sum(n > 0 for n in alone_fills[0][1]) != 1:
            return None
    fills = rows_fills(bands, HAND_SIZE - len(group))
    if len(fills) != 1 or _stacked_in_a_row(bands, up) is not None:
        return None
    if _holed_but_full(bands, fills[0][1], up):
        return None
    head, middle, tail = (tuple(b) for b in (bands if fills[0][0] else bands[::-1]))
    return head, middle, tail


def _holed_but_full(bands: tuple[list[CardDetection], ...], lacking: tuple[int, int, int], up: float) -> bool:
    """Whether a band of a short seat that lacks no card (``lacking``: what each band lacks) shows a hole: two
    neighbours along it further apart than ``THRESHOLDS.hole`` times the seat's median spacing. A card not seen lies
    there, so the band the count says is short has a card of this one (moved or misplaced by its outline)."""
    spacings = [[gap for gap, _, _ in band] for band in row_neighbours(bands, up)]
    every = [g for gaps in spacings for g in gaps]
    if len(every) < 4:
        return False
    median = float(np.median(every))
    return any(n == 0 and gaps and max(gaps) > THRESHOLDS.hole * median for n, gaps in zip(lacking, spacings,
                                                                                          strict=True))


def either_row(bands: tuple[list[CardDetection], ...], up: float) -> bool:
    """A card read twice at one turn (``_anchor_choices``) whose two anchors lie nearest different rows: the other read
    may be the index of the card missing from that row (a misread of the same identity as its neighbour), so which row
    is short is not known."""
    ux, uy = up_vector(up)
    far = [float(np.median([x * ux + y * uy for x, y in map(_anchor, band)])) for band in bands]

    def row(point: tuple[float, float]) -> int:
        return int(np.argmin([abs(point[0] * ux + point[1] * uy - f) for f in far]))

    return any(len({row(a) for a in _anchor_choices(c)}) > 1 for band in bands for c in band)


def row_neighbours(bands: tuple[list[CardDetection], ...], up: float
                ) -> list[list[tuple[float, CardDetection, CardDetection]]]:
    """Per band, each two cards next to each other along the rows: their distance along the rows, and the two."""
    rx, ry = _row_direction([c for b in bands for c in b], up)
    out = []
    for band in bands:
        along = sorted((((x * rx + y * ry), c) for c in band for x, y in [_anchor(c)]), key=lambda t: t[0])
        out.append([(b - a, ca, cb) for (a, ca), (b, cb) in itertools.pairwise(along)])
    return out


def _stacked_in_a_row(bands: tuple[list[CardDetection], ...], up: float) -> tuple[CardDetection, CardDetection] | None:
    """Two cards of one row that lie at the same place along it, or None. One of them is not of that row: a card
    anchored into it from the next row (a full seat shows that by a row too long, 3 + 6 + 4; a short seat cannot when
    the row it left is the one a card is missing from), or a read on another card (a pip, a misread corner): closer
    than ``THRESHOLDS.same_place``."""
    pairs = [pair for band in row_neighbours(bands, up) for pair in band]
    if len(pairs) < 2:
        return None
    gap, first, second = min(pairs, key=lambda p: p[0])
    return (first, second) if gap < THRESHOLDS.same_place * float(np.median([p[0] for p in pairs])) else None


def _without_turned(turned: set[int], group: list[CardDetection], up: float
                    ) -> tuple[tuple[list[CardDetection], ...] | None, list[tuple[bool, tuple[int, int, int]]]]:
    """The rows the cards of ``group`` other than the ``turned`` ones show split on their own, and the ways the cards
    left out complete them to 3 + 5 + 5 (``rows_fills``)."""
    alone = split_rows([g for g in group if id(g) not in turned], up)
    return alone, [] if alone is None else rows_fills(alone, HAND_SIZE - sum(len(b) for b in alone))


def _turned_placed(turned: set[int], bands: tuple[list[CardDetection], ...],
                   alone: tuple[list[CardDetection], ...] | None, fills: list[tuple[bool, tuple[int, int, int]]]
                   ) -> bool | None:
    """Whether the ``turned`` cards (see ``turned_unclear``) lie in the rows the other cards of the seat, split on their
    own (``alone``, ``fills``: ``_without_turned``), give, those rows completed to 3 + 5 + 5 one way only; None when
    the others alone show no rows the cards left out complete."""
    if alone is None or not fills:
        return None
    return len(fills) == 1 and [{id(c) for c in b if id(c) not in turned} for b in bands] == [{id(c) for c in b}
                                                                                             for b in alone]


def turned_unclear(read_up: dict[Box, float | None], group: list[CardDetection], up: float,
                    bands: tuple[list[CardDetection], ...]) -> CardDetection | None:
    """A card read from one index that the layout turned to its seat's facing (its bottom-right index, or one read a
    quarter turn off) is anchored by an outline estimated from that index: on a turned or fanned hand of small cards
    the estimate can be off by a card's width and land in the next row. The other cards check it: split into rows on
    their own, when they can be completed to 3 + 5 + 5, they must give the same rows as with the turned cards, and the
    places they leave short must be filled one way only (the head at one end or the other). Otherwise the first turned
    card (the rows are not clear), else None. A few such cards only: when most of a seat is read from the far corners,
    their estimates err alike."""
    turned = _turned_ids(read_up, group)
    if not turned or len(turned) > THRESHOLDS.max_turned:
        return None
    if _turned_placed(turned, bands, *_without_turned(turned, group, up)) is not False:
        return None
    return next(g for g in group if id(g) in turned)


def seat_layout(seat: str, group: list[CardDetection], up: float, problems: list[Problem],
                 read_up: dict[Box, float | None], fans: bool = True) -> SeatLayout:
    """``read_up``: each index's facing as read (before the layout turned any card), by index box. ``fans``: rows laid
    as fans are looked for (``split_rows``)."""
    group = [quarter_turned_to(facing_seat(c, up), up) for c in group]
    bands = split_rows(group, up, fans)
    short = short_rows(bands, group, up, read_up)
    if len(group) != HAND_SIZE:
        lacking = "" if short is None else " (" + ", ".join(
            f"the {name} is {size - len(row)} short"
            for name, row, size in zip(ROW_NAMES, short, ROW_SIZES, strict=True)
            if len(row) < size) + ")"
        problems.append(Problem(kind="card_count", seat=seat,
                                message=f"{seat}: {len(group)} cards found, a hand has {HAND_SIZE}{lacking}"))
    rows = _assign_rows(bands) if bands is not None else None
    if rows is not None and (stacked := _stacked_in_a_row(rows, up)) is not None:
        one, other = stacked
        problems.append(Problem(kind="row_size", seat=seat, card=str(one.card),
                                message=f"{seat}: the rows are not clear: {one.card} and {other.card} lie at one "
                                        "place in a row (a card from the next row, or a read on another card)"))
    unclear = turned_unclear(read_up, group, up, bands) if bands is not None and rows is not None else None
    if unclear is not None:
        problems.append(Problem(kind="row_size", seat=seat, card=str(unclear.card),
                                message=f"{seat}: the rows are not clear: {unclear.card} was read only from a "
                                        "corner turned away from the seat, and the other cards do not show "
                                        "which row it is in"))
    if rows is None:
        if len(group) == HAND_SIZE:
            problems.append(Problem(kind="no_rows", seat=seat, blocking=False,
                                    message=f"{seat}: 13 cards not laid as 3 + 5 + 5 rows; judged as a special hand"))
        else:
            sizes = " + ".join(str(len(b)) for b in bands) if bands else "?"
            problems.append(Problem(kind="row_size", seat=seat,
                                    message=f"{seat}: rows of {sizes} cards; expected 3 + 5 + 5"))
        return SeatLayout(seat=seat, cards=tuple(group), rows=None, short_rows=short)
    head, middle, tail = (tuple(r) for r in rows)
    return SeatLayout(seat=seat, cards=tuple(c for r in rows for c in r), rows=(head, middle, tail))
