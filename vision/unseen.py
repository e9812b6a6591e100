"""Cards the photo does not show, as doubts for ``vision.resolve``: the scores may not depend on what they are.

A player's rows can be short of a card the detector did not find (a corner under glare or out of focus). When the
player's other cards show three clear rows that the missing cards complete to 3 + 5 + 5 one way only
(``SeatLayout.short_rows``), the gap is in a known row, and what fills it is one of the cards no sure card on the table
is (one deck, RULES.md; with 4 players exactly the cards not read). A sure card whose reader gave one of those a fair
chance may be it, the gap then its reading (``swap_suspects``). Scored, the short seats' problems become notes saying
what the unseen card must be, or that the scores are the same whichever it is; else they block, naming the cards a gap
may be when they are few: the referee never guesses a card that changes the score.
"""

from __future__ import annotations

from dataclasses import replace

from referee.cards import DECK, HAND_SIZE, ROW_NAMES, ROW_SIZES, Card

from .resolve import Doubt, Laid, OpenTable
from .thresholds import THRESHOLDS
from .types import CardDetection, LaidRows, Problem, SeatLayout, TableLayout
from .unsure import unsure_cards

SHORT_SEAT_KINDS = ("card_count", "row_size")  # the problems a short seat reports (vision.rows)


def unsure_or_unseen(laid: Laid) -> OpenTable | None:
    """The producer of the doubts of cards read unsurely and not seen: when nothing else blocks the table, the table
    with its short seats' gaps filled by placeholders; the unsure cards, the gaps and the sure cards that may be a card
    not seen."""
    short = short_seats(laid.judged)
    blocking = [p for p in laid.judged.problems if p.blocking]
    if short is None and not all(p.kind == "low_confidence" for p in blocking):
        return None
    filled, gaps, suspects = with_gaps_filled(laid.laid, short, laid.min_confidence) if short else (laid.laid, [], [])
    return OpenTable(filled, (*unsure_cards(filled, laid.min_confidence), *gaps, *suspects))


def short_seats(layout: TableLayout) -> list[SeatLayout] | None:
    """The seats short of cards, when nothing else but unsure cards blocks the table and every short seat's rows are
    known (``SeatLayout.short_rows``) and at most ``THRESHOLDS.max_unseen`` cards are missing in all; else None."""
    short = [s for s in layout.seats if len(s.cards) < HAND_SIZE]
    names = {s.seat for s in short}
    if (not short or any(s.short_rows is None for s in short)
            or sum(HAND_SIZE - len(s.cards) for s in short) > THRESHOLDS.max_unseen
            or any(p.blocking and p.kind != "low_confidence" and not (p.kind in SHORT_SEAT_KINDS and p.seat in names)
                   for p in layout.problems)):
        return None
    return short


def swap_suspects(layout: TableLayout, candidates: tuple[Card, ...], min_confidence: float) -> list[Doubt]:
    """The surely read cards that may be one of the ``candidates`` (their reader gave it at least
    ``THRESHOLDS.may_be``), each with its reading and those: if one is, the card not seen is its reading."""
    out: list[Doubt] = []
    for c in (c for s in layout.seats for c in s.cards if c.confidence >= min_confidence and not c.unseen):
        others = tuple(a for a, p in c.alternatives if p >= THRESHOLDS.may_be and a != c.card and a in candidates)
        if others:
            out.append(Doubt("suspect", c, (c.card, *others)))
    return out


def with_gaps_filled(layout: TableLayout, short: list[SeatLayout], min_confidence: float
                     ) -> tuple[TableLayout, list[Doubt], list[Doubt]]:
    """``layout`` with each short seat's rows completed by placeholders (``CardDetection.unseen``: no confidence, the
    row's box) and the short seats' own problems dropped; the gaps they fill; and the sure cards that may be one of the
    cards not seen (``swap_suspects``), whose readings the gaps may then be."""
    held = {c.card for s in layout.seats for c in s.cards if c.confidence >= min_confidence}
    held |= {c.card for c in layout.unassigned if c.confidence >= min_confidence}
    suspects = swap_suspects(layout, tuple(c for c in DECK if c not in held), min_confidence)
    candidates = tuple(c for c in DECK if c not in held or any(u.card.card == c for u in suspects))
    names = {s.seat for s in short}
    gaps: list[Doubt] = []
    seats: list[SeatLayout] = []
    for seat in layout.seats:
        if seat.seat not in names or seat.short_rows is None:
            seats.append(seat)
            continue
        rows: list[tuple[CardDetection, ...]] = []
        for name, row in zip(ROW_NAMES, seat.short_rows, strict=True):
            cards = row or seat.cards  # an unseen card is drawn at its row's box
            box = (min(c.box[0] for c in cards), min(c.box[1] for c in cards), max(c.box[2] for c in cards),
                   max(c.box[3] for c in cards))
            added = tuple(CardDetection(card=candidates[0], confidence=0.0, box=box, unseen=True)
                          for _ in range(ROW_SIZES[name] - len(row)))
            gaps.extend(Doubt("unseen", c, candidates, seat.seat, name) for c in added)
            rows.append(row + added)
        laid: LaidRows = (rows[0], rows[1], rows[2])
        seats.append(replace(seat, cards=tuple(c for r in laid for c in r), rows=laid, short_rows=None))
    problems = tuple(p for p in layout.problems if not (p.kind in SHORT_SEAT_KINDS and p.seat in names))
    filled = replace(layout, seats=tuple(seats), problems=problems)
    return filled, gaps, suspects


def gap_notes(gaps: list[Doubt], shown: dict[int, Card]) -> tuple[Problem, ...]:
    """Notes (not blocking) for the gaps of a table that was scored whatever fills them: the card each gap must be when
    the cards not seen are as many as the gaps, else that the scores are the same whichever it is. ``shown``: the
    identity each placeholder (by ``id``) is scored and shown as."""
    out: list[Problem] = []
    for gap in gaps:
        card, identities = shown[id(gap.card)], gap.identities
        where = f"{gap.seat}: a card of the {gap.row} is not seen"
        if len(identities) == len(gaps) == 1:
            message = f"{where}; it must be {card}, the one card of the deck not seen (check it)"
        elif len(identities) == len(gaps):
            names = ", ".join(str(c) for c in identities)
            message = (f"{where}; the cards not seen are {names} (every card is dealt), and the scores are "
                       f"the same whichever is where (shown as {card})")
        else:
            message = (f"{where}; the scores are the same whichever of the {len(identities)} cards not seen "
                       f"it is (shown as {card})")
        out.append(Problem(kind="card_count", seat=gap.seat, card=str(card), blocking=False, message=message))
    return tuple(out)


def gap_hints(problems: tuple[Problem, ...], gaps: list[Doubt]) -> tuple[Problem, ...]:
    """The short seats' card-count problems of a table that could not be scored, each naming the cards its gaps may be
    when they are few (with 4 players, the cards not read), for the user to look for."""
    out: list[Problem] = []
    for p in problems:
        identities = next((g.identities for g in gaps if g.seat == p.seat), ())
        if p.kind == "card_count" and p.blocking and 0 < len(identities) <= THRESHOLDS.max_named:
            names = ", ".join(str(c) for c in identities)
            p = replace(p, message=f"{p.message}; what is missing is among {names}")
        out.append(p)
    return tuple(out)


__all__ = ["gap_hints", "gap_notes", "short_seats", "swap_suspects", "unsure_or_unseen", "with_gaps_filled"]
