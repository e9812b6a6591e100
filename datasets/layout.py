"""Where each card lies on the table (millimetres, table plane).

Table frame: x to the right, y towards the ``bottom`` seat, origin at the
table centre. A player's hand is built in the player's own frame (player at
+y, card tops pointing away from the player, head row farthest), then turned
to face the player's seat (0/90/180/270 degrees plus jitter) and moved out
from the centre until no two hands overlap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from referee.cards import ROW_NAMES, Card
from referee.specials import Rows

CARD_W_MM = 63.0
SEATS = ("bottom", "right", "top", "left")
SEAT_ANGLE = {"bottom": 0.0, "right": -math.pi / 2, "top": math.pi, "left": math.pi / 2}
SEAT_DIR = {"bottom": (0.0, 1.0), "right": (1.0, 0.0), "top": (0.0, -1.0), "left": (-1.0, 0.0)}


@dataclass(frozen=True)
class CardPose:
    """A card lying face up: centre (mm), rotation (radians, card top towards -y at 0), draw order."""

    card: Card
    player: int
    row: str | None          # None when a special hand is laid in a free shape
    position: int            # position within the row (or along the free shape), left to right
    cx: float
    cy: float
    angle: float


def _row_poses(cards: tuple[Card, ...], y: float, pitch: float, w: float, rng: np.random.Generator,
               row: str | None, start: int = 0) -> list[tuple[Card, str | None, int, float, float, float]]:
    n = len(cards)
    row_angle = rng.normal(0, 0.035)
    x0 = -(n - 1) * pitch / 2 + rng.normal(0, 0.04 * w)
    out = []
    for i, card in enumerate(cards):
        x = x0 + i * pitch + rng.normal(0, 0.012 * w)
        yy = y + rng.normal(0, 0.012 * w) + x * math.sin(row_angle)
        out.append((card, row, start + i, x, yy, row_angle + rng.normal(0, 0.03)))
    return out


TIGHT_PITCH = (0.75, 1.0)      # a tight row's card pitch, in index extents (x2 of the index box, from the edge)
TIGHT_CLEAR = (1.0, 1.25)      # or, in half the tight hands, just clear of the index (only the next row cuts it)
TIGHT_ROW_STEP = (0.86, 1.06)  # a tight stack's row step, in index extents: the next row cuts through the suit
FAN_STEP_DEG = (3.0, 10.0)     # a fanned row: each next card turned this much further than the one before it
INDEX_REACH = 0.4              # a corner index's centre lies about this many card heights from the card's centre
FAN_MIN_RADIUS = 0.3           # a fan's turning point lies at least this many card heights from a card's centre


def _fanned(row: list[tuple[Card, str | None, int, float, float, float]], pitch: float, h: float, step: float
            ) -> list[tuple[Card, str | None, int, float, float, float]]:
    """``row`` (as ``_row_poses`` laid it) laid along an arc as players fan a row: each card turned ``step``
    radians further than the one before, about a point toward the player (+y) from the row's middle; the
    indices keep about ``pitch`` between them (their arc passes through them: the cards' centres lie
    ``INDEX_REACH`` card heights nearer the turning point)."""
    reach = pitch / step
    radius = max(reach - INDEX_REACH * h, FAN_MIN_RADIUS * h)
    middle = sum(x for _c, _r, _p, x, _y, _a in row) / len(row)
    out = []
    for card, name, pos, x, y, angle in row:
        a = (x - middle) / reach
        out.append((card, name, pos, middle + radius * math.sin(a), y + radius * (1 - math.cos(a)), angle + a))
    return out


def hand_in_player_frame(rows: Rows, w: float, h: float, index_w: float, index_h: float, free: bool,
                         rng: np.random.Generator, tight: np.random.Generator | None = None,
                         showing: tuple[float, float] | None = None, fan: np.random.Generator | None = None
                         ) -> list[tuple[Card, str | None, int, float, float, float]]:
    """Poses (card, row, pos, x, y, angle) with the player at +y; draw order = list order.

    ``index_w`` / ``index_h`` (mm) are the corner index extents: overlapped cards
    keep at least that much of the lower card showing. ``tight``: the hand is laid as players lay
    a tight row (drawn from this generator, the others' draws unchanged): in half the tight hands each next
    card covers all but a strip of the index (``TIGHT_PITCH``), in the others it just clears it
    (``TIGHT_CLEAR``); in half the hands the rows are drawn from the other side (so the strips are of the
    bottom-right indices), and in 70 % each next row steps less than an index (``TIGHT_ROW_STEP``), cutting
    through the suit. ``showing`` (low, high, in index extents): every row overlapped, each next card
    leaving that much of the one below showing, drawn per hand (``None``: as drawn above). ``fan``: every row
    laid as a fan (``_fanned``), each next card turned ``FAN_STEP_DEG`` further, drawn from this generator (the
    other draws unchanged: the same hand, fanned).
    """
    if free:
        return _free_shape(rows, w, h, index_w, rng)
    overlapped = rng.random() < 0.7
    if overlapped:
        pitch = index_w + w * rng.uniform(0.04, 0.18)
    else:
        pitch = w * rng.uniform(1.02, 1.25)
    stacked = rng.random() < 0.6
    row_step = (index_h + h * rng.uniform(0.08, 0.4)) if stacked else h * rng.uniform(1.03, 1.25)
    if showing is not None:
        pitch = index_w * rng.uniform(*showing)
    reverse_cards = reverse_rows = False
    if tight is not None:
        pitch = index_w * tight.uniform(*(TIGHT_PITCH if tight.random() < 0.5 else TIGHT_CLEAR))
        if tight.random() < 0.7:
            row_step = index_h * tight.uniform(*TIGHT_ROW_STEP)
        reverse_cards, reverse_rows = bool(tight.random() < 0.5), bool(tight.random() < 0.3)
    step = math.radians(fan.uniform(*FAN_STEP_DEG)) if fan is not None else 0.0
    laid = []
    for r, (name, cards) in enumerate(zip(ROW_NAMES, rows, strict=True)):
        row = _row_poses(cards, (r - 1) * row_step, pitch, w, rng, name)
        if step:
            row = _fanned(row, pitch, h, step)
        laid.append(row[::-1] if reverse_cards else row)
    return [p for row in (laid[::-1] if reverse_rows else laid) for p in row]


def _free_shape(rows: Rows, w: float, h: float, index_w: float,
                rng: np.random.Generator) -> list[tuple[Card, str | None, int, float, float, float]]:
    """A special hand shown as 13 cards in some shape: one long line, a fan, or two lines."""
    cards = [c for row in rows for c in row]
    shape = rng.choice(["line", "fan", "two_lines"])
    pitch = index_w + w * rng.uniform(0.03, 0.12)
    out: list[tuple[Card, str | None, int, float, float, float]] = []
    if shape == "line":
        out = _row_poses(tuple(cards), 0.0, pitch, w, rng, None)
    elif shape == "two_lines":
        k = int(rng.integers(6, 8))
        out = _row_poses(tuple(cards[:k]), -0.3 * h, pitch, w, rng, None)
        out += _row_poses(tuple(cards[k:]), 0.3 * h + index_w, pitch, w, rng, None, start=k)
    else:
        radius = h * rng.uniform(1.6, 2.6)
        step = pitch / radius
        for i, card in enumerate(cards):
            a = (i - 6) * step
            out.append((card, None, i, radius * math.sin(a), radius * (1 - math.cos(a)), a + rng.normal(0, 0.02)))
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def lay_table(hands: list[Rows], seats: list[str], free: list[bool], w: float, h: float, index_w: float,
              index_h: float, rng: np.random.Generator, tight: np.random.Generator | None = None,
              tight_share: float = 0.0, showing: tuple[float, float] | None = None,
              fan: np.random.Generator | None = None, fan_share: float = 0.0
              ) -> tuple[list[CardPose], list[tuple[float, ...]]]:
    """Poses of every card on the table and each hand's bounding box (mm). A share ``tight_share`` of the
    hands laid tight (``hand_in_player_frame``), drawn from ``tight``: without it the table is the same.
    ``showing``: every hand's rows overlapped, leaving that many index extents of each covered card showing.
    A share ``fan_share`` of the hands laid in rows fanned, drawn from ``fan`` (without it the table is the same)."""
    local = []
    for rows, f in zip(hands, free, strict=True):
        laid_tight = tight is not None and tight.random() < tight_share
        laid_fan = fan is not None and fan.random() < fan_share
        local.append(hand_in_player_frame(rows, w, h, index_w, index_h, f, rng, tight if laid_tight else None,
                                          showing, fan if laid_fan else None))
    angles = [SEAT_ANGLE[s] + rng.normal(0, 0.06) for s in seats]
    radius = 0.2 * h
    rng_offsets = {s: float(rng.normal(0, 0.15 * w)) for s in SEATS}
    # Hands never overlap: players keep their own area. The extent of a hand is its cards'
    # centres plus a card's half-diagonal, plus a random gap between neighbours.
    pad = 0.5 * math.hypot(w, h) + 0.08 * w * rng.uniform(1, 4)
    turned = []
    for poses, a in zip(local, angles, strict=True):
        xy = np.array([[x, y] for _c, _r, _p, x, y, _a in poses], dtype=np.float64)
        c, s_ = math.cos(a), math.sin(a)
        turned.append(xy @ np.array([[c, s_], [-s_, c]]))
    extents = [(t[:, 0].min() - pad, t[:, 1].min() - pad, t[:, 0].max() + pad, t[:, 1].max() + pad) for t in turned]

    def offsets(dist: float) -> list[tuple[float, float]]:
        out = []
        for seat in seats:
            dx, dy = SEAT_DIR[seat]
            side = rng_offsets[seat]
            out.append((dx * dist + dy * side, dy * dist - dx * side))
        return out

    def boxes_at(dist: float) -> list[tuple[float, float, float, float]]:
        return [(float(e[0] + ox), float(e[1] + oy), float(e[2] + ox), float(e[3] + oy))
                for e, (ox, oy) in zip(extents, offsets(dist), strict=True)]

    for _ in range(400):
        boxes = boxes_at(radius)
        if not any(_overlap(boxes[i], boxes[j]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))):
            break
        radius += 0.03 * h
    if len(seats) == 2 and rng.random() < 0.5:
        radius *= rng.uniform(1.0, 1.3)
        boxes = boxes_at(radius)
    poses_out = []
    for i, ((ox, oy), poses, t, a) in enumerate(zip(offsets(radius), local, turned, angles, strict=True)):
        for (card, row, pos, _x, _y, ang), (x, y) in zip(poses, t.tolist(), strict=True):
            poses_out.append(CardPose(card=card, player=i, row=row, position=pos, cx=x + ox, cy=y + oy,
                                      angle=ang + a))
    return poses_out, [tuple(b) for b in boxes]
