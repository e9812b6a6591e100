"""Table geometry: group detected cards into seats, and each seat into head, middle, tail.

The cue is how people lay cards: each player's cards face them (the card's top points away from its player), and the
three rows run across the player's view, head farthest. So cards are grouped by facing direction first, then by
position (``vision.seats``); each group is turned into its player's frame, where rows are horizontal bands
(``vision.rows``); reads that are no card of a hand are set aside (``vision.clutter``).

Nothing is guessed: a seat whose cards do not make 3 + 5 + 5 rows, a card seen twice, a card that belongs to nobody or
one read with low confidence becomes a :class:`Problem` naming the seat and the card.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from referee.cards import HAND_SIZE

from .clutter import (
    lies_on,
    one_read_each,
    printed_note,
    reads_by_identity,
    unread_apart,
    unread_hand,
    without_artwork,
    without_clutter,
)
from .rows import seat_layout
from .seats import grouped, in_scale, median_size, seat_name
from .thresholds import THRESHOLDS
from .types import MIN_CONFIDENCE, Box, CardDetection, Problem, SeatLayout, TableLayout


def layout_table(detections: Sequence[CardDetection], min_confidence: float = MIN_CONFIDENCE,
                 unread: Sequence[Box] = (), widened: tuple[float, float] = (1.0, 1.0),
                 faint: Sequence[CardDetection] = ()) -> TableLayout:
    """Group ``detections`` into seats and rows; report every problem found. An identity read confidently on two
    separate cards, or read on two only unsurely, is a misread (or clutter: a card back's artwork, a patterned table):
    when keeping one read lays out every hand complete (one choice, or several giving the same rows), the others are
    reported as ignored (``_resolve_duplicates``); otherwise the duplicate blocks. A read set aside as artwork that
    alone completes a hand one card short is kept (``_aside_given_back``), and so is a read of ``faint`` (cards
    read only in index boxes the detector found faintly, ``Detections.faint``). ``unread``: the index regions the
    detector read no card from (see ``unread_hand``); ``widened``: a squashed photo's widening
    (``Detections.widened``), in whose frame artwork is measured (``without_artwork``)."""
    artwork: list[Problem] = []
    order = without_artwork(list(detections), artwork, widened)
    kept = {id(c) for c in order}
    return _aside_given_back(_laid_out(order, artwork, min_confidence, unread), order,
                             [*(c for c in detections if id(c) not in kept), *faint], artwork, min_confidence,
                             unread, {id(c) for c in faint})


def _laid_out(order: list[CardDetection], artwork: list[Problem], min_confidence: float,
              unread: Sequence[Box]) -> TableLayout:
    """The table of the reads ``order`` (artwork set aside and noted in ``artwork``), an identity read twice
    resolved where it can be (``_resolve_duplicates``)."""
    by_card = reads_by_identity(order)
    resolved = _resolve_duplicates(by_card, order, min_confidence, unread)
    if resolved is not None:
        return replace(resolved, problems=tuple(artwork) + resolved.problems)
    problems = list(artwork)
    cards = one_read_each(by_card, order, problems, min_confidence)
    return _layout_cards(cards, problems, min_confidence, unread)


def _blocking(layout: TableLayout) -> set[tuple[str, str | None, str | None]]:
    return {(p.kind, p.seat, p.card) for p in layout.problems if p.blocking}


def _aside_given_back(layout: TableLayout, order: list[CardDetection], aside: list[CardDetection],
                      artwork: list[Problem], min_confidence: float, unread: Sequence[Box],
                      faint: AbstractSet[int] = frozenset()) -> TableLayout:
    """``layout``, or where a seat is one card short and exactly one read set aside completes it, the table with that
    read given back: a real card of a tight row whose index shows only as a strip is boxed small, and so taken for
    artwork (``without_artwork``), or found only faintly (the reads whose ids are in ``faint``). Only a read of an
    identity read nowhere else, and only where with it the short seat holds it among 13 cards laid in rows and the
    table's blocking problems are fewer, none new but the read's own low confidence (artwork beside a hand lies
    outside its rows; a card back's aces are read several times; a card's own picture read faintly lies at that
    card's place in its row)."""
    while aside:
        short = {s.seat for s in layout.seats if len(s.cards) == HAND_SIZE - 1}
        if not short:
            break
        reads = [str(c.card) for c in [*order, *aside]]
        before = _blocking(layout)
        works: list[tuple[CardDetection, TableLayout, str]] = []
        for card in aside:
            if reads.count(str(card.card)) != 1:
                continue
            trial = _laid_out([*order, card], [p for p in artwork if p.card != str(card.card)], min_confidence,
                              unread)
            seat = _seat_holding(trial, card)
            if (seat is not None and seat.seat in short and len(seat.cards) == HAND_SIZE and seat.rows is not None
                    and _blocking(trial) - {("low_confidence", seat.seat, str(card.card))} < before):
                # fewer blocking problems, none new; the read's own doubt is the resolver's (vision.unsure)
                works.append((card, trial, seat.seat))
        if len(works) != 1:
            break
        card, layout, holder = works[0]
        if not any(p.kind == "card_count" and p.card == str(card.card) for p in layout.problems):
            x, y = card.center
            layout = replace(layout, problems=(*layout.problems, Problem(
                kind="card_count", seat=holder, card=str(card.card), blocking=False,
                message=f"{card.card} at ({x:.0f}, {y:.0f}) is kept, though "
                        + ("its index was found only faintly" if id(card) in faint else
                           "far smaller than the cards around it")
                        + ": without it a hand is one card short, with it the hand lies in 3 + 5 + 5 rows")))
        order = [*order, card]
        aside = [c for c in aside if c is not card]
        artwork = [p for p in artwork if p.card != str(card.card)]
    return layout


def _seat_holding(layout: TableLayout, card: CardDetection) -> SeatLayout | None:
    """The seat holding the read ``card`` (this very read), or None."""
    return next((s for s in layout.seats if any(c is card for c in s.cards)), None)


def with_players(layout: TableLayout, players: int | None) -> TableLayout:
    """``layout`` with a blocking ``player_count`` problem when it shows another number of hands than ``players``
    (when the caller knows how many play)."""
    if players is None or len(layout.seats) == players:
        return layout
    found = len(layout.seats)
    hint = "a hand may not have been found (glare, outside the photo)" if found < players else (
        "cards apart from the hands may have been taken for a hand")
    problem = Problem(kind="player_count", message=f"found {found} players' cards; {players} play: {hint}")
    return replace(layout, problems=(*layout.problems, problem))


def layout_keeping_both_reads(detections: Sequence[CardDetection], min_confidence: float = MIN_CONFIDENCE,
                              unread: Sequence[Box] = (), widened: tuple[float, float] = (1.0, 1.0)
                              ) -> TableLayout | None:
    """The table laid out with both confident reads of the one identity read confidently on two separate cards kept,
    each in its place: when another card was misread as it, one of the two is that card (the caller tries which). None
    unless exactly one identity is read confidently twice, on two cards."""
    problems: list[Problem] = []
    order = without_artwork(list(detections), problems, widened)
    by_card = reads_by_identity(order)
    twice = [k for k, reads in by_card.items() if sum(r.confidence >= min_confidence for r in reads) > 1]
    if len(twice) != 1:
        return None
    key = twice[0]
    sure = [r for r in by_card[key] if r.confidence >= min_confidence]
    if len(sure) != 2:
        return None
    trial = dict(by_card)
    trial[key] = [sure[0]] + [r for r in by_card[key] if r.confidence < min_confidence]
    trial[f"{key} (the second read)"] = [sure[1]]  # kept apart: one_read_each keeps one read per key
    layout = _layout_cards(one_read_each(trial, order, problems, min_confidence), problems, min_confidence, unread)
    for seat in layout.seats:
        median = median_size(seat.cards)
        if any(str(c.card) == key and not in_scale(c, median) for c in seat.cards):
            return None  # a read not the size of its seat's cards: clutter read as a card, not a card misread
    return layout


def _resolve_duplicates(by_card: dict[str, list[CardDetection]], order: list[CardDetection],
                        min_confidence: float, unread: Sequence[Box]) -> TableLayout | None:
    """The table that keeping a single read per duplicated identity lays out without a blocking problem (but the
    unsure read kept of an identity read only unsurely, which ``vision.unsure`` tries next), with the reads left out
    reported (not blocking); None when no identity is read twice confidently, or twice with no confident read, when
    there are too many choices, or unless the choices that work (at least one) all give every seat the same rows. The
    read kept is a confident one where there are; an identity read confidently once keeps that read, its weak reads
    left to ``one_read_each``. Where no choice works so, the choices blocked by other unsure cards alone work if every
    hand lies in rows (not a free shape: a weak read joining a hand short of the card set aside lays it so)."""
    open_keys = [k for k, reads in by_card.items()
                 if len(reads) > 1 and sum(r.confidence >= min_confidence for r in reads) != 1]
    if not open_keys:
        return None
    choices = [[r for r in by_card[k] if r.confidence >= min_confidence] or by_card[k] for k in open_keys]
    if math.prod(len(c) for c in choices) > THRESHOLDS.max_duplicate_choices:
        return None
    working: list[TableLayout] = []
    beside_unsure: list[TableLayout] = []  # blocked by other unsure cards alone, every hand in rows
    for picks in itertools.product(*choices):
        trial = dict(by_card)
        for key, pick in zip(open_keys, picks, strict=True):
            trial[key] = [pick] + [r for r in by_card[key] if r.confidence < min_confidence <= pick.confidence]
        problems: list[Problem] = []
        for key, pick in zip(open_keys, picks, strict=True):
            for other in by_card[key]:
                if other is not pick and (other.confidence >= min_confidence or pick.confidence < min_confidence):
                    x, y = other.center
                    problems.append(Problem(kind="duplicate_card", card=key, blocking=False,
                                            message=f"{key} is seen twice; the read at ({x:.0f}, {y:.0f}) is ignored: "
                                                    "without it every hand is complete and laid out"))
        cards = one_read_each(trial, order, problems, min_confidence)
        result = _layout_cards(cards, problems, min_confidence, unread)
        unsure = {key for key, pick in zip(open_keys, picks, strict=True) if pick.confidence < min_confidence}
        if not any(p.blocking and not (p.kind == "low_confidence" and p.card in unsure) for p in result.problems):
            working.append(result)
        elif not any((p.blocking and p.kind != "low_confidence") or p.kind == "no_rows" for p in result.problems):
            beside_unsure.append(result)
    # a read that lays out every hand in rows beats one that leaves a hand in a free shape (a special hand
    # lies so; a misread corner of a hand laid in rows pulls the seats' cards out of their rows)
    in_rows = [w for w in working if not any(p.kind == "no_rows" for p in w.problems)]
    working = in_rows or working or beside_unsure
    if not working or len({_hands_of(w) for w in working}) > 1:
        return None
    return working[0]


def _lies_in_rows(label: str, cards: list[CardDetection], up: float, read_up: dict[Box, float | None],
                  fans: bool) -> bool:
    """Whether ``cards`` lie as one seat in clear 3 + 5 + 5 rows: laid out (``seat_layout``; ``fans``: rows laid as
    fans looked for too) with rows and no problem."""
    problems: list[Problem] = []
    return seat_layout(label, cards, up, problems, read_up, fans=fans).rows is not None and not problems


def _one_read_spare(label: str, group: list[CardDetection], up: float, read_up: dict[Box, float | None],
                    min_confidence: float) -> CardDetection | None:
    """The one read of a seat of 14 without which its cards lie in clear 3 + 5 + 5 rows, when leaving out any other
    does not lay them so, or else the one read below ``min_confidence`` among those that do (a pip or a picture read
    as a card among the hand's); else None. Rows laid as fans count only where no read leaves straight rows (a
    bend can lay 13 of 14 cards in rows more than one way)."""
    def spares(fans: bool) -> list[CardDetection]:
        return [c for c in group if _lies_in_rows(label, [o for o in group if o is not c], up, read_up, fans)]

    laid = spares(fans=False) or spares(fans=True)
    weak = [c for c in laid if c.confidence < min_confidence]
    return laid[0] if len(laid) == 1 else weak[0] if len(weak) == 1 else None


def _without_clutter_but_one_short(label: str, group: list[CardDetection], up: float, problems: list[Problem],
                                   read_up: dict[Box, float | None]) -> list[CardDetection]:
    """A seat's cards without the reads far out of scale with them (``without_clutter``), but where that leaves the
    seat one card short and exactly one of those reads lays it in clear 3 + 5 + 5 rows, with that read kept: a real
    card whose index shows only in part (a strip of a tight row, a corner under glare) is boxed small, and so taken
    for artwork; artwork beside a hand lies outside its rows."""
    notes: list[Problem] = []
    kept = without_clutter(group, notes)
    out = [c for c in group if not any(c is k for k in kept)]
    if len(kept) == HAND_SIZE - 1 and out:
        laid = [c for c in out if _lies_in_rows(label, [*kept, c], up, read_up, fans=True)]
        if len(laid) == 1:
            back = laid[0]
            x, y = back.center
            problems.extend(n for n in notes if n.card != str(back.card))
            problems.append(Problem(kind="card_count", seat=label, card=str(back.card), blocking=False,
                                    message=f"{label}: {back.card} at ({x:.0f}, {y:.0f}) is kept, though far out of "
                                            "scale with the hand's cards: without it the hand is one card short, "
                                            "with it the hand lies in 3 + 5 + 5 rows"))
            return [c for c in group if any(c is k for k in kept) or c is back]
    problems.extend(notes)
    return kept


def _spare_note(label: str, spare: CardDetection) -> Problem:
    x, y = spare.center
    return Problem(kind="card_count", seat=label, card=str(spare.card), blocking=False,
                   message=f"{label}: 14 cards found; the read {spare.card} at ({x:.0f}, {y:.0f}) "
                           f"({spare.confidence:.2f}) is ignored: without it the hand lies in 3 + 5 + 5 rows")


def _hands_of(layout: TableLayout) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """What a layout scores: each seat's rows (or its cards, when laid without rows), by identity."""
    def cards(row: Sequence[CardDetection]) -> tuple[str, ...]:
        return tuple(sorted(str(c.card) for c in row))

    return tuple((s.seat, tuple(cards(r) for r in s.rows) if s.rows is not None else (cards(s.cards),))
                 for s in layout.seats)


def _layout_cards(cards: list[CardDetection], problems: list[Problem], min_confidence: float,
                  unread: Sequence[Box]) -> TableLayout:
    """Seats, rows and problems for cards read once each."""
    read_up = {c.index_boxes[0]: c.up for c in cards if len(c.index_boxes) == 1}
    groups = grouped(cards)
    seats: list[SeatLayout] = []
    unassigned: list[CardDetection] = []
    names_used: dict[str, int] = defaultdict(int)
    for group, up in groups:
        if len(group) < 4:
            unassigned.extend(group)
            continue
        name = seat_name(up)
        names_used[name] += 1
        label = name if names_used[name] == 1 else f"{name}-{names_used[name]}"
        group = _without_clutter_but_one_short(label, group, up, problems, read_up)
        if len(group) == HAND_SIZE + 1 and (spare := _one_read_spare(label, group, up, read_up,
                                                                     min_confidence)) is not None:
            group = [c for c in group if c is not spare]
            problems.append(_spare_note(label, spare))
        seats.append(seat_layout(label, group, up, problems, read_up))
        for c in group:
            if c.confidence < min_confidence:
                problems.append(Problem(kind="low_confidence", seat=label, card=str(c.card),
                                        message=f"{label}: {c.card} was read with low confidence "
                                                f"({c.confidence:.2f}): check it"))
    if not 2 <= len(seats) <= 4:
        problems.append(Problem(kind="player_count", message=f"found {len(seats)} players' cards; a round has 2 to 4"))
    held = [c for s in seats for c in s.cards]
    # a weak read apart from the hands is as much a sign of a hand not read as an index region read as no card
    weak_apart = [b for c in unassigned if c.confidence < min_confidence for b in c.index_boxes]
    if (hidden := unread_hand(held, unread_apart(held, [*unread, *weak_apart]))) is not None:
        problems.append(hidden)
    complete = bool(seats) and all(len(s.cards) == HAND_SIZE for s in seats)
    for c in unassigned:
        # A weak read away from every player is clutter; if it was one of their cards, that
        # player is a card short, which is reported there. A confident one blocks: it may be the one
        # card read of a player whose other cards were not even found as corners (measured on a test
        # table: a fourth hand of which two cards were read, and no unread corners to show for the rest),
        # unless it lies on a card of a hand and every hand is complete: then it is printed on that card.
        if complete and c.confidence >= min_confidence and (seat := lies_on(c, seats)) is not None:
            problems.append(printed_note(c, seat))
            continue
        weak = c.confidence < min_confidence
        problems.append(Problem(kind="unassigned_card", card=str(c.card), blocking=not weak,
                                message=f"{c.card} lies apart from every player's cards"
                                        + (f" (ignored: read with confidence {c.confidence:.2f})" if weak else "")))
    seats.sort(key=lambda s: ("bottom", "right", "top", "left").index(s.seat.split("-")[0]))
    return TableLayout(seats=tuple(seats), unassigned=tuple(unassigned), problems=tuple(problems))
