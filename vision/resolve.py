"""What the photo leaves uncertain: list what the table could be, settle each, and score it only if all agree.

Each doubt is a ``Doubt``: a card on the table and the identities it may have (the one shown first): a card read
unsurely, its plausible identities (``vision.unsure``); the place of a card not seen in a known row, any card no sure
card is, and a sure read whose reader gave such a card a fair chance, that card (``vision.unseen``); each of two reads
of one identity, it or a card not seen (``vision.twice``). A ``Producer`` looks at the laid-out table and, when nothing
but its doubts stops it, gives the table with the doubtful cards in place (``OpenTable``). The resolver settles every
combination (one deck; at most ``THRESHOLDS.max_readings``) with ``referee.settle``; when all settle alike (each pair's
result row by row, bonuses, fouls, specials, scores) the table is scored with notes naming the doubts, otherwise the
problems say what the doubtful cards may be.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from referee.cards import Card
from referee.settle import Settlement
from referee.specials import Rows

from .score import Scored, Scorer
from .thresholds import THRESHOLDS
from .types import CardDetection, Detections, SeatLayout, TableLayout

DoubtKind = Literal["unsure", "unseen", "suspect", "twice"]


@dataclass(frozen=True)
class Doubt:
    """One card whose identity the photo leaves open, and the identities it may have (the one it is shown as first;
    none: not known, so nothing can be tried). ``seat`` and ``row``: where it lies (the place of a card not seen: its
    row; a read of a card read twice: its seat)."""

    kind: DoubtKind
    card: CardDetection
    identities: tuple[Card, ...]
    seat: str = ""
    row: str = ""


@dataclass(frozen=True)
class OpenTable:
    """A laid-out table with its doubtful cards in place (before free-shape seats are judged), and its doubts."""

    table: TableLayout
    doubts: tuple[Doubt, ...]

    def of(self, kind: DoubtKind) -> list[Doubt]:
        return [d for d in self.doubts if d.kind == kind]


@dataclass(frozen=True)
class Laid:
    """A table as the layout laid it (``laid``), with its free-shape seats judged (``judged``, ``seat_rows``: what each
    seat plays), and what it was laid from."""

    laid: TableLayout
    judged: TableLayout
    seat_rows: dict[str, Rows]
    detections: Detections
    scorer: Scorer
    min_confidence: float

    @classmethod
    def of(cls, laid: TableLayout, detections: Detections, scorer: Scorer, min_confidence: float) -> Laid:
        seat_rows, judged = scorer.playable(laid)
        return cls(laid, judged, seat_rows, detections, scorer, min_confidence)


@dataclass(frozen=True)
class Resolved:
    """The table as shown (its problems saying what was tried) and, when every reading of its doubts settles it alike,
    the first reading's score; else ``seat_rows``: what each seat plays as laid."""

    layout: TableLayout
    seat_rows: dict[str, Rows]
    scored: Scored | None = None


Producer = Callable[[Laid], OpenTable | None]


def readings(doubts: Sequence[Doubt]) -> Iterator[dict[int, Card]] | None:
    """Every combination of the doubts' identities with no identity twice (keyed by the card's ``id``), the identities
    shown first; None when there would be more than ``THRESHOLDS.max_readings`` combinations to try."""
    if math.prod(len(d.identities) for d in doubts) > THRESHOLDS.max_readings:
        return None
    return ({id(d.card): card for d, card in zip(doubts, combo, strict=True)}
            for combo in itertools.product(*(d.identities for d in doubts)) if len(set(combo)) == len(combo))


def relabelled(layout: TableLayout, reading: dict[int, Card], unsure: frozenset[int] = frozenset()) -> TableLayout:
    """``layout`` with the cards in ``reading`` given those identities (and full confidence, but for the places of
    unseen cards and the cards in ``unsure``, by ``id``: no confidence)."""
    def card(c: CardDetection) -> CardDetection:
        new = reading.get(id(c))
        if new is None:
            return c
        return replace(c, card=new, confidence=c.confidence if c.unseen else 0.0 if id(c) in unsure else 1.0)

    def seat(s: SeatLayout) -> SeatLayout:
        rows = None if s.rows is None else (tuple(map(card, s.rows[0])), tuple(map(card, s.rows[1])),
                                            tuple(map(card, s.rows[2])))
        return replace(s, cards=tuple(map(card, s.cards)), rows=rows)

    return replace(layout, seats=tuple(seat(s) for s in layout.seats))


def _outcome(settlement: Settlement) -> Any:
    """What a settlement decides: every pair's result row by row with its bonuses, each player's score, foul and
    special; not which cards made a row nor the row's category (those may differ between readings that settle alike)."""
    data = settlement.to_json()
    for player in data.get("players", []):
        player.pop("rows", None)
    return data


def settled_alike(table: TableLayout, doubts: Sequence[Doubt], score: Callable[[TableLayout], Scored | None]
                  ) -> tuple[dict[int, Card], Scored] | None:
    """The first reading of the ``doubts`` and its score, when every reading settles ``table`` alike; None when two
    settle it differently, one cannot be scored, or there are too many to try. ``score``: the score of a table whose
    cards are all taken as read (None when something blocks it)."""
    choices = readings(doubts)
    if choices is None:
        return None
    sure = replace(table, problems=tuple(p for p in table.problems if p.kind != "low_confidence"))
    first: tuple[dict[int, Card], Scored] | None = None
    said: Any = None
    for reading in choices:
        scored = score(relabelled(sure, reading))
        if scored is None:
            return None
        if first is None:
            first, said = (reading, scored), _outcome(scored[2])
        elif _outcome(scored[2]) != said:
            return None
    return first


def resolve(laid: Laid, producers: Sequence[Producer]) -> Resolved:
    """The table as it can be scored: as laid when nothing blocks it (or the round itself cannot be scored: no banker);
    else the first producer's open table, scored when every reading of its doubts settles it alike, with notes naming
    them, or with problems naming what the doubtful cards may be."""
    as_laid = Resolved(laid.judged, laid.seat_rows)
    round_problems = laid.scorer.round_for(laid.judged, laid.seat_rows, force=False)[1]
    if not laid.judged.blocked or any(p.blocking for p in round_problems):
        return as_laid
    for produce in producers:
        if (open_table := produce(laid)) is not None:
            return _told(laid, open_table, settled_alike(open_table.table, open_table.doubts, laid.scorer.sure))
    return as_laid


def _told(laid: Laid, open_table: OpenTable, found: tuple[dict[int, Card], Scored] | None) -> Resolved:
    from .twice import twice_note, twice_problem
    from .unseen import gap_hints, gap_notes
    from .unsure import told

    unsure, gaps, twice = open_table.of("unsure"), open_table.of("unseen"), open_table.of("twice")
    if found is None:  # the problems name what the doubtful cards may be (of a card read twice: its duplicate's)
        problems = gap_hints(told(laid.judged.problems, unsure, settled=False), gaps)
        if twice:
            problem = twice_problem(twice)
            problems = tuple(problem if p.kind == "duplicate_card" and p.card == problem.card else p
                             for p in laid.judged.problems)
        return Resolved(replace(laid.judged, problems=problems), laid.seat_rows)
    reading, scored = found
    shown = relabelled(open_table.table, {id(d.card): reading[id(d.card)] for d in gaps + twice},
                       unsure=frozenset(id(d.card) for d in twice if reading[id(d.card)] != d.identities[0]))
    judged = laid.scorer.playable(shown)[1]
    notes = told(judged.problems, unsure, settled=True) + gap_notes(gaps, reading)
    return Resolved(replace(judged, problems=notes + ((twice_note(twice, reading),) if twice else ())),
                    scored[0], scored)


__all__ = ["Doubt", "Laid", "OpenTable", "Producer", "Resolved", "readings", "relabelled", "resolve",
           "settled_alike"]
