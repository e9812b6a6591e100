"""Where a row shows a card the index finder missed (vision.holes), on hand-made geometry."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from test_layout import table

from vision.holes import cards_between, hole_boxes
from vision.types import Box, CardDetection


def with_index(d: CardDetection) -> CardDetection:
    """The card with its top-left index box: 10 x 22 px just inside its outline's top-left corner."""
    assert d.outline is not None
    (x0, y0), (x1, y1), _, (x3, y3) = d.outline
    rx, ry = (x1 - x0) / math.dist((x0, y0), (x1, y1)), (y1 - y0) / math.dist((x0, y0), (x1, y1))
    dx, dy = (x3 - x0) / math.dist((x0, y0), (x3, y3)), (y3 - y0) / math.dist((x0, y0), (x3, y3))
    cx, cy = x0 + 7 * rx + 13 * dx, y0 + 7 * ry + 13 * dy
    w, h = (5.0, 11.0) if abs(rx) > abs(ry) else (11.0, 5.0)
    box: Box = (cx - w, cy - h, cx + w, cy + h)
    return replace(d, index_boxes=(box,))


def cards(*missing: str) -> tuple[list[CardDetection], dict[str, Box]]:
    every = [with_index(d) for d in table(["bottom", "top"], overlap=0.35)]
    boxes = {str(d.card): d.index_boxes[0] for d in every}
    return [d for d in every if str(d.card) not in missing], boxes


def near(a: Box, b: Box) -> bool:
    return all(abs(p - q) < 0.5 for p, q in zip(a, b, strict=True))


def test_a_card_missed_inside_a_row_is_looked_for_between_its_neighbours() -> None:
    # bottom's middle row is 6s 6h 8c 9d Tc: without the 9d, 8c and Tc lie two spacings apart
    seen, boxes = cards("9d")
    holes = hole_boxes(seen)
    assert len(holes) == 1
    assert near(holes[0].box, boxes["9d"]) and holes[0].facing == 0.0 and holes[0].room == 1


def test_two_cards_missed_side_by_side_are_both_looked_for() -> None:
    seen, boxes = cards("8c", "9d")
    found = [h.box for h in hole_boxes(seen)]
    assert len(found) == 2
    assert any(near(b, boxes["8c"]) for b in found) and any(near(b, boxes["9d"]) for b in found)


@pytest.mark.parametrize("missing", ["6s", "Tc"])
def test_a_card_missed_at_a_rows_end_is_looked_for_past_both_ends(missing: str) -> None:
    # the middle row shows 4 of its 5 cards (the other rows are whole): the card is at one end or the other
    seen, boxes = cards(missing)
    holes = hole_boxes(seen)
    assert len(holes) == 2 and len({h.group for h in holes}) == 1 and holes[0].room == 1
    assert any(near(h.box, boxes[missing]) for h in holes)
    assert hole_boxes(seen, ends=False) == []


def test_no_hole_in_a_full_seat() -> None:
    seen, _ = cards()
    assert hole_boxes(seen) == []


def test_how_many_cards_a_gap_holds() -> None:
    assert [cards_between(g, 10.0) for g in (10.0, 15.0, 16.0, 20.0, 24.0, 25.0, 30.0, 40.0, 50.0)] == \
        [0, 0, 1, 1, 1, 0, 2, 3, 0]
