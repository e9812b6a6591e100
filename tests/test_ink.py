"""vision.ink: plainly black ink is no heart or diamond; the detector weighs a red read of it down."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detector import RED_ON_BLACK_INK, CardDetector
from vision.ink import plainly_black
from vision.tiles import CROP_MARGIN, CROP_SIZE

CROPS = Path(__file__).parent / "fixtures" / "real" / "crops"
_HALF = CROP_SIZE / (2 * CROP_MARGIN)
WHOLE = (CROP_SIZE / 2 - _HALF, CROP_SIZE / 2 - _HALF, CROP_SIZE / 2 + _HALF, CROP_SIZE / 2 + _HALF)


def _index(ink: tuple[int, int, int], paper: tuple[int, int, int] = (235, 238, 240),
           corner: tuple[int, int, int] | None = None) -> np.ndarray:
    """A 40 x 60 px box of ``paper`` (BGR) with a rank and a suit mark of ``ink``; ``corner``: a table of that colour
    in the box's corners, as a turned card's upright box holds it."""
    img = np.full((60, 40, 3), paper, np.uint8)
    cv2.putText(img, "7", (8, 30), cv2.FONT_HERSHEY_SIMPLEX, 1.0, ink, 3)
    cv2.circle(img, (20, 44), 7, ink, -1)
    if corner is not None:
        for y in (slice(0, 10), slice(50, 60)):
            for x in (slice(0, 8), slice(32, 40)):
                img[y, x] = corner
    return img


@pytest.mark.parametrize(("ink", "black"), [
    ((25, 25, 25), True),        # black
    ((40, 44, 50), True),        # black under a warm light (the paper warm alike below)
    ((30, 30, 200), False),      # red
    ((60, 60, 130), False),      # a dim webcam's dull red
    ((160, 60, 20), False),      # a four-colour deck's blue diamond
    ((40, 140, 30), False),      # its green club
])
def test_black_is_told_from_red_blue_and_green(ink: tuple[int, int, int], black: bool) -> None:
    paper = (200, 220, 250) if ink == (40, 44, 50) else (235, 238, 240)
    img = _index(ink, paper)
    assert plainly_black(img, (0.0, 0.0, 40.0, 60.0)) is black


def test_a_turned_cards_box_is_judged_by_its_middle_not_the_table_in_its_corners() -> None:
    """Red ink in a box whose corners hold a dark wooden table, and black ink in one whose corners hold a red cloth."""
    assert not plainly_black(_index((30, 30, 200), corner=(30, 60, 105)), (0.0, 0.0, 40.0, 60.0))
    assert plainly_black(_index((25, 25, 25), corner=(40, 40, 180)), (0.0, 0.0, 40.0, 60.0))


def test_blank_paper_or_a_sliver_says_nothing() -> None:
    assert not plainly_black(np.full((60, 40, 3), 230, np.uint8), (0.0, 0.0, 40.0, 60.0))
    assert not plainly_black(_index((25, 25, 25)), (10.0, 10.0, 12.0, 50.0))


def test_the_real_webcams_clubs_and_spades_are_black_and_its_reds_never() -> None:
    """The committed held-out real crops (cardcounter's test blocks, a dim webcam): most clubs and spades are plainly
    black, no heart or diamond is."""
    calls = {f.name: plainly_black(cv2.imread(str(f)), WHOLE) for f in sorted(CROPS.glob("*.png"))
             if f.name[1] in "shdc"}
    red = [n for n in calls if n[1] in "hd"]
    black = [n for n in calls if n[1] in "sc"]
    assert len(red) >= 7 and len(black) >= 12
    assert not any(calls[n] for n in red)
    assert sum(calls[n] for n in black) >= len(black) - 1


@pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
def test_a_red_read_of_black_ink_is_weighed_down_and_a_black_read_is_left_alone() -> None:
    det = CardDetector()
    names = det.names
    img = np.ascontiguousarray(np.hstack([_index((25, 25, 25)), _index((30, 30, 200))]))
    boxes = np.array([[0, 0, 40, 60], [40, 0, 80, 60], [0, 0, 40, 60]], np.float32)
    probs = np.zeros((3, 4, len(names)), np.float32)
    probs[0, 0, names.index("Ad")], probs[0, 0, names.index("As")] = 0.9, 0.05   # black ink read as a diamond
    probs[1, 0, names.index("Ad")], probs[1, 0, names.index("As")] = 0.9, 0.05   # red ink: no call, as it was
    probs[2, 0, names.index("As")], probs[2, 0, names.index("Ad")] = 0.9, 0.05   # black ink read black: as it was
    before = probs.copy()
    det._black_ink(img, boxes, probs)
    assert probs[0, 0, names.index("Ad")] == pytest.approx(0.9 * RED_ON_BLACK_INK)
    assert probs[0, 0, names.index("As")] == pytest.approx(0.05)
    assert np.array_equal(probs[1:], before[1:])
