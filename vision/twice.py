"""A card read twice, when the scores do not depend on which read is which card.

An identity read confidently on two separate cards is a misread: one of the two reads is another
card (``vision.layout`` reports it; when leaving one read out lays out every hand, that is done there).
Kept both in their places (``layout_keeping_both_reads``), every hand may be complete and laid out: then
one read is the identity read and the other a card no other sure card is. With 4 players every card is
dealt, so that is the one card of the deck not read. Both reads are tried as either (one deck: not both
the same), with the cards read unsurely (``vision.unsure``); when every combination settles the round
alike it is scored, with a note naming what the second read must be. The reader's own alternatives are
not trusted for this: a misread's truth can be far down its list.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.cards import DECK, Card

from .types import CardDetection, Problem, TableLayout
from .unsure import Unsure, relabelled, unsure_cards


@dataclass(frozen=True)
class ReadTwice:
    """The two seated reads of one identity (surest first) and what either may be: the identity read
    first, then every card no other sure card on the table is."""

    card: Card
    reads: tuple[CardDetection, CardDetection]
    seats: tuple[str, str]  # the seat of each read
    identities: tuple[Card, ...]

    @property
    def unsure(self) -> list[Unsure]:
        return [Unsure(r, self.identities) for r in self.reads]


def read_twice(layout: TableLayout, min_confidence: float) -> tuple[ReadTwice, list[Unsure]] | None:
    """In ``layout`` (laid out with both reads kept), the identity read confidently on two seated cards
    and the cards read unsurely (with the identities they may have, ``vision.unsure``: over those no other
    sure card holds); None unless exactly one identity is seated twice, both sure, or when an unsure card's
    identities are unknown."""
    seated = [c for s in layout.seats for c in s.cards]
    by_card: dict[Card, list[CardDetection]] = {}
    for c in seated:
        by_card.setdefault(c.card, []).append(c)
    twice = [reads for reads in by_card.values() if len(reads) > 1]
    if len(twice) != 1 or len(twice[0]) != 2 or any(r.confidence < min_confidence for r in twice[0]):
        return None
    first, second = sorted(twice[0], key=lambda r: -r.confidence)
    seat_of = {id(c): s.seat for s in layout.seats for c in s.cards}
    others = [c for c in seated if c is not first and c is not second]
    held = {c.card for c in others if c.confidence >= min_confidence}
    held |= {c.card for c in layout.unassigned if c.confidence >= min_confidence}
    identities = (first.card, *(c for c in DECK if c not in held and c != first.card))
    unsure = unsure_cards(layout, min_confidence, held)
    if unsure is None:
        return None
    return ReadTwice(first.card, (first, second), (seat_of[id(first)], seat_of[id(second)]), identities), unsure


def twice_note(twice: ReadTwice, shown: dict[int, Card]) -> Problem:
    """The note (not blocking) for a table scored whichever read is which: the seat and place of the read
    shown as another card (``shown``: the identity each read, by ``id``, is scored as) and what it must or
    may be."""
    at = 1 if shown[id(twice.reads[0])] == twice.card else 0
    misread = twice.reads[at]
    other = shown[id(misread)]
    x, y = misread.center
    if len(twice.identities) == 2:
        what = f"another card, {other}, the one card of the deck not seen, and the scores are the same whichever it is"
    else:
        what = (f"another card, and the scores are the same whichever it is and whichever of the "
                f"{len(twice.identities) - 1} cards not seen")
    return Problem(kind="duplicate_card", seat=twice.seats[at], card=str(twice.card), blocking=False,
                   message=f"{twice.card} is seen twice: one of the two is {what} (shown as {other} at "
                           f"({x:.0f}, {y:.0f}); check them)")


def shown_as(layout: TableLayout, twice: ReadTwice, shown: dict[int, Card]) -> TableLayout:
    """``layout`` with the two reads as ``shown``; the one shown as another card than it was read keeps no
    confidence (as a card not seen: it is marked for checking)."""
    misread = next(r for r in twice.reads if shown[id(r)] != twice.card)
    return relabelled(layout, {id(r): shown[id(r)] for r in twice.reads}, unsure=frozenset({id(misread)}))


MAX_NAMED = 4  # the problem names the cards the other read may be when there are at most this many


def twice_problem(twice: ReadTwice) -> Problem:
    """The blocking problem of a table whose scores depend on which read is which: where the two reads are,
    and the cards the other one may be when they are few."""
    (x1, y1), (x2, y2) = (r.center for r in twice.reads)
    others = twice.identities[1:]
    if len(others) == 1:
        what = f"another card, {others[0]} (the one card of the deck not seen)"
    elif len(others) <= MAX_NAMED:
        what = f"another card, one of {', '.join(str(c) for c in others)}"
    else:
        what = "another card"
    seat = twice.seats[0] if twice.seats[0] == twice.seats[1] else None
    return Problem(kind="duplicate_card", seat=seat, card=str(twice.card),
                   message=f"{twice.card} is seen twice, at ({x1:.0f}, {y1:.0f}) and ({x2:.0f}, {y2:.0f}): one of "
                           f"the two is {what}, and which one it is changes the scores: check them")


__all__ = ["MAX_NAMED", "ReadTwice", "read_twice", "shown_as", "twice_note", "twice_problem"]
