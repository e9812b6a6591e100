"""What is not a card of a hand: a second read of one card, artwork read as a card, unread corners.

Two reads of one identity are one card's two indices when they coincide, else a card seen twice (a problem, or a weak
read dropped); a read far out of scale with its seat's cards is artwork; a sure read apart from every hand that lies on
a complete hand's cards is printed on them; many unread corners together apart from every hand may be a player's
cards, unread."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from .join import inside_outline
from .seats import card_size, median_size, out_of_scale
from .thresholds import THRESHOLDS
from .types import Box, CardDetection, Point, Problem, SeatLayout, box_centre, box_long_side


def reads_by_identity(cards: list[CardDetection]) -> dict[str, list[CardDetection]]:
    """The reads of each identity, surest first; two reads whose estimated outlines coincide are one card's two corner
    indices (merged into one)."""
    by_card: dict[str, list[CardDetection]] = defaultdict(list)
    for c in sorted(cards, key=lambda c: -c.confidence):
        reads = by_card[str(c.card)]
        if reads:
            best = reads[0]
            (x0, y0), (x1, y1) = best.center, c.center
            if math.hypot(x1 - x0, y1 - y0) < THRESHOLDS.same_card * max(card_size(best), card_size(c)):
                reads[0] = replace(best, index_boxes=best.index_boxes + c.index_boxes, box=(
                    min(best.box[0], c.box[0]), min(best.box[1], c.box[1]),
                    max(best.box[2], c.box[2]), max(best.box[3], c.box[3])))
                continue
        reads.append(c)
    return dict(by_card)


def one_read_each(by_card: dict[str, list[CardDetection]], order: list[CardDetection], problems: list[Problem],
                   min_confidence: float) -> list[CardDetection]:
    """One detection per identity, in the detections' order: the surest read. The others are a card seen twice (a
    problem), unless weak beside a confident read: then dropped with a note (if it was another card misread, that
    card's player is a card short, which is reported)."""
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


def artwork_note(card: CardDetection, what: str) -> Problem:
    """The note (not blocking) for a read set aside as artwork: far ``what`` ("smaller", "larger") than its
    neighbours."""
    x, y = card.center
    return Problem(kind="unassigned_card", card=str(card.card), blocking=False,
                   message=f"{card.card} at ({x:.0f}, {y:.0f}) is ignored: far {what} than the cards around it "
                           "(artwork read as a card)")


def printed_note(card: CardDetection, seat: str) -> Problem:
    """The note (not blocking) for a sure read apart from every hand that lies on ``seat``'s cards, every hand
    complete (``lies_on``)."""
    x, y = card.center
    return Problem(kind="unassigned_card", card=str(card.card), blocking=False,
                   message=f"{card.card} at ({x:.0f}, {y:.0f}) is ignored: it lies on the {seat} player's cards and "
                           "every hand is complete (something printed on a card, read as a card)")


def without_clutter(group: list[CardDetection], problems: list[Problem]) -> list[CardDetection]:
    """A seat's cards without the reads far out of scale with its cards (``THRESHOLDS.clutter_scale``): artwork read as
    a card (a card back showing four aces, a chip, a court card's picture), not a card of the hand. A real card left out
    so leaves its seat short, which is reported (or tried as every card not seen, ``vision.unseen``)."""
    median = median_size(group)
    kept = []
    for c in group:
        if out_of_scale(c, median):
            problems.append(artwork_note(c, "smaller" if card_size(c) < median else "larger"))
        else:
            kept.append(c)
    return kept


F64 = npt.NDArray[np.float64]


def expected_sizes(sizes: F64, centres: F64, at: F64) -> F64 | None:
    """The card size that cards of ``sizes`` lying at ``centres`` have at each of the places ``at``. A tilted camera
    shrinks the cards steadily toward the far side, so the logarithm of the size is taken as a plane over the photo. It
    starts level at the cards' median size; it is fitted (least squares) to the cards within
    ``THRESHOLDS.scale_fit_start`` of it, then again to those within ``THRESHOLDS.scale_fit_spread`` of the new plane,
    until they are the same cards (a card far off the others' sizes does not pull it its way). None with fewer than
    ``THRESHOLDS.scale_fit_reads`` cards, or when fewer lie near the plane (then nothing is judged by it)."""
    if len(sizes) < THRESHOLDS.scale_fit_reads:
        return None
    unit = float(np.median(sizes))  # places in card heights, sizes as logarithms of shares of the median
    origin = centres.mean(axis=0)

    def places(points: F64) -> F64:
        return np.column_stack([np.ones(len(points)), (points - origin) / unit])

    logs = np.log(sizes / unit)
    here = places(centres)
    fit: F64 = np.zeros(3)
    near = np.zeros(len(sizes), dtype=bool)
    spread = THRESHOLDS.scale_fit_start
    for _ in range(10):
        now = np.abs(logs - here @ fit) <= spread
        spread = THRESHOLDS.scale_fit_spread
        if now.sum() < THRESHOLDS.scale_fit_reads:
            return None
        if np.array_equal(now, near):
            break
        near = now
        fit = np.asarray(np.linalg.lstsq(here[near], logs[near], rcond=None)[0], dtype=np.float64)
    return np.asarray(unit * np.exp(places(at) @ fit), dtype=np.float64)


def without_artwork(cards: list[CardDetection], problems: list[Problem],
                    widened: tuple[float, float] = (1.0, 1.0)) -> list[CardDetection]:
    """The reads without artwork read as cards, such as the aces pictured on a card back beside the hands, whose reads
    would otherwise be duplicates of the hands' cards or cards apart from every hand. Artwork is a few reads together
    (at most ``THRESHOLDS.artwork_reads`` of a size within ``THRESHOLDS.scale_fit_spread`` of theirs, within
    ``THRESHOLDS.artwork_reach`` of their own card heights) far smaller than the other reads' cards at their place
    (``expected_sizes`` fitted to the reads not so few: the hands; under the low end of
    ``THRESHOLDS.clutter_scale``). A hand's cards are more, so a far seat's cards are kept however small. Sizes and
    places are measured in the camera's frame (``widened``: a squashed photo read widened back, where a card lying
    across the squash is as long as one along it). Each read left out is noted (not blocking); a real card left out
    so leaves its seat short, which is reported."""
    if not cards:
        return cards
    sizes = np.array([card_size(c, widened) for c in cards])
    centres = np.array([c.center for c in cards]) * widened
    one_size = np.abs(np.log(sizes[:, None] / sizes[None, :])) <= THRESHOLDS.scale_fit_spread
    close = np.linalg.norm(centres[:, None] - centres[None, :], axis=2) <= THRESHOLDS.artwork_reach * sizes[:, None]
    few = (one_size & close).sum(axis=1) <= THRESHOLDS.artwork_reads
    expected = expected_sizes(sizes[~few], centres[~few], centres[few])
    if expected is None:
        return cards
    artwork = np.zeros(len(cards), dtype=bool)
    artwork[few] = sizes[few] < THRESHOLDS.clutter_scale[0] * expected
    problems.extend(artwork_note(c, "smaller") for c, a in zip(cards, artwork, strict=True) if a)
    return [c for c, a in zip(cards, artwork, strict=True) if not a]


def lies_on(card: CardDetection, seats: Sequence[SeatLayout]) -> str | None:
    """The seat one of whose cards' outlines holds one of ``card``'s index boxes' centres (its centre when it has
    none), or None: a read lying on a player's card is something printed on that card (a pip, a court card's
    picture), not a card of its own, when that player's hand is complete."""
    centres = [box_centre(b) for b in card.index_boxes] or [card.center]
    for seat in seats:
        if any(other.outline is not None and inside_outline(other.outline, p) for other in seat.cards for p in centres):
            return seat.seat
    return None


def unread_apart(held: list[CardDetection], unread: Sequence[Box]) -> list[Point]:
    """The centres of the index regions read as no card that lie on none of the players' cards ``held`` and are not
    far smaller than the held cards' indices at their place (``expected_sizes`` of the index boxes' long sides; under
    ``THRESHOLDS.unread_scale`` of it: a card back's pattern, a chip's print, not a card's index)."""
    apart = [(b, box_centre(b)) for b in unread]
    apart = [(b, p) for b, p in apart if all(math.dist(p, c.center) >= THRESHOLDS.on_a_card * card_size(c)
                                             for c in held)]
    boxes = [b for c in held for b in c.index_boxes]
    if apart and boxes:
        expected = expected_sizes(np.array([box_long_side(b) for b in boxes]), np.array([box_centre(b) for b in boxes]),
                                  np.array([p for _, p in apart]))
        if expected is not None:
            apart = [(b, p) for (b, p), e in zip(apart, expected, strict=True)
                     if box_long_side(b) >= THRESHOLDS.unread_scale * e]
    return [p for _, p in apart]


def unread_hand(held: list[CardDetection], apart: list[Point]) -> Problem | None:
    """A problem when at least ``THRESHOLDS.unread_hand_cluster`` of the unread regions ``apart`` from the players'
    cards ``held`` lie within ``THRESHOLDS.hand_reach`` card heights of one of them: a player's cards there may be
    unread, and the round is not scored without them."""
    if len(apart) < THRESHOLDS.unread_hand_cluster or not held:
        return None
    reach = THRESHOLDS.hand_reach * float(np.median([card_size(c) for c in held]))
    densest = max(sum(math.dist(p, q) < reach for q in apart) for p in apart)
    if densest < THRESHOLDS.unread_hand_cluster:
        return None
    return Problem(kind="unread_cards", message=f"{densest} card corners lie together apart from every player's "
                                                "cards and could not be read: a player's cards may be there")
