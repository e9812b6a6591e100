"""Ground truth of a synthetic scene (``datasets.synth``) as detector output: the geometry is developed and measured on
these "perfect detections", so its errors can be told apart from the detector's."""

from __future__ import annotations

import math
from typing import Any

from referee.cards import Card
from vision.turn import fold_turn
from vision.types import Box, CardDetection, Point


def up_from_outline(outline: tuple[Point, Point, Point, Point]) -> float:
    """Facing angle (degrees, 0 = the card's top points up the image, 90 = right) from corners ordered top-left,
    top-right, bottom-right, bottom-left of the upright card."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = outline
    ux, uy = (x0 + x1 - x2 - x3) / 2, (y0 + y1 - y2 - y3) / 2
    return math.degrees(math.atan2(ux, -uy)) % 360


def card_of_index_at(truth: dict[str, Any], box: Box) -> str | None:
    """The card whose showing index box holds the centre of ``box`` (a read's index box), when exactly one card's
    does: the index a read was made from."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    held = {c["card"] for c in truth["cards"] for ix in c.get("index", [])
            if ix.get("visible") and ix["box"][0] <= cx <= ix["box"][2] and ix["box"][1] <= cy <= ix["box"][3]}
    return next(iter(held)) if len(held) == 1 else None


def detections_from_truth(truth: dict[str, Any]) -> list[CardDetection]:
    """One detection per card that shows at least one corner index."""
    found = []
    for entry in truth["cards"]:
        boxes: list[Box] = [tuple(i["box"]) for i in entry["index"] if i["visible"]]
        if not boxes:
            continue
        corners = entry["corners"]
        outline = (tuple(corners[0]), tuple(corners[1]), tuple(corners[2]), tuple(corners[3]))
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
        # both corner indices show: they face opposite ways, as the detector reads them (vision.join)
        up = up_from_outline(outline)
        found.append(CardDetection(card=Card.parse(entry["card"]), confidence=1.0, box=box, index_boxes=tuple(boxes),
                                   outline=outline, up=up, up_either_way=len(boxes) == 2,
                                   turn=fold_turn(up)))  # as vision.turn measures it
    return found
