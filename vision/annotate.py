"""Draw what the referee read onto the photo: each card outlined in its seat's
colour (shade by row), its identity, and each seat's score."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.pipeline import PhotoReading
from vision.types import CardDetection, Detections

BGRImage = npt.NDArray[np.uint8]

SEAT_COLOURS = {  # BGR
    "bottom": (60, 180, 75), "right": (200, 130, 0), "top": (48, 130, 245), "left": (180, 30, 145),
}
OTHER = (0, 220, 255)
PROBLEM = (0, 0, 255)
ROW_SHADE = {"head": 1.0, "middle": 0.75, "tail": 0.5, None: 1.0}


def _shade(colour: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


def _polygon(card: CardDetection) -> npt.NDArray[np.int32]:
    if card.outline is not None:
        return np.array(card.outline, dtype=np.int32)
    x1, y1, x2, y2 = card.box
    return np.array([(x1, y1), (x2, y1), (x2, y2), (x1, y2)], dtype=np.int32)


def _label(image: BGRImage, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    thickness = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x, y = at
    cv2.rectangle(image, (x, y - h - base), (x + w, y + base), colour, -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness, cv2.LINE_AA)


def draw_detections(image: BGRImage, detections: Detections) -> BGRImage:
    """Every detected card with its identity (``referee detect --annotate``)."""
    out = image.copy()
    scale = max(0.4, min(out.shape[:2]) / 1400)
    for card in detections.cards:
        cv2.polylines(out, [_polygon(card)], True, OTHER, max(1, int(scale * 3)))
        for x1, y1, x2, y2 in card.index_boxes:
            cv2.rectangle(out, (int(x1), int(y1)), (int(x2), int(y2)), OTHER, 1)
        x1, y1 = int(card.box[0]), int(card.box[1])
        _label(out, f"{card.card} {card.confidence:.2f}", (x1, max(12, y1 - 4)), _shade(OTHER, 0.6), scale * 0.6)
    return out


def draw(reading: PhotoReading) -> BGRImage:
    """The photo with seats, rows, identities, problems and scores (``referee photo --annotate``)."""
    out = reading.image.copy()
    scale = max(0.4, min(out.shape[:2]) / 1400)
    problem_cards = {p.card for p in reading.problems if p.card}
    scores = {p.name: p.score for p in reading.settlement.players} if reading.settlement else {}
    for seat in reading.layout.seats:
        colour = SEAT_COLOURS.get(seat.seat.split("-")[0], OTHER)
        for card in seat.cards:
            row = seat.row_of(card)
            shade = PROBLEM if str(card.card) in problem_cards else _shade(colour, ROW_SHADE[row])
            if card.unseen:  # not on the photo: its identity, marked, at the end of its row
                _label(out, f"{card.card}?", (int(card.box[2]), int(card.box[3])), PROBLEM, scale * 0.6)
                continue
            # shown as a card it was not read as (a card read twice, vision.twice): marked for checking
            checked = card.confidence == 0.0
            shade = PROBLEM if checked else shade
            cv2.polylines(out, [_polygon(card)], True, shade, max(2, int(scale * 4)))
            x1, y1 = int(card.box[0]), int(card.box[1])
            _label(out, f"{card.card}?" if checked else str(card.card), (x1, max(12, y1 - 4)), shade, scale * 0.6)
        xs = [c.center[0] for c in seat.cards]
        ys = [c.center[1] for c in seat.cards]
        if xs:
            score = scores.get(seat.seat)
            text = seat.seat if score is None else f"{seat.seat} {score:+d}"
            _label(out, text, (int(sum(xs) / len(xs)), int(sum(ys) / len(ys))), _shade(colour, 0.8), scale * 1.2)
    for card in reading.layout.unassigned:
        cv2.polylines(out, [_polygon(card)], True, PROBLEM, max(2, int(scale * 4)))
    return out


def write_image(path: str, image: BGRImage) -> None:
    if not cv2.imwrite(path, image):
        from referee.errors import InputError

        raise InputError(f"cannot write the annotated image to {path}")
