"""The data that flows from the detector through the table geometry.

``CardDetection`` is one physical card, seen once; ``TableLayout`` is the cards grouped into seats and rows, with every
``Problem`` that blocks scoring. Both are frozen and serialise to the JSON of ``referee detect`` / ``referee photo``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from referee.cards import Card

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels
Point = tuple[float, float]


def box_centre(b: Box) -> Point:
    """The centre of a box (x1, y1, x2, y2)."""
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def box_long_side(b: Box) -> float:
    """The longer side of a box (x1, y1, x2, y2): an index box's height whichever way its card lies."""
    return max(b[2] - b[0], b[3] - b[1])


SEAT_NAMES: tuple[str, ...] = ("bottom", "right", "top", "left")
# A card whose reading is less probable than this (``CardDetection.confidence``: given the other
# cards on the table, see vision.join) is a problem for the user to check. Chosen on validation-family
# photo tables: 0.80 and 0.85 settled the most right with none wrong (64 of 120; 0.75: 65 right and
# 1 wrong; 0.90: 60 right); of the two, the surer won.
MIN_CONFIDENCE = 0.85


def _r(x: float) -> float:
    return round(float(x), 1)


@dataclass(frozen=True, kw_only=True)
class CardDetection:
    """One physical card: its identity and where it is.

    ``box`` covers what is visible of the card (its index boxes, and its outline when known); ``index_boxes`` are the
    rank+suit corner indices the detector read; ``outline`` is the card's four corners when they could be estimated;
    ``up`` is the direction (degrees, image coordinates, 0 = the card's top points up the image, 90 = points right) the
    card's top edge faces, or None. ``up_either_way``: the card showed both corner indices (they face opposite ways),
    so ``up + 180`` fits it as well (a card looks the same turned half round; the player's other cards settle it).
    ``confidence`` is how probable the identity is, given the other cards on the table. ``alternatives``: the reader's
    probabilities as read, before the other cards were weighed in (the likeliest identities, most probable first; empty
    when unknown), for judging whether an unsure card's identity matters (``vision.unsure``). Not part of the JSON.
    ``unseen``: not a card the photo shows but the place of one missing from a row, its identity one that settles the
    round alike whatever the card is (``vision.unseen``); its box is its row's. ``turn``: how far the card lies turned
    from the photo's axes (degrees, -45..45, as ``vision.turn.card_turn`` measures it around its index), None where
    not told; the layout tells rows laid as fans by it (``vision.rows``). Not part of the JSON.
    """

    card: Card
    confidence: float
    box: Box
    index_boxes: tuple[Box, ...] = ()
    outline: tuple[Point, Point, Point, Point] | None = None
    up: float | None = None
    up_either_way: bool = False
    alternatives: tuple[tuple[Card, float], ...] = field(default=(), compare=False, repr=False)
    unseen: bool = False
    turn: float | None = field(default=None, compare=False, repr=False)

    @property
    def center(self) -> Point:
        if self.outline is not None:
            xs = [p[0] for p in self.outline]
            ys = [p[1] for p in self.outline]
            return (sum(xs) / 4, sum(ys) / 4)
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "card": str(self.card),
            "confidence": round(float(self.confidence), 4),
            "box": [_r(v) for v in self.box],
            "outline": [[_r(x), _r(y)] for x, y in self.outline] if self.outline is not None else None,
            "index_boxes": [[_r(v) for v in b] for b in self.index_boxes],
            "up": None if self.up is None else _r(self.up),
        }


@dataclass(frozen=True, kw_only=True)
class Detections:
    """Every card found in one image."""

    width: int
    height: int
    cards: tuple[CardDetection, ...]
    timing_ms: dict[str, float] = field(default_factory=dict)
    # corner-index regions the detector found that no card was read from (unreadable, or clutter);
    # many together apart from every hand may be a player's unread cards (vision.layout; not in the JSON)
    unread: tuple[Box, ...] = ()
    # (sx, sy): the photo was read widened this many times along x and y, a square one squashed from a
    # camera's frame (vision.stretch); the boxes above are in the photo's own pixels (not in the JSON)
    widened: tuple[float, float] = (1.0, 1.0)
    # cards read only in index boxes stage 1 found faintly (a covered strip, or a card's own picture or pips): set
    # aside, and given to a hand one card short where one alone lays it in rows (vision.layout; not in the JSON)
    faint: tuple[CardDetection, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "image": {"width": self.width, "height": self.height},
            "cards": [c.to_json() for c in self.cards],
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
        }


ProblemKind = Literal[
    "duplicate_card", "card_count", "row_size", "low_confidence", "unassigned_card", "no_rows", "player_count",
    "banker", "invalid_round", "unread_cards",
]


@dataclass(frozen=True, kw_only=True)
class Problem:
    """Something that stops the referee from scoring the photo as it is."""

    kind: ProblemKind
    message: str
    seat: str | None = None
    card: str | None = None
    blocking: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "seat": self.seat, "card": self.card,
                "blocking": self.blocking}


RowName = Literal["head", "middle", "tail"]
LaidRows = tuple[tuple[CardDetection, ...], tuple[CardDetection, ...], tuple[CardDetection, ...]]  # head, middle, tail


@dataclass(frozen=True, kw_only=True)
class SeatLayout:
    """One player's cards as laid: three rows, or 13 cards in a free shape (a special hand).

    ``short_rows``: a seat with fewer than 13 cards whose cards show three rows that the missing cards complete to
    3 + 5 + 5 one way only: those rows as laid (head, middle, tail; see ``vision.unseen``). None otherwise."""

    seat: str
    cards: tuple[CardDetection, ...]
    rows: LaidRows | None
    short_rows: LaidRows | None = None

    @property
    def confidence(self) -> float:
        return min((c.confidence for c in self.cards), default=0.0)

    @property
    def shape(self) -> Literal["rows", "free"]:
        return "rows" if self.rows is not None or self.short_rows is not None else "free"

    def row_of(self, detection: CardDetection) -> RowName | None:
        names: tuple[RowName, RowName, RowName] = ("head", "middle", "tail")
        return next((n for n, row in zip(names, self.rows or self.short_rows or (), strict=False) if detection in row),
                    None)

    def to_json(self) -> dict[str, Any]:
        rows = self.rows or self.short_rows  # a short seat's rows as laid, for the user to complete
        return {
            "seat": self.seat,
            "shape": self.shape,
            "head": [str(c.card) for c in rows[0]] if rows else None,
            "middle": [str(c.card) for c in rows[1]] if rows else None,
            "tail": [str(c.card) for c in rows[2]] if rows else None,
            "cards": [str(c.card) for c in self.cards],
            "confidence": round(self.confidence, 4),
        }


@dataclass(frozen=True, kw_only=True)
class TableLayout:
    seats: tuple[SeatLayout, ...]
    unassigned: tuple[CardDetection, ...] = ()
    problems: tuple[Problem, ...] = ()

    @property
    def blocked(self) -> bool:
        return any(p.blocking for p in self.problems)
