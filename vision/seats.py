"""Which cards are one player's: grouped by facing, then by position, and the groups mended.

Each player's cards face them (the card's top points away from its player), so cards are grouped by
facing direction first, then by position; groups that a corner index's ambiguity split (read from the
bottom-right corner, a hand fanned through a quarter turn) are merged, a seat read upside down is
turned, and a card given to the wrong seat (its scale, its turn) goes back.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from referee.cards import HAND_SIZE

from .card_shape import card_size, faces, in_scale, linked, median_size, out_of_scale, turned, up_vector
from .thresholds import THRESHOLDS
from .types import CardDetection


def grouped(cards: list[CardDetection]) -> list[Group]:
    """The cards (read once each) grouped into seats, each with its facing."""
    return give_back_misturned(to_the_seat_of_its_size(face_the_table(seat_groups(orient_either_way(cards)))))


def _circular_clusters(angles: list[float]) -> list[list[int]]:
    """Split facing angles (degrees) into groups at gaps wider than THRESHOLDS.angle_gap_deg."""
    if not angles:
        return []
    order = sorted(range(len(angles)), key=lambda i: angles[i] % 360)
    values = [angles[i] % 360 for i in order]
    gaps = [(values[(k + 1) % len(values)] - values[k]) % 360 for k in range(len(values))]
    if len(values) == 1:
        return [order]
    cuts = [k for k, g in enumerate(gaps) if g > THRESHOLDS.angle_gap_deg]
    if not cuts:
        return [order]
    groups = []
    for j, cut in enumerate(cuts):
        start = cut + 1
        end = cuts[(j + 1) % len(cuts)]
        group = []
        k = start
        while True:
            group.append(order[k % len(order)])
            if k % len(order) == end:
                break
            k += 1
        groups.append(group)
    return groups



def components(points: np.ndarray, sizes: np.ndarray) -> list[list[int]]:
    """Connected components of cards closer than THRESHOLDS.link_card_heights of the larger one's
    height (a local scale: perspective makes near cards larger)."""
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
    """Each group, smallest last, merged into a larger group it touches whose facing differs from
    its own by a turn ``turn_apart`` accepts, when the two together hold no more than one hand (two
    players' hands are too many cards to merge); merged cards pass through ``fit``."""
    out: list[Group] = []
    for group, up in sorted(groups, key=lambda g: -len(g[0])):
        host = next((h for h in out if turn_apart(abs((h[1] - up + 180) % 360 - 180))
                     and len(h[0]) + len(group) <= HAND_SIZE and _touching(group, h[0])), None)
        if host is None:
            out.append((list(group), up))
        else:
            host[0].extend(fit(c) for c in group)
    return out



def _merge_turned_groups(groups: list[Group]) -> list[Group]:
    """A corner index alone cannot tell top-left from bottom-right (the two look the same, turned
    half round), so cards read from their bottom-right corners (a row spread out, say) seem to
    face the other way and form a group of their own. A group facing opposite to a larger group
    it touches, the two together no more than one hand, is part of that player's cards: turned
    and merged. (Two players facing each other hold a hand each: too many cards to merge.)"""
    return _merge_into_larger(groups, lambda turn: turn > 135, turned)



def _merge_fanned_groups(groups: list[Group]) -> list[Group]:
    """A hand laid in a fan or an arc (13 cards in a free shape) turns through a quarter turn or
    more, and its cards' facings split it into groups a quarter turn apart. A group a quarter turn
    from a larger group it touches, the two together no more than one hand, is part of that
    player's cards: merged, facing the larger group's way. (Two players at right angles hold a
    hand each: too many cards to merge.)"""
    return _merge_into_larger(groups, lambda turn: 45 < turn <= 135, lambda card: card)



def seat_groups(cards: list[CardDetection]) -> list[tuple[list[CardDetection], float]]:
    """Cards grouped by facing direction, then by position; each with its mean facing angle."""
    oriented = [c for c in cards if c.up is not None]
    groups: list[tuple[list[CardDetection], float]] = []
    for idx in _circular_clusters([c.up for c in oriented if c.up is not None]):
        members = [oriented[i] for i in idx]
        pts = np.array([m.center for m in members])
        for comp in components(pts, np.array([card_size(m) for m in members])):
            group = [members[i] for i in comp]
            groups.append((group, _mean_angle([g.up for g in group if g.up is not None])))
    groups = _merge_fanned_groups(_merge_turned_groups(groups))
    # Cards without a facing direction, and small stray groups, join the seat they lie in.
    loose = [c for c in cards if c.up is None]
    big = [g for g in groups if len(g[0]) >= 4]
    small = [g for g in groups if len(g[0]) < 4]
    for group, _ in small:
        loose.extend(group)
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



def _nearest_group(card: CardDetection, groups: list[tuple[list[CardDetection], float]],
                   ) -> tuple[list[CardDetection], float] | None:
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



def face_the_table(groups: list[tuple[list[CardDetection], float]]) -> list[tuple[list[CardDetection], float]]:
    """Players' cards face the middle of the table. A seat whose cards all seem to face away
    from it was read upside down (an index looks much the same turned half round): turn it."""
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
    lies beside a seat whose cards are its size (``THRESHOLDS.in_scale``), facing that seat once turned or as it is
    (a far player's card read from its bottom-right index joins the near player), it moves there; a seat
    then holding more than a hand gives back a card (``give_back_misturned``)."""
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



def give_back_misturned(groups: list[tuple[list[CardDetection], float]],
                          ) -> list[tuple[list[CardDetection], float]]:
    """A card can be given the wrong way round, and so to the player it then faces: one read from
    its bottom-right index alone (that looks the same turned half round), or one that showed both
    corners, oriented toward a "middle of the table" that on a tilted photo is not where the
    cards' centres average. When a seat holds more than a hand, the seat such a card faces once
    turned holds less, and the card lies nearer that seat's cards than its own seat's one-corner
    cards, it moves there (the clearest first, while the counts say so)."""
    def nearest(card: CardDetection, group: list[CardDetection]) -> float:
        return min((math.dist(card.center, m.center) for m in group if m is not card), default=math.inf)

    for group, _up in groups:
        while len(group) > HAND_SIZE:
            own = [m for m in group if not m.up_either_way] or group
            moves = []
            for card in group:
                if card.up is None:
                    continue
                flipped = turned(card)
                for target, t_up in groups:
                    if (target is not group and len(target) < HAND_SIZE and faces(flipped, t_up)
                            and (gain := nearest(card, own) - nearest(card, target)) > 0):
                        moves.append((gain, card, flipped, target))
            if not moves:
                break
            _gain, card, flipped, target = max(moves, key=lambda m: m[0])
            group.remove(card)
            target.append(flipped)
    return groups



def orient_either_way(cards: list[CardDetection]) -> list[CardDetection]:
    """A card that showed both corner indices faces either way (a card turned half round looks
    the same). With more than one hand on the table, players sit around it and their cards'
    tops face its middle: take the way toward the middle of the table when that is clear.
    Otherwise take the way of the nearest cards whose way is known (read from one corner: in
    overlapped rows that is the top-left index; or settled by the middle); with none around,
    leave it."""
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
    """Where the middle of the table between the cards lies in the photo. A photo taken at a slant
    draws near cards larger and far distances shorter, so the plain mean of the cards lies too
    near the camera (inside the near hand, past its far row, on strongly slanted photos). The
    image of the middle of points on the table is their mean weighted by depth, and a card's
    depth goes as one over its size in the photo."""
    centres = np.array([c.center for c in cards], dtype=np.float64)
    weights = 1.0 / np.maximum(np.array([card_size(c) for c in cards], dtype=np.float64), 1.0)
    return np.asarray((centres * weights[:, None]).sum(axis=0) / weights.sum(), np.float64)
