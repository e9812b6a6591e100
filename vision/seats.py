"""Which cards are one player's, and where a card points and how big it is (the measures the layout shares).

Each player's cards face them (the card's top points away from its player): cards are grouped by facing, then by
position; groups a corner index's ambiguity split (read from the bottom-right corner, a hand fanned through a quarter
turn) are merged, a seat read upside down is turned, a card given to the wrong seat (its scale, its turn) goes back.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from referee.cards import HAND_SIZE

from .thresholds import THRESHOLDS
from .types import CardDetection


def up_vector(angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return math.sin(a), -math.cos(a)


def card_size(card: CardDetection, widened: tuple[float, float] = (1.0, 1.0)) -> float:
    """The card's height in pixels, from its outline or its index box; measured in the photo widened ``widened``
    times along x and y (``Detections.widened``: a squashed photo read in its camera's frame)."""
    sx, sy = widened
    if card.outline is not None:
        pts = np.array(card.outline) * (sx, sy)
        return float(np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1).max())
    if card.index_boxes:
        x1, y1, x2, y2 = card.index_boxes[0]
        return max((x2 - x1) * sx, (y2 - y1) * sy) * THRESHOLDS.index_to_card
    x1, y1, x2, y2 = card.box
    return max((x2 - x1) * sx, (y2 - y1) * sy)


def median_size(cards: Sequence[CardDetection]) -> float:
    return float(np.median([card_size(c) for c in cards]))


def out_of_scale(card: CardDetection, median: float) -> bool:
    """``card`` is far smaller or larger than cards of ``median`` size (``THRESHOLDS.clutter_scale``)."""
    low, high = THRESHOLDS.clutter_scale
    return not low <= card_size(card) / median <= high


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
    """The distance between two cards when they lie in one player's area (closer than THRESHOLDS.link_card_heights of
    the larger one's height, as in ``components``), else None."""
    d = math.hypot(x.center[0] - y.center[0], x.center[1] - y.center[1])
    return d if d < THRESHOLDS.link_card_heights * max(card_size(x), card_size(y)) else None


def grouped(cards: list[CardDetection]) -> list[Group]:
    """The cards (read once each) grouped into seats, each with its facing."""
    return give_back_misturned(to_the_seat_of_its_size(face_the_table(seat_groups(orient_either_way(cards)))))


def _circular_clusters(angles: list[float]) -> list[list[int]]:
    """Split facing angles (degrees) into groups at gaps wider than ``THRESHOLDS.angle_gap_deg``."""
    if not angles:
        return []
    order = sorted(range(len(angles)), key=lambda i: angles[i] % 360)
    values, n = [angles[i] % 360 for i in order], len(angles)
    cuts = [k for k in range(n) if (values[(k + 1) % n] - values[k]) % 360 > THRESHOLDS.angle_gap_deg] if n > 1 else []
    if not cuts:
        return [order]
    # each group runs from just past one cut round to the next cut
    return [[order[k % n] for k in range(cut + 1, cut + 2 + (cuts[(j + 1) % len(cuts)] - cut - 1) % n)]
            for j, cut in enumerate(cuts)]


def components(points: np.ndarray, sizes: np.ndarray) -> list[list[int]]:
    """Connected components of cards closer than THRESHOLDS.link_card_heights of the larger one's height (a local
    scale: perspective makes near cards larger)."""
    n = len(points)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n:
        dist = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
        link = THRESHOLDS.link_card_heights * np.maximum(sizes[:, None], sizes[None, :])
        for i, j in zip(*np.nonzero(np.triu(dist < link, 1)), strict=True):
            parent[find(int(i))] = find(int(j))
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(n):
        groups[find(i)].append(i)
    return list(groups.values())


def _mean_angle(angles: Sequence[float]) -> float:
    s = sum(math.sin(math.radians(a)) for a in angles)
    c = sum(math.cos(math.radians(a)) for a in angles)
    return math.degrees(math.atan2(s, c)) % 360


def seat_name(up_deg: float) -> str:
    """Seat by where the player sits: opposite the direction the cards' tops face."""
    names = ("bottom", "left", "top", "right")  # card tops facing up, right, down, left
    return names[int(((up_deg + 45) % 360) // 90)]


Group = tuple[list[CardDetection], float]  # a seat's cards and their mean facing


def _touching(a: list[CardDetection], b: list[CardDetection]) -> bool:
    return any(linked(x, y) is not None for x in a for y in b)


def _merge_into_larger(groups: list[Group], turn_apart: Callable[[float], bool],
                       fit: Callable[[CardDetection], CardDetection]) -> list[Group]:
    """Each group, smallest last, merged into a larger group it touches whose facing differs from its own by a turn
    ``turn_apart`` accepts, when the two together hold no more than one hand (two players' hands are too many cards to
    merge); merged cards pass through ``fit``."""
    out: list[Group] = []
    for group, up in sorted(groups, key=lambda g: -len(g[0])):
        host = next((h for h in out if turn_apart(abs((h[1] - up + 180) % 360 - 180))
                     and len(h[0]) + len(group) <= HAND_SIZE and _touching(group, h[0])), None)
        if host is None:
            out.append((list(group), up))
        else:
            host[0].extend(fit(c) for c in group)
    return out


def seat_groups(cards: list[CardDetection]) -> list[Group]:
    """Cards grouped by facing direction, then by position; each with its mean facing angle."""
    oriented = [c for c in cards if c.up is not None]
    groups: list[Group] = []
    for idx in _circular_clusters([c.up for c in oriented if c.up is not None]):
        members = [oriented[i] for i in idx]
        pts = np.array([m.center for m in members])
        for comp in components(pts, np.array([card_size(m) for m in members])):
            group = [members[i] for i in comp]
            groups.append((group, _mean_angle([g.up for g in group if g.up is not None])))
    # A corner index alone cannot tell top-left from bottom-right (the two look the same, turned half round): cards
    # read from their bottom-right corners seem to face the other way and form a group of their own, part of the larger
    # group facing opposite that they touch (turned and merged). A hand laid in a fan or an arc (13 cards in a free
    # shape) splits into groups a quarter turn apart (merged, facing the larger group's way). Two players facing each
    # other or at right angles hold a hand each: too many cards to merge.
    groups = _merge_into_larger(groups, lambda turn: turn > 135, turned)
    groups = _merge_into_larger(groups, lambda turn: 45 < turn <= 135, lambda card: card)
    # Cards without a facing direction, and small stray groups, join the seat they lie in.
    loose = [c for c in cards if c.up is None] + [c for group, _ in groups if len(group) < 4 for c in group]
    big = [g for g in groups if len(g[0]) >= 4]
    leftover: list[CardDetection] = []
    for c in loose:
        target = _nearest_group(c, big)
        if target is None:
            leftover.append(c)
        else:
            target[0].append(c)
    if leftover:
        big.append((leftover, _mean_angle([c.up for c in leftover if c.up is not None] or [0.0])))
    return big


def _nearest_group(card: CardDetection, groups: list[Group]) -> Group | None:
    """The not-yet-full seat this card lies in, if any."""
    best, best_d = None, math.inf
    for g in groups:
        if len(g[0]) >= HAND_SIZE:
            continue
        for m in g[0]:
            d = linked(card, m)
            if d is not None and d < best_d:
                best, best_d = g, d
    return best


def face_the_table(groups: list[Group]) -> list[Group]:
    """Players' cards face the middle of the table. A seat whose cards all seem to face away from it was read upside
    down (an index looks much the same turned half round): turn it."""
    big = [g for g in groups if len(g[0]) >= 4]
    if len(big) < 2:
        return groups
    centres = [np.mean([c.center for c in g], axis=0) for g, _ in big]
    middle = np.mean(centres, axis=0)
    out = []
    for group, up in groups:
        if len(group) >= 4:
            away = np.mean([c.center for c in group], axis=0) - middle
            norm = float(np.linalg.norm(away))
            ux, uy = up_vector(up)
            if norm > 0 and (ux * away[0] + uy * away[1]) / norm > THRESHOLDS.facing_away_cos:
                up = (up + 180) % 360
        out.append((group, up))
    return out


def to_the_seat_of_its_size(groups: list[Group]) -> list[Group]:
    """A card far smaller or larger than its seat's cards (``THRESHOLDS.clutter_scale``) is not one of them. When it
    lies beside a seat whose cards are its size (``THRESHOLDS.in_scale``), facing that seat once turned or as it is (a
    far player's card read from its bottom-right index joins the near player), it moves there; a seat then holding more
    than a hand gives back a card (``give_back_misturned``)."""
    seats = [(group, up, median_size(group)) for group, up in groups if len(group) >= 4]
    for group, _up, median in seats:
        for card in [c for c in group if out_of_scale(c, median)]:
            for target, t_up, t_median in seats:
                if (target is group or not in_scale(card, t_median)
                        or card.up is None or not any(linked(card, m) is not None for m in target)):
                    continue
                group.remove(card)
                target.append(card if faces(card, t_up) else turned(card))
                break
    return groups


def give_back_misturned(groups: list[Group]) -> list[Group]:
    """A card can be given the wrong way round, and so to the player it then faces: one read from its bottom-right
    index alone (that looks the same turned half round), or one that showed both corners, oriented toward a "middle of
    the table" that on a tilted photo is not where the cards' centres average. When a seat holds more than a hand and
    the seat such a card faces once turned holds less, it moves there (the clearest first, while the counts say so)
    when it lies nearer that seat's cards than its own seat's one-corner cards, or past the middle of the table on that
    seat's side (a row read from its bottom-right indices, laid next to the other player's cards: its cards lie
    nearest each other)."""
    def nearest(card: CardDetection, group: list[CardDetection]) -> float:
        return min((math.dist(card.center, m.center) for m in group if m is not card), default=math.inf)

    everyone = [c for g, _ in groups for c in g]
    middle = _table_middle(everyone) if everyone else np.zeros(2)

    def ahead(card: CardDetection, up: float) -> float:
        """How far (px) past the table's middle ``card`` lies along ``up`` (a seat's cards lie behind it: negative)."""
        ux, uy = up_vector(up)
        return float((card.center[0] - middle[0]) * ux + (card.center[1] - middle[1]) * uy)

    for group, up in groups:
        while len(group) > HAND_SIZE:
            own = [m for m in group if not m.up_either_way] or group
            moves = []
            for card in group:
                if card.up is None:
                    continue
                flipped = turned(card)
                for target, t_up in groups:
                    if target is group or len(target) >= HAND_SIZE or not faces(flipped, t_up):
                        continue
                    if (gain := nearest(card, own) - nearest(card, target)) > 0:
                        moves.append((gain, card, flipped, target))
                    elif (past := ahead(card, up)) > 0 and ahead(card, t_up) < 0:
                        moves.append((past, card, flipped, target))
            if not moves:
                break
            _gain, card, flipped, target = max(moves, key=lambda m: m[0])
            group.remove(card)
            target.append(flipped)
    return groups


def orient_either_way(cards: list[CardDetection]) -> list[CardDetection]:
    """A card that showed both corner indices faces either way (a card turned half round looks the same). With more
    than one hand on the table, players sit around it and their cards' tops face its middle: take the way toward the
    middle of the table when that is clear. Otherwise take the way of the nearest cards whose way is known (read from
    one corner: in overlapped rows that is the top-left index; or settled by the middle); with none around, leave it."""
    if not any(c.up_either_way for c in cards):
        return cards
    several = len(cards) > HAND_SIZE
    middle = _table_middle(cards)
    out: list[CardDetection | None] = []
    for c in cards:
        if not c.up_either_way or c.up is None:
            out.append(c)
            continue
        ux, uy = up_vector(c.up)
        away = np.asarray(c.center) - middle
        norm = float(np.linalg.norm(away))
        facing = float(ux * away[0] + uy * away[1]) / norm if norm > 0 else 0.0
        out.append((turned(c) if facing > 0 else c) if several and abs(facing) > THRESHOLDS.middle_cos else None)
    known = [o for o in out if o is not None and o.up is not None]
    settled: list[CardDetection] = []
    for c, o in zip(cards, out, strict=True):
        if o is not None:
            settled.append(o)
            continue
        assert c.up is not None
        near = sorted(((d, f) for f in known if (d := linked(c, f)) is not None),
                      key=lambda t: t[0])[:THRESHOLDS.neighbours]
        size = card_size(c)
        turn = sum(math.cos(math.radians((f.up or 0.0) - c.up)) / (1 + d / size) for d, f in near) < 0
        settled.append(turned(c) if turn else c)
    return settled


def _table_middle(cards: Sequence[CardDetection]) -> npt.NDArray[np.float64]:
    """Where the middle of the table between the cards lies in the photo. A photo taken at a slant draws near cards
    larger and far distances shorter, so the plain mean of the cards lies too near the camera (inside the near hand,
    past its far row, on strongly slanted photos). The image of the middle of points on the table is their mean
    weighted by depth, and a card's depth goes as one over its size in the photo."""
    centres = np.array([c.center for c in cards], dtype=np.float64)
    weights = 1.0 / np.maximum(np.array([card_size(c) for c in cards], dtype=np.float64), 1.0)
    return np.asarray((centres * weights[:, None]).sum(axis=0) / weights.sum(), np.float64)
