"""benchmarks/real_scaled.py: the held-out real photos shrunk as a poorer camera would take them, labels alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from training.evaluate_real import SourceReport, score_photo
from training.realsets import LabelledIndex, RealPhoto, yolo_photos
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks

ROOT = Path(__file__).resolve().parent.parent
real_scaled = load_benchmark("real_scaled")
REAL = ROOT / "tests" / "fixtures" / "real" / "cardcounter"


def test_a_photo_shrunk_keeps_its_labels_on_the_same_ink() -> None:
    """Shrunk 0.6 times, a photo's pixels and its labelled boxes scale alike (the dark square stays inside its box),
    and at scale 1 both are handed back as they are."""
    img = np.full((200, 300, 3), 230, np.uint8)
    img[50:90, 100:130] = 20
    photo = RealPhoto(Path("x.jpg"), (LabelledIndex("As", (100.0, 50.0, 130.0, 90.0)),))
    small, labels = real_scaled.scaled(img, photo, 0.6)
    assert small.shape == (120, 180, 3)
    x1, y1, x2, y2 = (round(v) for v in labels.indices[0].box)
    assert (x1, y1, x2, y2) == (60, 30, 78, 54) and labels.indices[0].card == "As"
    assert small[y1 + 2:y2 - 2, x1 + 2:x2 - 2].mean() < 40 and small[:, :50].mean() > 200
    same, kept = real_scaled.scaled(img, photo, 1.0)
    assert same is img and kept is photo


@pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
def test_a_real_photo_at_a_poorer_cameras_resolution_is_read_without_a_sure_misread() -> None:
    """A held-out cardcounter photo of a tight row (test block), shrunk from 640 to 384 px as a poorer camera takes it
    (the strips its indices show: 7-12 px wide): 25 of its 26 cards are read right, and no confident read is wrong."""
    photo = next(p for p in yolo_photos(REAL) if p.path.stem == "WIN_20240627_17_00_45_Pro")
    image, labels = real_scaled.scaled(without_specks(read_image(photo.path)), photo, 0.6)
    assert image.shape[:2] == (384, 384)
    cards = CardDetector().detect(image).cards
    report = SourceReport("scaled")
    score_photo(report, labels, cards, [b for c in cards for b in c.index_boxes])
    assert report.cards == 26 and report.found >= 24 and report.confident_wrong == 0
