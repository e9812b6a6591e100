"""vision.turn: the turn of the card around an index, from its edges; and the crops it turns upright."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from benchmark_modules import load_benchmark

from training.evaluate_real import SourceReport, score_photo
from training.realsets import yolo_photos
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.tiles import crop_square
from vision.turn import card_turn

ROOT = Path(__file__).resolve().parent.parent
real_turned = load_benchmark("real_turned")
REAL = ROOT / "tests" / "fixtures" / "real" / "cardcounter"


def _card_on_felt(turn: float, size: int = 600) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A light card with a dark index ("K" and a bar) on green felt, the whole card turned ``turn`` degrees
    about the photo's centre as ``cv2.getRotationMatrix2D`` turns; the index's upright box."""
    img = np.full((size, size, 3), (40, 110, 40), np.uint8)
    c = size / 2
    card = np.zeros_like(img)
    cv2.rectangle(card, (int(c - 90), int(c - 130)), (int(c + 90), int(c + 130)), (235, 235, 235), -1)
    cv2.putText(card, "K", (int(c - 80), int(c - 85)), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 3)
    cv2.rectangle(card, (int(c - 78), int(c - 75)), (int(c - 58), int(c - 55)), (20, 20, 20), -1)
    mask = card.any(axis=2)
    img[mask] = card[mask]
    m = cv2.getRotationMatrix2D((c, c), -turn, 1.0)   # the card turned by -turn: card_turn's answer is turn
    img = np.asarray(cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_LINEAR, borderValue=(40, 110, 40)),
                     np.uint8)
    corners = np.array([[c - 85, c - 125, 1], [c - 50, c - 125, 1], [c - 85, c - 50, 1], [c - 50, c - 50, 1]])
    pts = corners @ m.T
    return img, (pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max())


@pytest.mark.parametrize("turn", [0.0, 8.0, -17.0, 25.0, -33.0, 40.0])
def test_card_turn_finds_how_far_the_card_lies_turned(turn: float) -> None:
    img, box = _card_on_felt(turn)
    assert abs(card_turn(img, box) - turn) < 2.5
    # a photo read widened 1.5 x along x: the same card, measured in the widened frame
    wide = np.asarray(cv2.resize(img, None, fx=2 / 3, fy=1.0, interpolation=cv2.INTER_AREA), np.uint8)
    squashed = (box[0] * 2 / 3, box[1], box[2] * 2 / 3, box[3])
    assert abs(card_turn(wide, squashed, (1.5, 1.0)) - turn) < 3.5


def test_a_quarter_turn_is_no_turn_and_a_flat_patch_none() -> None:
    img, box = _card_on_felt(90.0)
    assert abs(card_turn(img, box)) < 2.5
    flat = np.full((200, 200, 3), 128, np.uint8)
    assert card_turn(flat, (90.0, 90.0, 110.0, 120.0)) == 0.0
    assert card_turn(flat, (0.0, 0.0, 1.0, 1.0)) == 0.0


def test_a_crop_turned_by_the_cards_turn_shows_the_index_upright() -> None:
    """Cut turned by ``card_turn``, the index of a card turned 35 degrees looks as the upright card's does."""
    upright, ubox = _card_on_felt(0.0)
    img, box = _card_on_felt(35.0)
    want = crop_square(upright, ubox).astype(np.float32)
    side = max(ubox[2] - ubox[0], ubox[3] - ubox[1])
    # the upright card's crop side about the turned index's centre (the turned box is larger)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    same_side = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
    got = crop_square(img, same_side, turn=card_turn(img, box)).astype(np.float32)
    plain = crop_square(img, same_side).astype(np.float32)
    assert np.abs(got - want).mean() < 0.5 * np.abs(plain - want).mean()
    assert np.array_equal(crop_square(img, box, turn=0.0), crop_square(img, box))


@pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
def test_a_real_photo_turned_40_degrees_reads_more_cards_read_turned_upright() -> None:
    """A held-out cardcounter photo of a tight row (test block), widened back to 16:9 and turned 40 degrees with its
    labels, as a fan's cards lie: read in crops turned upright by each card's turn, 5 more of its 26 cards are read
    right (18 -> 23) and none confidently wrong; read only upright, a 3c is taken for Js at the 0.85 floor or just
    under it."""
    photo = next(p for p in yolo_photos(REAL) if p.path.stem == "WIN_20240627_17_00_45_Pro")
    image, labels = real_turned.turned(read_image(photo.path), photo, 40.0)
    det = CardDetector()
    found, wrong = [], []
    for turned in (False, True):
        det.turned = turned
        cards = det.detect(image).cards
        report = SourceReport("turned")
        score_photo(report, labels, cards, [b for c in cards for b in c.index_boxes])
        assert report.cards == 26
        found.append(report.found)
        wrong.append(report.confident_wrong)
    assert found[1] >= 22 and found[1] >= found[0] + 3
    assert wrong[1] == 0 and wrong[0] <= 1
