"""benchmarks/real_covered.py: real indices covered in the photo as the next card of a tight row covers them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from training.realsets import CARDCOUNTER, LabelledIndex, RealPhoto
from vision.detector import CardDetector

pytest.importorskip("torch")  # the covering card is training.neighbours.cut_one's, which works on tensors
real_covered = load_benchmark("real_covered")
realcover = pytest.importorskip("training.realcover")


def _photo_with_an_index(turn: int, ink: int = 20) -> tuple[np.ndarray, object]:
    """A grey table, a white card with a 12 x 24 px index of grey ``ink``, and the index turned ``turn`` quarter
    turns in the photo (its upright frame: ``np.rot90(..., turn)``)."""
    img = np.full((200, 200, 3), 90, np.uint8)
    img[60:170, 60:150] = 235
    up = np.ascontiguousarray(np.rot90(img, turn))   # the card upright in this view
    h = up.shape[0]
    up[h // 2 - 12:h // 2 + 12, 94:106] = ink
    img = np.ascontiguousarray(np.rot90(up, -turn))
    ys, xs = np.nonzero(img[:, :, 0] == ink)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    return img, realcover.Upright(0, LabelledIndex("As", box), turn)


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_a_card_covered_from_its_right_shows_the_left_of_its_index_labelled_as_what_shows(turn: int) -> None:
    """Covered from the right in the index's own upright frame, leaving 60 % of its width: the label shrinks to that
    strip (as long as the index, 60 % as wide), the strip's ink is left as it was, and the rest of the index is
    covered by the donor card (its paper, and its own index, a lighter grey here, just past its edge)."""
    img, target = _photo_with_an_index(turn)
    donor_img, donor = _photo_with_an_index(0, ink=120)
    out, labels = realcover.covered(img, [target], [(donor_img, donor)], "right", 0.6, 0.0, seed=1)
    (label,) = labels
    x0, y0, x1, y1 = target.index.box
    lx0, ly0, lx1, ly1 = label.box
    assert x0 <= lx0 and y0 <= ly0 and lx1 <= x1 and ly1 <= y1
    long_side, short_side = max(x1 - x0, y1 - y0), min(x1 - x0, y1 - y0)
    assert max(lx1 - lx0, ly1 - ly0) == long_side
    assert min(lx1 - lx0, ly1 - ly0) == pytest.approx(0.6 * short_side, abs=1)
    strip = out[int(ly0) + 1:int(ly1) - 1, int(lx0) + 1:int(lx1) - 1]
    assert strip.max() <= 40                     # the ink that shows is untouched (but for the soft edge)
    index = out[int(y0):int(y1), int(x0):int(x1)].astype(float)
    assert (index > 60).mean() > 0.3             # the covered part of the ink is the donor card now
    region = realcover.region_of(target.index.box)
    assert np.array_equal(out[:region[1] - 1], img[:region[1] - 1])  # outside the edited square nothing changed


def test_the_cards_covered_together_stand_apart() -> None:
    """Two cards whose indices lie close are covered in different copies of the photo; two far apart in one."""
    photo = RealPhoto(Path("x.jpg"), (LabelledIndex("As", (10.0, 10.0, 20.0, 30.0)),
                                      LabelledIndex("Kd", (40.0, 10.0, 50.0, 30.0)),
                                      LabelledIndex("2c", (400.0, 400.0, 410.0, 420.0))))
    ups = [realcover.Upright(0, ix, 0) for ix in photo.indices]
    groups = realcover.rounds(photo, ups)
    assert sorted(sorted(u.index.card for u in g) for g in groups) == [["2c", "As"], ["Kd"]]


def test_a_misread_that_took_the_covering_cards_rank_is_told_from_one_of_its_own_rank() -> None:
    """An Ad under a Kc read Kd took the covering card's rank; read As (its own rank, the suit wrong), Qd (a rank
    no covering card has) or not at all, it did not."""
    assert real_covered.took_covering_rank("Ad", "Kd", {"Kc"})
    assert real_covered.took_covering_rank("Ad", "Kd", {"7s", "Kc"})
    assert not real_covered.took_covering_rank("Ad", "As", {"Kc"})
    assert not real_covered.took_covering_rank("Ad", "Qd", {"Kc"})
    assert not real_covered.took_covering_rank("Ad", None, {"Kc"})
    assert not real_covered.took_covering_rank("Kd", "Ks", {"Kc"})


def test_a_strip_showing_little_of_its_index_ink_is_told_from_one_a_person_reads() -> None:
    """``ink_shown``: the share of an index's ink inside the strip that shows. The training crops of covered real
    indices leave out strips under ``MIN_INK_SHOWN`` (a "10" covered down to the thin "1")."""
    img = np.full((60, 60, 3), 230, np.uint8)
    img[10:40, 10:14] = 20          # a thin stroke
    img[10:40, 20:32] = 20          # a wide one: 4 of 16 ink columns are the thin stroke's
    whole = (10.0, 10.0, 32.0, 40.0)
    assert realcover.ink_shown(img, whole, whole) == pytest.approx(1.0)
    assert realcover.ink_shown(img, whole, (10.0, 10.0, 16.0, 40.0)) == pytest.approx(0.25)
    assert realcover.ink_shown(img, whole, (10.0, 10.0, 16.0, 40.0)) < realcover.MIN_INK_SHOWN
    assert realcover.ink_shown(img, whole, (10.0, 10.0, 26.0, 40.0)) == pytest.approx(0.625)
    assert realcover.ink_shown(img, whole, (10.0, 10.0, 32.0, 25.0)) == pytest.approx(0.5)
    blank = np.full((60, 60, 3), 230, np.uint8)
    assert realcover.ink_shown(blank, whole, whole) == 0.0


@pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
def test_the_training_crops_of_covered_cards_are_filed_under_the_cards_covered(tmp_path: Path) -> None:
    """Two photos of two cards each (each photo's covering cards are the other's): every crop is the reader's 64 px
    square filed under a card of its own photo, and every card gives crops."""
    import cv2

    photos = []
    for name, cards in (("a", ("As", "Kd")), ("b", ("7c", "Qh"))):
        img = np.full((300, 400, 3), 90, np.uint8)
        boxes = []
        for x in (40, 240):
            img[50:250, x:x + 120] = 235
            img[70:118, x + 14:x + 20] = 30     # the index's ink: two strokes
            img[70:118, x + 30:x + 38] = 30
            boxes.append((x + 14.0, 70.0, x + 38.0, 118.0))
        cv2.imwrite(str(tmp_path / f"{name}.png"), img)
        photos.append(RealPhoto(tmp_path / f"{name}.png",
                                tuple(LabelledIndex(c, b) for c, b in zip(cards, boxes, strict=True))))
    n = realcover.build_covered_crops(photos, tmp_path / "crops", "train", copies=2, variants=2, seed=3)
    files = sorted((tmp_path / "crops" / "train").glob("*/*.jpg"))
    assert n == len(files) > 0
    for f in files:
        assert f.parent.name in next(p for p in photos if f.stem.startswith(p.path.stem)).cards
        assert cv2.imread(str(f)).shape == (64, 64, 3)
    assert {f.parent.name for f in files} == {"As", "Kd", "7c", "Qh"}


@pytest.mark.parametrize(("turn", "side"), [(0, "right"), (1, "right"), (2, "below"), (3, "below"), (0, "below")])
def test_the_covering_cards_own_index_is_labelled_where_it_shows(turn: int, side: str) -> None:
    """Stage 1's covered training photos (phase det11) label the covering card's own index, pasted just past its
    edge, as an index to find: its label is the box of the donor's ink as it lies in the photo, turned with the
    covered index's frame, and it holds the donor's card."""
    img, target = _photo_with_an_index(turn)
    donor_img, donor = _photo_with_an_index(0, ink=120)
    donor = realcover.Upright(0, LabelledIndex("Kd", donor.index.box), 0)
    out, _, own = realcover.covered_with_covering(img, [target], [(donor_img, donor)], side, 0.6, 0.0, seed=1)
    (label,) = own
    assert label.card == "Kd"
    ys, xs = np.nonzero(np.abs(out[:, :, 0].astype(int) - 120) < 15)
    ink = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    assert label.box == pytest.approx(ink, abs=1.5)


@pytest.mark.skipif(not (CARDCOUNTER / "images").is_dir(), reason="needs ../shared/realcards/cardcounter")
def test_covered_training_photos_keep_every_index_a_person_finds(tmp_path: Path) -> None:
    """Phase det11's photos of a real train photo (another one lends the covering cards): one per group of
    coverable cards, each label of the photo kept but the covered ones', which are cut to what shows (or left out),
    and the covering cards' indices added; what the photos' file lists is what was made."""
    from training.realsets import cardcounter

    photo, lender = cardcounter("train")[:2]
    made = [(p, f) for p, f in realcover.build_covered_photos([photo, lender], tmp_path, copies=1, seed=3)
            if p.path.stem.startswith(photo.path.stem)]
    assert made and made == realcover.covered_photos(tmp_path)[:len(made)]
    whole = {ix.box for ix in photo.indices}
    for seen, changed in made:
        assert seen.path.is_file() and changed
        kept = [ix for ix in seen.indices if ix.box in whole]
        assert all(ix in photo.indices for ix in kept)
        assert set(changed) == {ix.box for ix in seen.indices} - whole   # covered strips and covering indices
        assert len(kept) < len(photo.indices)                            # the group's own labels were cut


@pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
def test_a_real_strip_stage_1_finds_only_faintly_is_read_as_a_faint_card() -> None:
    """The 4s of a committed held-out photo (``tests/fixtures/real/cardcounter``, 06-27 17:00:45) covered as a fan's
    next card covers it (70 % of its index's width showing, the edge slanted 12 deg; a card of the other committed
    photo covering it), as ``benchmarks/real_covered.py`` covers it. Stage 1 scores the strip's box under
    ``UNREAD_INDEX``: no card is read there, but the strip is read right among the faint reads
    (``Detections.faint``), which a hand one card short takes where it alone lays it in rows (``vision.layout``)."""
    from training.evaluate_real import lies_on
    from training.realsets import yolo_photos
    from vision.detector import UNREAD_INDEX

    photos = yolo_photos(Path(__file__).parent / "fixtures" / "real" / "cardcounter")
    assert photos[0].path.name == "WIN_20240627_17_00_45_Pro.jpg"
    detector = CardDetector()
    ready = realcover.coverable(photos, detector)
    group = ready.plan[0][4]
    assert [u.index.card for u in group] == ["4s", "4s"]   # both its corners
    donors = [(ready.images[u.photo], u) for u in ready.pool if u.photo != 0]
    picks = [donors[int(j)] for j in np.random.default_rng(4).choice(len(donors), size=2, replace=False)]
    seen, labels = realcover.covered(ready.images[0], group, picks, "right", 0.7, 12.0, seed=4)

    def read_at(cards: tuple) -> list[str]:
        return [str(c.card) for c in cards if any(lies_on(b, lab.box) for b in c.index_boxes for lab in labels)]

    found = detector.detect(seen)
    assert read_at(found.cards) == []
    assert read_at(found.faint) == ["4s"]
    detector.det_conf = UNREAD_INDEX          # stage 1's floor as it was: the strip is not found at all
    assert read_at(detector.detect(seen).faint) == []
