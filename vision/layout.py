"""Table geometry: group detected cards into seats, and each seat into head, middle, tail.

The cue is how people lay cards: each player's cards face them (the card's top
points away from its player), and the three rows run across the player's view,
head farthest. So cards are grouped by facing direction first, then by position;
each group is turned into its player's frame, where rows are horizontal bands.

Nothing is guessed: a seat whose cards do not make 3 + 5 + 5 rows, a card seen
twice, a card that belongs to nobody or one read with low confidence becomes a
:class:`Problem` naming the seat and the card.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from referee.cards import HAND_SIZE, ROW_NAMES
from referee.cards import ROW_SIZES as SIZE_OF_ROW
from vision.tiles import outline_from_index
from vision.types import MIN_CONFIDENCE, Box, CardDetection, LaidRows, Point, Problem, SeatLayout, TableLayout

ROW_SIZES = tuple(SIZE_OF_ROW[name] for name in ROW_NAMES)  # 3, 5, 5: head, middle, tail
ANGLE_GAP_DEG = 30.0       # facing directions further apart than this belong to different players
LINK_CARD_HEIGHTS = 1.6    # cards closer than this (in card heights) lie in one player's area
INDEX_TO_CARD = 4.6        # a card is about this many corner-index heights tall


@dataclass(frozen=True)
class LayoutConfig:
    min_confidence: float = MIN_CONFIDENCE


def _up_vector(angle_deg: float) -> tuple[float, float]:
    a = math.radians(angle_deg)
    return math.sin(a), -math.cos(a)


def _card_size(card: CardDetection) -> float:
    """The card's height in pixels, from its outline or its index box."""
    if card.outline is not None:
        pts = np.array(card.outline)
        return float(np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1).max())
    if card.index_boxes:
        x1, y1, x2, y2 = card.index_boxes[0]
        return max(x2 - x1, y2 - y1) * INDEX_TO_CARD
    x1, y1, x2, y2 = card.box
    return max(x2 - x1, y2 - y1)


def _circular_clusters(angles: list[float]) -> list[list[int]]:
    """Split facing angles (degrees) into groups at gaps wider than ANGLE_GAP_DEG."""
    if not angles:
        return []
    order = sorted(range(len(angles)), key=lambda i: angles[i] % 360)
    values = [angles[i] % 360 for i in order]
    gaps = [(values[(k + 1) % len(values)] - values[k]) % 360 for k in range(len(values))]
    if len(values) == 1:
        return [order]
    cuts = [k for k, g in enumerate(gaps) if g > ANGLE_GAP_DEG]
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


def _components(points: np.ndarray, sizes: np.ndarray) -> list[list[int]]:
    """Connected components of cards closer than LINK_CARD_HEIGHTS of the larger one's
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
        link = LINK_CARD_HEIGHTS * np.maximum(sizes[:, None], sizes[None, :])
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


def _seat_name(up_deg: float) -> str:
    """Seat by where the player sits: opposite the direction the cards' tops face."""
    names = ("bottom", "left", "top", "right")  # card tops facing up, right, down, left
    return names[int(((up_deg + 45) % 360) // 90)]


def _anchor(card: CardDetection) -> tuple[float, float]:
    """The card's top-left corner: in overlapped rows it is the part that always shows.

    A card seen by both corners has an outline averaged from the two; its row neighbours,
    seen by the top-left index only, carry that index's estimate (off by the same amount on
    one deck). So such a card is anchored by its top-left index alone, like them."""
    if card.outline is not None and len(card.index_boxes) == 2 and card.up is not None:
        tl = card.outline[0]
        box = min(card.index_boxes, key=lambda b: math.dist(tl, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)))
        return outline_from_index(box, card.up)[0]
    if card.outline is not None:
        return card.outline[0]
    if card.index_boxes:
        x1, y1, x2, y2 = card.index_boxes[0]
        return ((x1 + x2) / 2, (y1 + y2) / 2)
    return card.center


MAX_OPEN_ANCHORS = 4  # cards per seat whose anchor is tried both ways (2 ** 4 splits at most)


def _anchor_choices(card: CardDetection) -> list[tuple[float, float]]:
    """Where ``card`` may be anchored. One read of an identity twice at the same turn (two indices
    facing the same way are not one card's two corners) is one real index and one misread region
    (a pip, the next card's index): either may be the card's top-left, and the rows decide."""
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
        ux, uy = _up_vector(up_deg)
        return -uy, ux
    norm = math.hypot(vx, vy)
    return vx / norm, vy / norm


ROW_SEPARATION = 1.5  # gaps between rows must be this many times wider than any gap inside a row


ROW_TILT_SEARCH_DEG = 32  # rows may run this far off the cards' own across direction (perspective, sloppy laying;
#                            25 -> 32: one more of 320 validation tables right, none broken)


def _bands(anchors: list[tuple[float, float]], rx: float, ry: float, up_deg: float,
           ) -> tuple[float, list[list[int]]]:
    """Split anchors into three bands across direction (rx, ry): (separation, bands far to near)."""
    ux, uy = _up_vector(up_deg)
    nx, ny = (ry, -rx) if ry * ux - rx * uy >= 0 else (-ry, rx)  # normal to the rows, toward the far side
    far = np.array([x * nx + y * ny for x, y in anchors])
    along = np.array([x * rx + y * ry for x, y in anchors])
    order = np.argsort(-far)  # farthest first
    gaps = -np.diff(far[order])
    cut = sorted(np.argsort(-gaps)[:2].tolist())
    inside = np.delete(gaps, cut)
    separation = float(gaps[cut].min() / max(float(inside.max()), 1e-6)) if inside.size else math.inf
    bands = [order[: cut[0] + 1], order[cut[0] + 1: cut[1] + 1], order[cut[1] + 1:]]
    return separation, [sorted(band.tolist(), key=lambda i: along[i]) for band in bands]


def _split_rows(cards: list[CardDetection], up_deg: float) -> tuple[list[CardDetection], ...] | None:
    """Three rows ordered farthest to nearest in the player's frame, or None if the
    cards do not form three clearly separate rows.

    The rows' direction starts from the cards' own (top edges, or across their facing)
    and is searched within ±ROW_TILT_SEARCH_DEG for the clearest three bands, preferring
    splits that give 3 + 5 + 5."""
    if len(cards) < 3:
        return None
    rx, ry = _row_direction(cards, up_deg)
    choices = [_anchor_choices(c) for c in cards]
    open_at = [i for i, ch in enumerate(choices) if len(ch) > 1][:MAX_OPEN_ANCHORS]
    best: tuple[bool, float, list[list[int]]] | None = None
    for picks in itertools.product(*(range(len(choices[i])) for i in open_at)):
        anchors = [ch[0] for ch in choices]
        for i, k in zip(open_at, picks, strict=True):
            anchors[i] = choices[i][k]
        for offset in range(-ROW_TILT_SEARCH_DEG, ROW_TILT_SEARCH_DEG + 1):
            a = math.radians(offset)
            dx, dy = rx * math.cos(a) - ry * math.sin(a), rx * math.sin(a) + ry * math.cos(a)
            separation, bands = _bands(anchors, dx, dy, up_deg)
            sizes_ok = sorted(len(b) for b in bands) == sorted(ROW_SIZES)
            # the cards' own direction wins ties: search outward from offset 0
            key = (sizes_ok, separation - 0.002 * abs(offset))
            if best is None or key > (best[0], best[1]):
                best = (sizes_ok, key[1], bands)
    if best is None or best[1] < ROW_SEPARATION:
        return None
    return tuple([cards[i] for i in band] for band in best[2])


def _assign_rows(rows: tuple[list[CardDetection], ...]) -> tuple[list[CardDetection], ...] | None:
    """Head is the 3-card row, middle the 5-card row beside it, tail the other."""
    sizes = [len(r) for r in rows]
    if sorted(sizes) != sorted(ROW_SIZES):
        return None
    head_at = sizes.index(3)
    if head_at == 1:
        return None  # head between the two 5-card rows: which is the middle is not clear
    middle_at = 1
    tail_at = 2 if head_at == 0 else 0
    return rows[head_at], rows[middle_at], rows[tail_at]


def layout_table(detections: Sequence[CardDetection], config: LayoutConfig | None = None,
                 unread: Sequence[Box] = ()) -> TableLayout:
    """Group ``detections`` into seats and rows; report every problem found.

    An identity read confidently on two separate cards is a misread (or clutter: a card back's
    artwork, a patterned table). When keeping one of the reads and leaving out the others gives
    exactly one table whose every hand is complete and laid out, that read is the card and the
    others are reported as ignored (so too when several choices work and give every hand the same rows);
    otherwise the duplicate blocks scoring (``_resolve_duplicates``). ``unread``: the index regions the
    detector found and read no card from (see ``_unread_hand``)."""
    config = config or LayoutConfig()
    problems: list[Problem] = []
    order = list(detections)
    by_card = _reads_by_identity(order)
    resolved = _resolve_duplicates(by_card, order, config, unread)
    if resolved is not None:
        return resolved
    cards = _one_read_each(by_card, order, problems, config.min_confidence)
    return _layout_cards(cards, problems, config, unread)


def layout_keeping_both_reads(detections: Sequence[CardDetection], config: LayoutConfig | None = None,
                              unread: Sequence[Box] = ()) -> TableLayout | None:
    """The table laid out with both confident reads of the one identity read confidently on two separate
    cards kept, each in its place: when another card was misread as it, one of the two is that card (the
    caller tries which). None unless exactly one identity is read confidently twice, on two cards."""
    config = config or LayoutConfig()
    order = list(detections)
    by_card = _reads_by_identity(order)
    twice = [k for k, reads in by_card.items() if sum(r.confidence >= config.min_confidence for r in reads) > 1]
    if len(twice) != 1:
        return None
    key = twice[0]
    sure = [r for r in by_card[key] if r.confidence >= config.min_confidence]
    if len(sure) != 2:
        return None
    trial = dict(by_card)
    trial[key] = [sure[0]] + [r for r in by_card[key] if r.confidence < config.min_confidence]
    trial[f"{key} (the second read)"] = [sure[1]]  # kept apart: _one_read_each keeps one read per key
    problems: list[Problem] = []
    layout = _layout_cards(_one_read_each(trial, order, problems, config.min_confidence), problems, config, unread)
    for seat in layout.seats:
        median = _median_size(seat.cards)
        if any(str(c.card) == key and not _in_scale(c, median) for c in seat.cards):
            return None  # a read not the size of its seat's cards: clutter read as a card, not a card misread
    return layout


MAX_DUPLICATE_CHOICES = 16  # tables of which-read-is-the-card tried at most (more: the duplicates block)


def _resolve_duplicates(by_card: dict[str, list[CardDetection]], order: list[CardDetection],
                        config: LayoutConfig, unread: Sequence[Box]) -> TableLayout | None:
    """The table that keeping a single confident read per duplicated identity lays out without a
    blocking problem, with the reads left out reported (not blocking); None when no identity is read
    confidently twice, when there are too many choices, or unless the choices that work (at least one)
    all give every seat the same rows."""
    open_keys = [k for k, reads in by_card.items()
                 if len(reads) > 1 and sum(r.confidence >= config.min_confidence for r in reads) > 1]
    if not open_keys:
        return None
    choices = [[r for r in by_card[k] if r.confidence >= config.min_confidence] for k in open_keys]
    if math.prod(len(c) for c in choices) > MAX_DUPLICATE_CHOICES:
        return None
    working: list[TableLayout] = []
    for picks in itertools.product(*choices):
        trial = dict(by_card)
        for key, pick in zip(open_keys, picks, strict=True):
            trial[key] = [pick] + [r for r in by_card[key] if r.confidence < config.min_confidence]
        problems: list[Problem] = []
        for key, pick in zip(open_keys, picks, strict=True):
            for other in by_card[key]:
                if other is not pick and other.confidence >= config.min_confidence:
                    x, y = other.center
                    problems.append(Problem(kind="duplicate_card", card=key, blocking=False,
                                            message=f"{key} is seen twice; the read at ({x:.0f}, {y:.0f}) is ignored: "
                                                    "without it every hand is complete and laid out"))
        cards = _one_read_each(trial, order, problems, config.min_confidence)
        result = _layout_cards(cards, problems, config, unread)
        if not result.blocked:
            working.append(result)
    # a read that lays out every hand in rows beats one that leaves a hand in a free shape (a special hand
    # lies so; a misread corner of a hand laid in rows pulls the seats' cards out of their rows)
    in_rows = [w for w in working if not any(p.kind == "no_rows" for p in w.problems)]
    working = in_rows or working
    if not working or len({_hands_of(w) for w in working}) > 1:
        return None
    return working[0]


# A card's size in the photo over its seat's median card size: real cards of the validation readings 0.61-1.76
# (99.8 % of 12,601 within 0.74-1.44), reads on artwork (a card back showing four aces, a court card's picture)
# 0.2-0.6 and 1.86.
CLUTTER_SCALE = 0.55     # a read under this share of its seat's cards' size, or over its inverse, is not one of them
IN_SCALE = (0.7, 1.5)    # a read this size of a seat's cards may be one of them


def _median_size(cards: Sequence[CardDetection]) -> float:
    return float(np.median([_card_size(c) for c in cards]))


def _out_of_scale(card: CardDetection, median: float) -> bool:
    """``card`` is far smaller or larger than cards of ``median`` size (``CLUTTER_SCALE``)."""
    return not CLUTTER_SCALE <= _card_size(card) / median <= 1 / CLUTTER_SCALE


def _in_scale(card: CardDetection, median: float) -> bool:
    """``card`` is the size of cards of ``median`` size (``IN_SCALE``)."""
    return IN_SCALE[0] <= _card_size(card) / median <= IN_SCALE[1]


def _without_clutter(group: list[CardDetection], problems: list[Problem]) -> list[CardDetection]:
    """A seat's cards without the reads far out of scale with its cards (``CLUTTER_SCALE``): artwork read as
    a card (a card back showing four aces, a chip, a court card's picture), not a card of the hand. Real
    cards of the validation readings are 0.61-1.76 of their seat's median size (99.8 % of 12,601 within
    0.74-1.44), such reads 0.2-0.6 and 1.86. A real card left out so leaves its seat short, which is
    reported (or tried as every card not seen, ``vision.unseen``)."""
    median = _median_size(group)
    kept = []
    for c in group:
        if _out_of_scale(c, median):
            x, y = c.center
            what = "smaller" if _card_size(c) < median else "larger"
            problems.append(Problem(kind="unassigned_card", card=str(c.card), blocking=False,
                                    message=f"{c.card} at ({x:.0f}, {y:.0f}) is ignored: far {what} than the cards "
                                            "around it (artwork read as a card)"))
        else:
            kept.append(c)
    return kept


def _hands_of(layout: TableLayout) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """What a layout scores: each seat's rows (or its cards, when laid without rows), by identity."""
    def cards(row: Sequence[CardDetection]) -> tuple[str, ...]:
        return tuple(sorted(str(c.card) for c in row))

    return tuple((s.seat, tuple(cards(r) for r in s.rows) if s.rows is not None else (cards(s.cards),))
                 for s in layout.seats)


def _layout_cards(cards: list[CardDetection], problems: list[Problem], config: LayoutConfig,
                  unread: Sequence[Box]) -> TableLayout:
    """Seats, rows and problems for cards read once each."""
    read_up = {c.index_boxes[0]: c.up for c in cards if len(c.index_boxes) == 1}
    cards = _orient_either_way(cards)
    groups = _give_back_misturned(_to_the_seat_of_its_size(_face_the_table(_seat_groups(cards))))
    seats: list[SeatLayout] = []
    unassigned: list[CardDetection] = []
    names_used: dict[str, int] = defaultdict(int)
    for group, up in groups:
        if len(group) < 4:
            unassigned.extend(group)
            continue
        group = _without_clutter(group, problems)
        name = _seat_name(up)
        names_used[name] += 1
        seat_name = name if names_used[name] == 1 else f"{name}-{names_used[name]}"
        seats.append(_seat_layout(seat_name, group, up, problems, read_up))
        for c in group:
            if c.confidence < config.min_confidence:
                problems.append(Problem(kind="low_confidence", seat=seat_name, card=str(c.card),
                                        message=f"{seat_name}: {c.card} was read with low confidence "
                                                f"({c.confidence:.2f}): check it"))
    if not 2 <= len(seats) <= 4:
        problems.append(Problem(kind="player_count", message=f"found {len(seats)} players' cards; a round has 2 to 4"))
    held = [c for s in seats for c in s.cards]
    if (hidden := _unread_hand(held, _unread_apart(held, unread))) is not None:
        problems.append(hidden)
    for c in unassigned:
        # A weak read away from every player is clutter; if it was one of their cards, that
        # player is a card short, which is reported there. A confident one blocks: it may be the one
        # card read of a player whose other cards were not even found as corners (measured on a test
        # table: a fourth hand of which two cards were read, and no unread corners to show for the rest).
        weak = c.confidence < config.min_confidence
        problems.append(Problem(kind="unassigned_card", card=str(c.card), blocking=not weak,
                                message=f"{c.card} lies apart from every player's cards"
                                        + (f" (ignored: read with confidence {c.confidence:.2f})" if weak else "")))
    seats.sort(key=lambda s: ("bottom", "right", "top", "left").index(s.seat.split("-")[0]))
    return TableLayout(seats=tuple(seats), unassigned=tuple(unassigned), problems=tuple(problems))


ON_A_CARD = 0.75  # an index region this near a card's centre (in card heights) lies on that card
UNREAD_HAND_CLUSTER = 10  # so many unread regions together apart from the hands may be a player's unread cards
#   (validation photo tables: the tables settled right show at most 8 together, a hand left unread 12-20)
HAND_REACH = 1.5  # "together": within this many card heights of one of them


def _unread_apart(held: list[CardDetection], unread: Sequence[Box]) -> list[Point]:
    """The centres of the index regions read as no card that lie on none of the players' cards ``held``."""
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in unread]
    return [p for p in centres if all(math.dist(p, c.center) >= ON_A_CARD * _card_size(c) for c in held)]


def _unread_hand(held: list[CardDetection], apart: list[Point]) -> Problem | None:
    """A problem when at least ``UNREAD_HAND_CLUSTER`` of the unread regions ``apart`` from the players'
    cards ``held`` lie within ``HAND_REACH`` card heights of one of them: a player's cards there may be
    unread, and the round is not scored without them."""
    if len(apart) < UNREAD_HAND_CLUSTER or not held:
        return None
    reach = HAND_REACH * float(np.median([_card_size(c) for c in held]))
    densest = max(sum(math.dist(p, q) < reach for q in apart) for p in apart)
    if densest < UNREAD_HAND_CLUSTER:
        return None
    return Problem(kind="unread_cards", message=f"{densest} card corners lie together apart from every player's "
                                                "cards and could not be read: a player's cards may be there")


SAME_CARD = 0.6  # two reads of one identity whose outlines' centres are this close (in card heights) are one card


FACING_AWAY_COS = 0.5  # a seat whose cards' tops point within 60° of straight away from the table is misread


def _face_the_table(groups: list[tuple[list[CardDetection], float]]) -> list[tuple[list[CardDetection], float]]:
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
            ux, uy = _up_vector(up)
            if norm > 0 and (ux * away[0] + uy * away[1]) / norm > FACING_AWAY_COS:
                up = (up + 180) % 360
        out.append((group, up))
    return out


def _to_the_seat_of_its_size(groups: list[Group]) -> list[Group]:
    """A card far smaller or larger than its seat's cards (``CLUTTER_SCALE``) is not one of them. When it
    lies beside a seat whose cards are its size (``IN_SCALE``), facing that seat once turned or as it is
    (a far player's card read from its bottom-right index joins the near player), it moves there; a seat
    then holding more than a hand gives back a card (``_give_back_misturned``)."""
    seats = [(group, up, _median_size(group)) for group, up in groups if len(group) >= 4]
    for group, _up, median in seats:
        for card in [c for c in group if _out_of_scale(c, median)]:
            for target, t_up, t_median in seats:
                if (target is group or not _in_scale(card, t_median)
                        or card.up is None or not any(_linked(card, m) is not None for m in target)):
                    continue
                group.remove(card)
                target.append(card if _faces(card, t_up) else _turned(card))
                break
    return groups


def _give_back_misturned(groups: list[tuple[list[CardDetection], float]],
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
                turned = _turned(card)
                for target, t_up in groups:
                    if (target is not group and len(target) < HAND_SIZE and _faces(turned, t_up)
                            and (gain := nearest(card, own) - nearest(card, target)) > 0):
                        moves.append((gain, card, turned, target))
            if not moves:
                break
            _gain, card, turned, target = max(moves, key=lambda m: m[0])
            group.remove(card)
            target.append(turned)
    return groups


def _reads_by_identity(cards: list[CardDetection]) -> dict[str, list[CardDetection]]:
    """The reads of each identity, surest first; two reads whose estimated outlines coincide are one
    card's two corner indices (merged into one)."""
    by_card: dict[str, list[CardDetection]] = defaultdict(list)
    for c in sorted(cards, key=lambda c: -c.confidence):
        reads = by_card[str(c.card)]
        if reads:
            best = reads[0]
            (x0, y0), (x1, y1) = best.center, c.center
            if math.hypot(x1 - x0, y1 - y0) < SAME_CARD * max(_card_size(best), _card_size(c)):
                reads[0] = replace(best, index_boxes=best.index_boxes + c.index_boxes, box=(
                    min(best.box[0], c.box[0]), min(best.box[1], c.box[1]),
                    max(best.box[2], c.box[2]), max(best.box[3], c.box[3])))
                continue
        reads.append(c)
    return dict(by_card)


def _one_read_each(by_card: dict[str, list[CardDetection]], order: list[CardDetection], problems: list[Problem],
                   min_confidence: float) -> list[CardDetection]:
    """One detection per identity, in the detections' order: the surest read. The others are a card
    seen twice (a problem), unless weak beside a confident read: then dropped with a note (if it was
    another card misread, that card's player is a card short, which is reported)."""
    kept: list[CardDetection] = []
    for key, reads in by_card.items():
        best = reads[0]
        for other in reads[1:]:
            if other.confidence < min_confidence <= best.confidence:
                problems.append(Problem(kind="duplicate_card", card=key, blocking=False,
                                        message=f"{key} is seen twice; the weak read ({other.confidence:.2f}) "
                                                "is ignored"))
            else:
                problems.append(Problem(kind="duplicate_card", card=key,
                                        message=f"{key} is seen twice: one deck has each card once"))
        kept.append(best)
    at = {id(c): i for i, c in enumerate(order)}
    return sorted(kept, key=lambda c: at.get(id(c), len(at)))


def _turned(card: CardDetection) -> CardDetection:
    """The same card facing the other way (same rectangle, corners renumbered)."""
    if card.up is None:
        return card
    o = card.outline
    return replace(card, up=(card.up + 180) % 360, outline=None if o is None else (o[2], o[3], o[0], o[1]))


NEIGHBOURS = 4    # one-corner cards around a two-corner card that settle its facing (one hand alone)
MIDDLE_COS = 0.5  # a card whose facing is within 60 degrees of toward / away from the table's middle


def _orient_either_way(cards: list[CardDetection]) -> list[CardDetection]:
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
        ux, uy = _up_vector(c.up)
        away = np.asarray(c.center) - middle
        norm = float(np.linalg.norm(away))
        facing = float(ux * away[0] + uy * away[1]) / norm if norm > 0 else 0.0
        out.append((_turned(c) if facing > 0 else c) if several and abs(facing) > MIDDLE_COS else None)
    known = [o for o in out if o is not None and o.up is not None]
    settled: list[CardDetection] = []
    for c, o in zip(cards, out, strict=True):
        if o is not None:
            settled.append(o)
            continue
        assert c.up is not None
        near = sorted(((d, f) for f in known if (d := _linked(c, f)) is not None),
                      key=lambda t: t[0])[:NEIGHBOURS]
        size = _card_size(c)
        turn = sum(math.cos(math.radians((f.up or 0.0) - c.up)) / (1 + d / size) for d, f in near) < 0
        settled.append(_turned(c) if turn else c)
    return settled


def _table_middle(cards: Sequence[CardDetection]) -> npt.NDArray[np.float64]:
    """Where the middle of the table between the cards lies in the photo. A photo taken at a slant
    draws near cards larger and far distances shorter, so the plain mean of the cards lies too
    near the camera (inside the near hand, past its far row, on strongly slanted photos). The
    image of the middle of points on the table is their mean weighted by depth, and a card's
    depth goes as one over its size in the photo."""
    centres = np.array([c.center for c in cards], dtype=np.float64)
    weights = 1.0 / np.maximum(np.array([_card_size(c) for c in cards], dtype=np.float64), 1.0)
    return np.asarray((centres * weights[:, None]).sum(axis=0) / weights.sum(), np.float64)


def _linked(x: CardDetection, y: CardDetection) -> float | None:
    """The distance between two cards when they lie in one player's area (closer than
    LINK_CARD_HEIGHTS of the larger one's height, as in ``_components``), else None."""
    d = math.hypot(x.center[0] - y.center[0], x.center[1] - y.center[1])
    return d if d < LINK_CARD_HEIGHTS * max(_card_size(x), _card_size(y)) else None


def _touching(a: list[CardDetection], b: list[CardDetection]) -> bool:
    return any(_linked(x, y) is not None for x in a for y in b)


Group = tuple[list[CardDetection], float]  # a seat's cards and their mean facing


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
    return _merge_into_larger(groups, lambda turn: turn > 135, _turned)


def _merge_fanned_groups(groups: list[Group]) -> list[Group]:
    """A hand laid in a fan or an arc (13 cards in a free shape) turns through a quarter turn or
    more, and its cards' facings split it into groups a quarter turn apart. A group a quarter turn
    from a larger group it touches, the two together no more than one hand, is part of that
    player's cards: merged, facing the larger group's way. (Two players at right angles hold a
    hand each: too many cards to merge.)"""
    return _merge_into_larger(groups, lambda turn: 45 < turn <= 135, lambda card: card)


def _seat_groups(cards: list[CardDetection]) -> list[tuple[list[CardDetection], float]]:
    """Cards grouped by facing direction, then by position; each with its mean facing angle."""
    oriented = [c for c in cards if c.up is not None]
    groups: list[tuple[list[CardDetection], float]] = []
    for idx in _circular_clusters([c.up for c in oriented if c.up is not None]):
        members = [oriented[i] for i in idx]
        pts = np.array([m.center for m in members])
        for comp in _components(pts, np.array([_card_size(m) for m in members])):
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
            d = _linked(card, m)
            if d is not None and d < best_d:
                best, best_d = g, d
    return best


def _facing_seat(card: CardDetection, up: float) -> CardDetection:
    """A card whose facing is opposite its seat's was read from its bottom-right index:
    turn it half round (same rectangle, corners renamed) so its top-left is the anchor."""
    if card.up is None or _faces(card, up):
        return card
    return _turned(card)


def _quarter_turned_to(card: CardDetection, up: float) -> CardDetection:
    """A one-corner card read a quarter turn off its seat's facing ``up`` (an index lying near 45
    degrees reads almost as well in two turns) takes the turn nearest the seat's, and the outline
    that goes with it: its row is found from that outline. A card seen by both corners and read a
    quarter turn off is turned the same way; its top-left index is then the one farther toward the
    seat's facing, and the card is anchored by that index's outline."""
    if card.up is None or len(card.index_boxes) not in (1, 2):
        return card
    off = (up - card.up + 180) % 360 - 180
    if abs(off) < 45:
        return card
    turned = (card.up + 90 * round(off / 90)) % 360
    ux, uy = _up_vector(turned)
    top = max(card.index_boxes, key=lambda b: (b[0] + b[2]) * ux + (b[1] + b[3]) * uy)
    o = outline_from_index(top, turned)
    return replace(card, up=turned, outline=(o[0], o[1], o[2], o[3]))


def _faces(card: CardDetection, up: float) -> bool:
    """The card's top points within 90 degrees of ``up`` (a seat's facing)."""
    return card.up is not None and abs((card.up - up + 180) % 360 - 180) <= 90


def _turned_ids(read_up: dict[Box, float | None], group: list[CardDetection]) -> set[int]:
    """The cards of ``group`` (by ``id``) read from one index that the layout turned (see ``_turned_unclear``)."""
    return {id(g) for g in group if len(g.index_boxes) == 1 and read_up.get(g.index_boxes[0]) not in (None, g.up)}


def _fills(bands: tuple[list[CardDetection], ...], missing: int) -> list[tuple[bool, tuple[int, int, int]]]:
    """How ``missing`` more cards can complete three bands (far to near) to 3 + 5 + 5: whether the head is the
    far band (else the near one; see ``_assign_rows``), and the count each band lacks."""
    sizes = [len(b) for b in bands]
    fills = [(far, (t[0] - sizes[0], t[1] - sizes[1], t[2] - sizes[2]))
             for far, t in ((True, ROW_SIZES), (False, ROW_SIZES[::-1]))]
    return [(far, f) for far, f in fills if min(f) >= 0 and sum(f) == missing]


def _short_rows(bands: tuple[list[CardDetection], ...] | None, group: list[CardDetection], up: float,
                read_up: dict[Box, float | None]) -> LaidRows | None:
    """A seat short of cards: its rows (head, middle, tail) as laid when its cards show three rows that the
    missing cards complete to 3 + 5 + 5 one way only, no card read twice may lie in either of two rows
    (``_either_row``), no two cards lie at one place in a row (``_stacked_in_a_row``), and the cards placed
    by an outline estimated from a turned corner (``_turned_unclear``), if any, are where the other cards
    alone say; else None."""
    if bands is None or len(group) >= HAND_SIZE:
        return None
    if _either_row(bands, up):
        return None
    if (turned := _turned_ids(read_up, group)) and not _turned_agree(turned, group, up, bands):
        return None
    fills = _fills(bands, HAND_SIZE - len(group))
    if len(fills) != 1 or _stacked_in_a_row(bands, up) is not None:
        return None
    head, middle, tail = (tuple(b) for b in (bands if fills[0][0] else bands[::-1]))
    return head, middle, tail


def _either_row(bands: tuple[list[CardDetection], ...], up: float) -> bool:
    """A card read twice at one turn (``_anchor_choices``) whose two anchors lie nearest different rows: the
    other read may be the index of the card missing from that row (a misread of the same identity as its
    neighbour), so which row is short is not known."""
    ux, uy = _up_vector(up)
    far = [float(np.median([x * ux + y * uy for x, y in map(_anchor, band)])) for band in bands]

    def row(point: tuple[float, float]) -> int:
        return int(np.argmin([abs(point[0] * ux + point[1] * uy - f) for f in far]))

    return any(len({row(a) for a in _anchor_choices(c)}) > 1 for band in bands for c in band)


SAME_PLACE = 0.25  # two cards of a row closer along it than this share of the seat's median spacing lie "at one place"


def _stacked_in_a_row(bands: tuple[list[CardDetection], ...], up: float) -> tuple[CardDetection, CardDetection] | None:
    """Two cards of one row that lie at the same place along it, or None. One of them is not of that row: a
    card anchored into it from the next row (a full seat shows that by a row too long, 3 + 6 + 4; a short
    seat cannot when the row it left is the one a card is missing from), or a read on another card (a pip,
    a misread corner). Measured: seats laid out rightly, on the detector's readings and the ground truth of
    the 520 validation and test tables, keep their cards 0.39 of the median spacing apart and more; two
    short seats filled wrongly had two cards 0.02 and 0.07 apart."""
    rx, ry = _row_direction([c for b in bands for c in b], up)
    pairs: list[tuple[float, CardDetection, CardDetection]] = []
    for band in bands:
        along = sorted(((x * rx + y * ry), c) for c in band for x, y in [_anchor(c)])
        pairs += [(b - a, ca, cb) for (a, ca), (b, cb) in itertools.pairwise(along)]
    if len(pairs) < 2:
        return None
    gap, first, second = min(pairs, key=lambda p: p[0])
    return (first, second) if gap < SAME_PLACE * float(np.median([p[0] for p in pairs])) else None


MAX_TURNED = 4  # more one-corner cards turned than this in a seat: the seat was read from the far corners, alike


def _turned_agree(turned: set[int], group: list[CardDetection], up: float, bands: tuple[list[CardDetection], ...]
                  ) -> bool:
    """The ``turned`` cards (see ``_turned_unclear``, a few at most) lie in the rows that the other cards of
    the seat, split on their own, give, and those rows can be completed to 3 + 5 + 5 one way only."""
    if len(turned) > MAX_TURNED:
        return False
    alone = _split_rows([g for g in group if id(g) not in turned], up)
    return (alone is not None and len(_fills(alone, HAND_SIZE - sum(len(b) for b in alone))) == 1
            and _same_rows(bands, alone, turned))


def _same_rows(bands: tuple[list[CardDetection], ...], alone: tuple[list[CardDetection], ...], turned: set[int]
               ) -> bool:
    """The cards of ``bands`` but the ``turned`` ones lie in the rows ``alone`` (the seat split without those)."""
    return [{id(c) for c in band if id(c) not in turned} for band in bands] == [{id(c) for c in b} for b in alone]


def _turned_unclear(read_up: dict[Box, float | None], group: list[CardDetection], up: float,
                    bands: tuple[list[CardDetection], ...]) -> CardDetection | None:
    """A card read from one index that the layout turned to its seat's facing (its bottom-right index,
    or one read a quarter turn off) is anchored by an outline estimated from that index: on a turned
    or fanned hand of small cards the estimate can be off by a card's width and land in the next row.
    The other cards check it: split into rows on their own, when they can be completed to 3 + 5 + 5,
    they must give the same rows as with the turned cards, and the places they leave short must be
    filled one way only (the head at one end or the other). Otherwise the first turned card (the rows
    are not clear), else None. A few such cards only: when most of a seat is read from the far
    corners, their estimates err alike."""
    turned = _turned_ids(read_up, group)
    if not turned or len(turned) > MAX_TURNED:
        return None
    rest = [g for g in group if id(g) not in turned]
    alone = _split_rows(rest, up)
    if alone is None:
        return None
    fills = _fills(alone, len(turned))
    if not fills:
        return None  # the other cards alone do not show rows that the turned ones complete
    if not _same_rows(bands, alone, turned) or len(fills) > 1:
        return next(g for g in group if id(g) in turned)
    return None


def _seat_layout(seat: str, group: list[CardDetection], up: float, problems: list[Problem],
                 read_up: dict[Box, float | None]) -> SeatLayout:
    """``read_up``: each index's facing as read (before the layout turned any card), by index box."""
    group = [_quarter_turned_to(_facing_seat(c, up), up) for c in group]
    bands = _split_rows(group, up)
    short = _short_rows(bands, group, up, read_up)
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
    unclear = _turned_unclear(read_up, group, up, bands) if bands is not None and rows is not None else None
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
