"""From one photo to the settlement: read → detect → lay out → check → score.

``read_photo`` never returns a silent guess: whatever blocks scoring is in
``problems`` (each naming its seat and card), and the round is scored only when
nothing blocks it, or with ``force=True`` after the user has seen the warnings
(then only the seats with three complete rows are scored).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import Card, format_cards
from referee.errors import InputError
from referee.hand import laid_special
from referee.round import PlayerHand, Round
from referee.ruleset import Ruleset
from referee.settle import Settlement, settle
from referee.specials import Rows
from vision.image_io import read_image
from vision.layout import LayoutConfig, layout_keeping_both_reads, layout_table
from vision.twice import read_twice, shown_as, twice_note, twice_problem
from vision.types import MIN_CONFIDENCE, Detections, Problem, SeatLayout, TableLayout
from vision.unseen import gap_hints, gap_notes, short_seats, with_gaps_filled
from vision.unsure import Unsure, relabelled, settle_whichever, told, unsure_cards

BGRImage = npt.NDArray[np.uint8]
Detector = Callable[[BGRImage], Detections]


@dataclass(frozen=True, kw_only=True)
class PhotoReading:
    image: BGRImage
    detections: Detections
    layout: TableLayout
    seat_rows: dict[str, Rows]  # the rows each scored seat plays (free-shape seats: the solver's)
    round: Round | None
    settlement: Settlement | None
    timing_ms: dict[str, float]

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.layout.problems

    def to_json(self) -> dict[str, Any]:
        seats = []
        for seat in self.layout.seats:
            entry = seat.to_json()
            rows = self.seat_rows.get(seat.seat)
            if seat.rows is None and rows is not None:
                entry["played_as"] = {n: [str(c) for c in r] for n, r in zip(("head", "middle", "tail"), rows,
                                                                              strict=True)}
            seats.append(entry)
        return {
            "seats": seats,
            "problems": [p.to_json() for p in self.problems],
            "round": self.settlement.to_json() if self.settlement is not None else None,
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
        }


def default_detector() -> Detector:
    """The committed ONNX card detector (imported lazily: it loads model files)."""
    from vision.detector import CardDetector

    detector: Detector = CardDetector().detect
    return detector


def read_photo(
    source: bytes | str | Path | BGRImage,
    rules: Ruleset,
    *,
    banker: str | None = None,
    force: bool = False,
    min_confidence: float = MIN_CONFIDENCE,
    detector: Detector | None = None,
) -> PhotoReading:
    """Score the table in one photo (bytes, a path, or an already decoded BGR image)."""
    timing: dict[str, float] = {}
    start = time.perf_counter()
    image = source if isinstance(source, np.ndarray) else read_image(source)
    timing["read"] = (time.perf_counter() - start) * 1e3
    detect = detector or default_detector()
    start = time.perf_counter()
    detections = detect(image)
    timing["detect"] = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    laid = layout_table(detections.cards, LayoutConfig(min_confidence=min_confidence), detections.unread)
    seat_rows, layout = _playable_rows(laid, rules)
    round_, problems = _round_for(layout, seat_rows, rules, banker, force)
    settlement = settle(round_, rules) if round_ is not None else None
    if layout.blocked and not any(p.blocking for p in problems):
        # forced too: the app reads with force=True, and a table settled whatever its unsure cards are is
        # better shown whole than with those seats left out
        layout, scored = _scored_whatever_unknown(laid, layout, rules, banker, min_confidence)
        if scored is None and any(p.kind == "duplicate_card" and p.blocking for p in layout.problems):
            config = LayoutConfig(min_confidence=min_confidence)
            both = layout_keeping_both_reads(detections.cards, config, detections.unread)
            found = _scored_whichever_read_twice(both, rules, banker, min_confidence) if both is not None else None
            if isinstance(found, Problem):  # say what the other read may be, on the table as laid
                layout = replace(layout, problems=tuple(found if p.kind == "duplicate_card" and p.card == found.card
                                                        else p for p in layout.problems))
            elif found is not None:
                layout, scored = found
        if scored is not None:
            seat_rows, round_, settlement = scored
    layout = replace(layout, problems=layout.problems + tuple(problems))
    timing["layout_and_score"] = (time.perf_counter() - start) * 1e3
    timing["total"] = sum(timing.values())
    return PhotoReading(image=image, detections=detections, layout=layout, seat_rows=seat_rows, round=round_,
                        settlement=settlement, timing_ms=timing)


def _only_unsure(layout: TableLayout) -> bool:
    """Nothing but cards read with low confidence blocks the round."""
    blocking = [p for p in layout.problems if p.blocking]
    return bool(blocking) and all(p.kind == "low_confidence" for p in blocking)


Scored = tuple[dict[str, Rows], Round, Settlement]


def _scored_whatever_unknown(laid: TableLayout, layout: TableLayout, rules: Ruleset, banker: str | None,
                             min_confidence: float) -> tuple[TableLayout, Scored | None]:
    """When nothing but cards read unsurely and cards missing from known rows blocks the round
    (``laid``: as laid out, ``layout``: with the free-shape seats judged): the round, scored when every
    identity those cards may have settles it alike (``vision.unsure``, ``vision.unseen``), with the
    problems turned into notes that say so; otherwise the problems name what the unsure cards may be."""
    short = short_seats(layout)
    if short is None and not _only_unsure(layout):
        return layout, None
    filled, gaps, suspects = with_gaps_filled(laid, short, min_confidence) if short else (laid, [], [])
    unsure = unsure_cards(filled, min_confidence)
    tried = None if unsure is None else unsure + [g.unsure for g in gaps] + suspects
    found = _whichever_unsure(filled, tried, rules, banker) if tried is not None else None
    if found is None:
        return replace(layout, problems=gap_hints(told(layout.problems, unsure or [], settled=False), gaps)), None
    reading, scored = found
    shown = layout  # with no gaps, ``filled`` is ``laid``, whose playable rows ``layout`` already holds
    if gaps:
        shown = _playable_rows(relabelled(filled, {id(g.card): reading[id(g.card)] for g in gaps}), rules)[1]
    return replace(shown, problems=told(shown.problems, unsure or [], settled=True) + gap_notes(gaps, reading)), scored


def _scored_whichever_read_twice(both: TableLayout, rules: Ruleset, banker: str | None, min_confidence: float
                                 ) -> tuple[TableLayout, Scored] | Problem | None:
    """``both``: the table laid out with both confident reads of an identity read twice kept. When nothing
    else but cards read unsurely blocks it: the round, scored when every choice of which read is the identity
    and which another card not seen (with every plausible reading of the unsure cards) settles it alike, with
    a note that says so (``vision.twice``); otherwise the problem naming the two reads and what the other may
    be. None when something else blocks ``both`` too."""
    laid = _playable_rows(both, rules)[1]
    if any(p.blocking and p.kind != "low_confidence" for p in laid.problems):
        return None
    twice = read_twice(both, min_confidence)
    if twice is None:
        return None
    read, unsure = twice
    found = _whichever_unsure(both, unsure + read.unsure, rules, banker)
    if found is None:
        return twice_problem(read)
    reading, scored = found
    shown = _playable_rows(shown_as(both, read, reading), rules)[1]
    return replace(shown, problems=(*told(shown.problems, unsure, settled=True), twice_note(read, reading))), scored


def _whichever_unsure(laid: TableLayout, unsure: list[Unsure], rules: Ruleset, banker: str | None
                      ) -> tuple[dict[int, Card], Scored] | None:
    """The reading of the ``unsure`` cards shown and the round it scores, when every plausible reading
    settles the round alike (``vision.unsure``)."""
    def score(layout: TableLayout) -> Scored | None:
        seat_rows, checked = _playable_rows(layout, rules)
        round_, problems = _round_for(checked, seat_rows, rules, banker, force=False)
        if round_ is None or any(p.blocking for p in problems):
            return None
        return seat_rows, round_, settle(round_, rules)

    return settle_whichever(laid, unsure, score, lambda scored: scored[2])


def _playable_rows(layout: TableLayout, rules: Ruleset) -> tuple[dict[str, Rows], TableLayout]:
    """Rows per seat; a 13-card free shape counts only if the cards hold a special hand."""
    rows: dict[str, Rows] = {}
    problems = list(layout.problems)
    for seat in layout.seats:
        if seat.rows is not None:
            if len(seat.cards) == 13:
                head, middle, tail = seat.rows
                rows[seat.seat] = (tuple(c.card for c in head), tuple(c.card for c in middle),
                                   tuple(c.card for c in tail))
            continue
        if len(seat.cards) != 13:
            continue
        free = _free_shape_rows(seat, rules)
        at = next(i for i, p in enumerate(problems) if p.kind == "no_rows" and p.seat == seat.seat)
        if free is None:
            problems[at] = replace(problems[at], blocking=True, kind="row_size",
                                   message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows, and they hold no "
                                           f"special hand of {rules.name}")
            continue
        special, played = free
        rows[seat.seat] = played
        as_played = f"(--force plays them as {' | '.join(format_cards(r) for r in played)})"
        if not _shows_without_rows(seat, rules):  # its specials are judged on the rows as laid (RULES.md)
            problems[at] = replace(problems[at], blocking=True,
                                   message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows; {special} is judged on "
                                           f"the rows as laid: lay them in rows {as_played}")
        elif rules.special.settlement == "bonus":  # the rows are compared too, and the photo shows none
            problems[at] = replace(problems[at], blocking=True,
                                   message=f"{seat.seat}: 13 cards not laid as 3 + 5 + 5 rows; under {rules.name} "
                                           "a special is a bonus on top of the rows, which are compared as "
                                           f"laid: lay them in rows {as_played}")
    return rows, replace(layout, problems=tuple(problems))


def _shows_without_rows(seat: SeatLayout, rules: Ruleset) -> bool:
    """The 13 cards hold a special of ``rules`` judged on the cards alone (not three flushes / straights,
    which the rows as laid must show): a hand laid without rows can be one only of those. A hand laid in rows
    that the layout did not find must not be given an arrangement special its rows may not show."""
    return laid_special([c.card for c in seat.cards], None, False, rules) is not None


def _free_shape_rows(seat: SeatLayout, rules: Ruleset) -> tuple[str, Rows] | None:
    """For 13 cards laid as a special: the highest special they hold and an arrangement that shows it
    (for a special judged on the 13 cards alone, the solver's best), or None."""
    from referee.solver import analyse_splits, best_special, solve

    cards: list[Card] = [c.card for c in seat.cards]
    if len(set(cards)) != 13:
        return None
    hand = analyse_splits(cards, rules)
    key, split = best_special(hand)
    if key is None:
        return None
    if split is not None:
        return key, hand.split_rows(split)
    return key, solve(cards, rules, top=1).best[0].rows


def _round_for(layout: TableLayout, seat_rows: dict[str, Rows], rules: Ruleset, banker: str | None,
               force: bool) -> tuple[Round | None, list[Problem]]:
    problems: list[Problem] = []
    names = [s.seat for s in layout.seats if s.seat in seat_rows]
    if rules.mode == "banker":
        if banker is None:
            problems.append(Problem(kind="banker", message=f"{rules.name} is played against a banker: "
                                                           "choose the banker's seat"))
        elif banker not in names:
            problems.append(Problem(kind="banker", message=f"banker {banker!r} is not a scored seat "
                                                           f"({', '.join(names) or 'none'})"))
    blocked = layout.blocked or any(p.blocking for p in problems)
    if (blocked and not force) or len(names) < 2:
        return None, problems
    hands = tuple(PlayerHand(name=n, rows=seat_rows[n]) for n in names)
    try:
        round_ = Round(players=hands, banker=banker if banker in names else None)
        round_.checked_for(rules)
    except InputError as err:
        problems.append(Problem(kind="invalid_round", message=str(err)))
        return None, problems
    return round_, problems
