"""A card read twice, as doubts for ``vision.resolve``: the scores may not depend on which read is which card.

An identity read confidently on two separate cards is a misread: one read is another card (``vision.clutter`` reports
it; when leaving one read out lays out every hand, ``vision.layout`` does so). Kept both in their places, every hand may
be complete and laid out: then one read is the identity read and the other a card no other sure card is (with 4 players,
the one card of the deck not read). The reader's own alternatives are not trusted for this: a misread's truth can be far
down its list.
"""

from __future__ import annotations

from referee.cards import DECK, Card

from .layout import layout_keeping_both_reads
from .resolve import Doubt, Laid, OpenTable
from .thresholds import THRESHOLDS
from .types import CardDetection, Problem
from .unsure import unsure_cards


def read_twice(laid: Laid) -> OpenTable | None:
    """The producer of the doubts of a card read twice: when a duplicate blocks the table and, laid out with both
    confident reads of one identity kept (exactly one identity seated twice, both sure), nothing but cards read unsurely
    blocks it: that table, the unsure cards (over the identities no other sure card holds) and the two reads."""
    if not any(p.kind == "duplicate_card" and p.blocking for p in laid.judged.problems):
        return None
    min_confidence = laid.min_confidence
    both = layout_keeping_both_reads(laid.detections.cards, min_confidence, laid.detections.unread,
                                     laid.detections.widened)
    if both is None or any(p.blocking and p.kind != "low_confidence" for p in laid.scorer.playable(both)[1].problems):
        return None
    seated = [c for s in both.seats for c in s.cards]
    by_card: dict[Card, list[CardDetection]] = {}
    for c in seated:
        by_card.setdefault(c.card, []).append(c)
    twice = [reads for reads in by_card.values() if len(reads) > 1]
    if len(twice) != 1 or len(twice[0]) != 2 or any(r.confidence < min_confidence for r in twice[0]):
        return None
    first, second = sorted(twice[0], key=lambda r: -r.confidence)
    seat_of = {id(c): s.seat for s in both.seats for c in s.cards}
    held = {c.card for c in seated if c is not first and c is not second and c.confidence >= min_confidence}
    held |= {c.card for c in both.unassigned if c.confidence >= min_confidence}
    identities = (first.card, *(c for c in DECK if c not in held and c != first.card))
    unsure = unsure_cards(both, min_confidence, held)
    if any(not u.identities for u in unsure):
        return None
    reads = (Doubt("twice", r, identities, seat_of[id(r)]) for r in (first, second))
    return OpenTable(both, (*unsure, *reads))


def twice_note(twice: list[Doubt], shown: dict[int, Card]) -> Problem:
    """The note (not blocking) for a table scored whichever read is which: the seat and place of the read shown as
    another card (``shown``: the identity each read, by ``id``, is scored as) and what it must or may be."""
    card, identities = twice[0].identities[0], twice[0].identities
    misread = twice[1] if shown[id(twice[0].card)] == card else twice[0]
    other = shown[id(misread.card)]
    x, y = misread.card.center
    if len(identities) == 2:
        what = f"another card, {other}, the one card of the deck not seen, and the scores are the same whichever it is"
    else:
        what = (f"another card, and the scores are the same whichever it is and whichever of the "
                f"{len(identities) - 1} cards not seen")
    return Problem(kind="duplicate_card", seat=misread.seat, card=str(card), blocking=False,
                   message=f"{card} is seen twice: one of the two is {what} (shown as {other} at "
                           f"({x:.0f}, {y:.0f}); check them)")


def twice_problem(twice: list[Doubt]) -> Problem:
    """The blocking problem of a table whose scores depend on which read is which: where the two reads are, and the
    cards the other one may be when they are few."""
    (x1, y1), (x2, y2) = (d.card.center for d in twice)
    card, others = twice[0].identities[0], twice[0].identities[1:]
    if len(others) == 1:
        what = f"another card, {others[0]} (the one card of the deck not seen)"
    elif len(others) <= THRESHOLDS.max_named:
        what = f"another card, one of {', '.join(str(c) for c in others)}"
    else:
        what = "another card"
    seat = twice[0].seat if twice[0].seat == twice[1].seat else None
    return Problem(kind="duplicate_card", seat=seat, card=str(card),
                   message=f"{card} is seen twice, at ({x1:.0f}, {y1:.0f}) and ({x2:.0f}, {y2:.0f}): one of "
                           f"the two is {what}, and which one it is changes the scores: check them")


__all__ = ["read_twice", "twice_note", "twice_problem"]
