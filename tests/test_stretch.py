"""Square photos squashed from a camera's 4:3 or 16:9 frame are read un-stretched (``vision.stretch``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cards import Card
from training.evaluate_real import SourceReport, score_photo
from training.realsets import CARDCOUNTER, cardcounter, yolo_photos
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.stretch import ASYMMETRY, MIN_INDICES, Stretch, candidates, choose_stretch
from vision.tiles import crop_square
from vision.types import MIN_CONFIDENCE, CardDetection, Detections

# two photos of cardcounter's held-out test blocks (640 x 640 webcam frames squashed from 16:9), labels beside
SQUASHED = Path(__file__).parent / "fixtures" / "real" / "cardcounter"
needs_model = pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
needs_cardcounter = pytest.mark.skipif(not (CARDCOUNTER / "images").is_dir(),
                                       reason="shared/realcards/cardcounter is not beside the checkout")
WIDE = Stretch(16 / 9, 1.0)
TALL = Stretch(1.0, 16 / 9)


def test_only_square_photos_are_candidates() -> None:
    assert candidates(1600, 1200) == [] and candidates(540, 960) == []
    assert set(candidates(640, 640)) == {Stretch(4 / 3, 1.0), Stretch(1.0, 4 / 3), WIDE, TALL}
    asked: list[Stretch] = []
    assert choose_stretch(lambda s: asked.append(s) or 1.0, 1600, 1200, 40).identity
    assert asked == []   # a photo in a camera's shape is not read again at all


def test_the_axis_that_reads_clearly_surer_is_widened_by_its_surest_factor() -> None:
    table = {Stretch(4 / 3, 1.0): 0.93, WIDE: 0.91, Stretch(1.0, 4 / 3): 0.80, TALL: 0.91 - ASYMMETRY - 0.01}
    assert choose_stretch(lambda s: table[s], 640, 640, 20) == Stretch(4 / 3, 1.0)
    table[WIDE] = 0.95
    assert choose_stretch(lambda s: table[s], 640, 640, 20) == WIDE
    mirrored = {Stretch(s.sy, s.sx): v for s, v in table.items()}  # the same photo turned a quarter
    assert choose_stretch(lambda s: mirrored[s], 640, 640, 20) == TALL


def test_a_photo_that_reads_alike_both_ways_or_shows_few_indices_stays_as_it_is() -> None:
    alike = {Stretch(4 / 3, 1.0): 0.95, WIDE: 0.90, Stretch(1.0, 4 / 3): 0.95, TALL: 0.90 - ASYMMETRY + 0.01}
    assert choose_stretch(lambda s: alike[s], 640, 640, 20).identity
    lopsided = {Stretch(4 / 3, 1.0): 0.95, WIDE: 0.95, Stretch(1.0, 4 / 3): 0.5, TALL: 0.4}
    assert not choose_stretch(lambda s: lopsided[s], 640, 640, MIN_INDICES).identity
    assert choose_stretch(lambda s: lopsided[s], 640, 640, MIN_INDICES - 1).identity


def test_detections_made_un_stretched_land_on_the_photos_own_pixels() -> None:
    card = CardDetection(card=Card.parse("Qc"), confidence=0.99, box=(160.0, 100.0, 320.0, 300.0),
                         index_boxes=((160.0, 100.0, 192.0, 150.0),),
                         outline=((160.0, 100.0), (320.0, 100.0), (320.0, 300.0), (160.0, 300.0)), up=45.0)
    found = Detections(width=1280, height=640, cards=(card,), unread=((0.0, 0.0, 64.0, 64.0),))
    back = Stretch(2.0, 1.0).to_photo(found, 640, 640)
    (c,) = back.cards
    assert (back.width, back.height) == (640, 640) and back.widened == (2.0, 1.0)
    assert c.box == (80.0, 100.0, 160.0, 300.0) and c.index_boxes == ((80.0, 100.0, 96.0, 150.0),)
    assert c.outline == ((80.0, 100.0), (160.0, 100.0), (160.0, 300.0), (80.0, 300.0))
    assert back.unread == ((0.0, 0.0, 32.0, 64.0),)
    assert c.up == pytest.approx(np.degrees(np.arctan2(0.5, 1.0)))  # up-right, squashed towards up
    assert Stretch(2.0, 1.0).to_photo(Detections(width=1, height=1, cards=(card.__class__(
        card=card.card, confidence=1.0, box=card.box, up=180.0),)), 1, 1).cards[0].up == pytest.approx(180.0)
    assert Stretch().to_photo(found, 1280, 640) is found


def test_a_stretched_crop_is_the_crop_of_the_stretched_image() -> None:
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 255, (120, 120, 3), dtype=np.uint8), (0, 0), 3)
    box = (40.0, 30.0, 60.0, 80.0)
    wide = Stretch(16 / 9, 1.0)
    direct = crop_square(image, box, stretch=(wide.sx, wide.sy)).astype(int)
    via = crop_square(wide.apply(image), wide.box_to(box)).astype(int)
    assert np.abs(direct - via).mean() < 4
    assert np.array_equal(crop_square(image, box, stretch=(1.0, 1.0)), crop_square(image, box))


@needs_model
def test_a_squashed_webcam_photo_is_read_in_its_cameras_shape() -> None:
    """Rows of clubs and spades (the 17:00-17:01 test block): read as it is, clubs read as spades and
    strips go unread; widened back along x, all 26 and all 25 cards are read right (the first photo
    median-filtered for its specks, ``tests/test_specks.py``), none confidently wrong."""
    det = CardDetector()
    for photo, least in zip(yolo_photos(SQUASHED), (26, 25), strict=True):
        image = read_image(photo.path)
        boxes, scores = det.find_indices(image)
        assert det.pick_stretch(image, boxes, scores).sx > 1.0   # squashed along x: widened along x
        found = det.detect(image)
        assert (found.width, found.height) == (640, 640) and found.widened[0] > 1.0
        assert all(0 <= v <= 640 for c in found.cards for b in c.index_boxes for v in b)
        report = SourceReport("squashed")
        score_photo(report, photo, found.cards, [b for c in found.cards for b in c.index_boxes])
        assert report.found >= least and report.confident_wrong == 0


def test_the_other_frame_is_the_other_factor_along_the_same_axis() -> None:
    assert WIDE.other_frame() == Stretch(0.75, 1.0)                       # 16:9 -> 4:3
    assert Stretch(1.0, 4 / 3).other_frame() == Stretch(1.0, 4 / 3)      # 4:3 -> 16:9 along y
    assert Stretch().other_frame() is None and Stretch(1.5, 1.0).other_frame() is None


@needs_model
@needs_cardcounter
def test_an_unsure_club_read_in_the_other_frame_is_no_longer_a_confident_spade() -> None:
    """A val-block photo's one confident misread: a Jc whose index, widened back one way, reads Js at 0.90 (a club
    of this webcam, a few pixels wide, read as a spade). Read in the other frame too (the runtime as it is), the Js
    is left at 0.74, below the floor, so no read of the photo is confidently wrong; every card found before is still
    found, and the 3s beside it is read surer."""
    photo = next(p for p in cardcounter() if p.path.stem == "WIN_20240627_12_49_21_Pro")
    image = read_image(photo.path)
    det = CardDetector()
    reports, reads = [], []
    for other_frame in (False, True):
        det.other_frame = other_frame
        found = det.detect(image)
        report = SourceReport("squashed")
        score_photo(report, photo, found.cards, [b for c in found.cards for b in c.index_boxes])
        reports.append(report)
        reads.append({str(c.card): c.confidence for c in found.cards})
    before, after = reports
    assert reads[0]["Js"] >= MIN_CONFIDENCE > reads[1]["Js"]
    assert before.confident_wrong == 1 and after.confident_wrong == 0
    assert after.found >= before.found
