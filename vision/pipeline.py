"""From one photo to the settlement: read → detect → lay out → resolve → score.

``read_photo`` never returns a silent guess: whatever blocks scoring is in ``problems`` (each naming its seat and card).
The round is scored when nothing blocks it, when every reading of what the photo leaves uncertain settles it alike
(``vision.resolve``), or with ``force=True`` after the user has seen the warnings (then the seats with 3 + 5 + 5 rows).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.round import Round
from referee.ruleset import Ruleset
from referee.settle import Settlement, settle
from referee.specials import Rows
from vision.image_io import read_image
from vision.layout import layout_table, with_players
from vision.resolve import Laid, Producer, Resolved, resolve
from vision.score import Scorer
from vision.twice import read_twice
from vision.types import MIN_CONFIDENCE, Detections, Problem, TableLayout
from vision.unseen import unsure_or_unseen

BGRImage = npt.NDArray[np.uint8]
Detector = Callable[[BGRImage], Detections]
# What the photo may leave uncertain, each kind of doubt with its producer (vision.resolve)
PRODUCERS: tuple[Producer, ...] = (unsure_or_unseen, read_twice)


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


def read_photo(
    source: bytes | str | Path | BGRImage,
    rules: Ruleset,
    *,
    banker: str | None = None,
    force: bool = False,
    min_confidence: float = MIN_CONFIDENCE,
    detector: Detector | None = None,
    players: int | None = None,
) -> PhotoReading:
    """Score the table in one photo (bytes, a path, or an already decoded BGR image). ``players``: how many play, when
    the caller knows; a photo showing another number of hands is not scored (a hand washed out by glare, or left out
    of the photo, is not found at all: the others alone would be scored as a smaller round)."""
    timing: dict[str, float] = {}
    start = time.perf_counter()
    image = source if isinstance(source, np.ndarray) else read_image(source)
    timing["read"] = (time.perf_counter() - start) * 1e3
    if detector is None:  # the committed ONNX card detector (imported lazily: it loads model files)
        from vision.detector import CardDetector

        detector = CardDetector().detect
    start = time.perf_counter()
    detections = detector(image)
    timing["detect"] = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    laid = with_players(layout_table(detections.cards, min_confidence, detections.unread, detections.widened,
                                     detections.faint), players)
    scorer = Scorer(rules, banker)
    resolved = resolve(Laid.of(laid, detections, scorer, min_confidence), PRODUCERS)
    layout, round_, settlement = _scored(resolved, scorer, force)
    timing["layout_and_score"] = (time.perf_counter() - start) * 1e3
    timing["total"] = sum(timing.values())
    return PhotoReading(image=image, detections=detections, layout=layout, seat_rows=resolved.seat_rows, round=round_,
                        settlement=settlement, timing_ms=timing)


def _scored(resolved: Resolved, scorer: Scorer, force: bool) -> tuple[TableLayout, Round | None, Settlement | None]:
    """The table with its round's problems, the round and its settlement: the resolver's, else the table's as laid."""
    if resolved.scored is not None:
        return resolved.layout, resolved.scored[1], resolved.scored[2]
    round_, problems = scorer.round_for(resolved.layout, resolved.seat_rows, force)
    layout = replace(resolved.layout, problems=resolved.layout.problems + tuple(problems))
    return layout, round_, settle(round_, scorer.rules) if round_ is not None else None
