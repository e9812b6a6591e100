"""Real photos: the capture-time split, the reader on committed real crops of the held-out split, and the
calibration the runtime applies."""

from __future__ import annotations

import importlib.util
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.cards import Card
from training.evaluate_real import Miss, SourceReport, contact_sheet, score_photo
from training.realsets import (
    CARDCOUNTER,
    LABEL_FIXES,
    LabelledIndex,
    RealPhoto,
    cardcounter,
    label_fixes,
    parse_class,
    split_of,
    yolo_photos,
)
from vision.detector import CALIBRATION, MODELS, CardDetector, reader_temperature, tempered
from vision.tiles import CROP_MARGIN, CROP_SIZE
from vision.types import MIN_CONFIDENCE, CardDetection

REAL = Path(__file__).parent / "fixtures" / "real"
# the box whose reader crop (CROP_MARGIN x its side, CROP_SIZE px) is a stored 64 px crop itself
_HALF = CROP_SIZE / (2 * CROP_MARGIN)
WHOLE_CROP = np.array([[CROP_SIZE / 2 - _HALF] * 2 + [CROP_SIZE / 2 + _HALF] * 2], np.float32)
needs_model = pytest.mark.skipif(not CardDetector.available(), reason="models/*.onnx not committed")
needs_cardcounter = pytest.mark.skipif(not (CARDCOUNTER / "images").is_dir(),
                                       reason="shared/realcards/cardcounter is not beside the checkout")


# ------------------------------------------------------------------ the split

@needs_cardcounter
def test_split_by_capture_time_keeps_blocks_apart() -> None:
    photos = cardcounter()
    splits = {p.path.stem: split_of(p.path.stem) for p in photos}
    assert {s: list(splits.values()).count(s) for s in ("train", "val", "test")} == {"train": 56, "val": 13,
                                                                                     "test": 17}
    # photos taken within 5 minutes of each other are in one split (near duplicates never straddle)
    def minute(stem: str) -> int:
        day, hh, mm = int(stem[10:12]), int(stem[13:15]), int(stem[16:18])
        return day * 1440 + hh * 60 + mm
    stems = sorted(splits, key=minute)
    for a, b in itertools.pairwise(stems):
        if minute(b) - minute(a) < 5:
            assert splits[a] == splits[b], (a, b)
    assert sum(len(p.indices) for p in photos) == 1149  # every labelled card index (backs, jokers left out)


@needs_cardcounter
def test_label_corrections_apply_and_no_card_is_labelled_three_times() -> None:
    """The published labels corrected by eye (``training/label_fixes.csv``) all still match their label lines,
    and after them no photo labels one card on more than its two corners."""
    fixes = {k: v for k, v in label_fixes().items() if v.set == "cardcounter"}
    assert len(fixes) == 13
    fixed = {p.path.stem: p for p in cardcounter()}
    published = {p.path.stem: p for p in yolo_photos(CARDCOUNTER, fixes=None)}
    changed = [(stem, a.card, b.card) for stem in fixed
               for a, b in zip(published[stem].indices, fixed[stem].indices, strict=True) if a.card != b.card]
    assert len(changed) == len(fixes)
    assert ("WIN_20240627_17_01_16_Pro", "4s", "3s") in changed   # a held-out 3 of spades published as a 4
    for photo in fixed.values():
        counts = [sum(ix.card == c for ix in photo.indices) for c in photo.cards]
        assert max(counts) <= 2, photo.path.stem


def _yolo_folder(root: Path, label_line: str) -> Path:
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    cv2.imwrite(str(root / "images" / "WIN_20240627_12_50_01_Pro.jpg"), np.full((64, 64, 3), 200, np.uint8))
    (root / "labels" / "WIN_20240627_12_50_01_Pro.txt").write_text(label_line + "\n")
    (root / "data.yaml").write_text("names: ['10C', '4S', '3S']\n")
    return root


def test_a_correction_replaces_its_label_and_a_stale_one_stops_the_reading(tmp_path: Path) -> None:
    folder = _yolo_folder(tmp_path / "mini", "1 0.5 0.5 0.2 0.4")
    fixes = tmp_path / "fixes.csv"
    fixes.write_text("set,photo,line,was,card,why\nmini,WIN_20240627_12_50_01_Pro,1,4s,3s,shows a 3\n")
    assert [ix.card for ix in yolo_photos(folder, fixes=fixes)[0].indices] == ["3s"]
    assert [ix.card for ix in yolo_photos(folder, fixes=None)[0].indices] == ["4s"]
    fixes.write_text("set,photo,line,was,card,why\nmini,WIN_20240627_12_50_01_Pro,1,Tc,3s,shows a 3\n")
    with pytest.raises(ValueError, match="expects Tc"):
        yolo_photos(folder, fixes=fixes)
    assert LABEL_FIXES.exists()


def test_an_edje_correction_replaces_its_rank_and_a_stale_one_stops_the_reading(tmp_path: Path) -> None:
    """edje's labels are corrected the same way (photo stem, the object's number in its XML): the train split's
    IMG_2396 is a ten published as a nine."""
    from training.evaluate import edje_items

    split = tmp_path / "edje" / "images" / "train"
    split.mkdir(parents=True)
    cv2.imwrite(str(split / "IMG_1.JPG"), np.full((64, 48, 3), 200, np.uint8))
    objects = "".join(f"<object><name>{r}</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>30</xmax><ymax>40</ymax>"
                      "</bndbox></object>" for r in ("nine", "king"))
    (split / "IMG_1.xml").write_text(f"<annotation><filename>IMG_1.JPG</filename>{objects}</annotation>")
    fixes = tmp_path / "fixes.csv"
    fixes.write_text("set,photo,line,was,card,why\nedje,IMG_1,1,9,T,a ten\n")
    assert [r for r, _ in edje_items("train", tmp_path / "edje", fixes)[0][1]] == ["T", "K"]
    assert [r for r, _ in edje_items("train", tmp_path / "edje", None)[0][1]] == ["9", "K"]
    fixes.write_text("set,photo,line,was,card,why\nedje,IMG_1,2,Q,K,stale\n")
    with pytest.raises(ValueError, match="expects Q"):
        edje_items("train", tmp_path / "edje", fixes)
    assert ("edje", "IMG_2396", 1) in label_fixes()


def test_class_names_and_unknown_stems() -> None:
    assert [parse_class(n) for n in ("10C", "AS", "9h", "BLACK JOKER")] == ["Tc", "As", "9h", None]
    with pytest.raises(ValueError, match="capture time"):
        split_of("IMG_2383")


def test_scoring_a_photo_counts_right_wrong_and_missed() -> None:
    photo = RealPhoto(Path("x.jpg"), (LabelledIndex("Ac", (0, 0, 10, 20)), LabelledIndex("Kd", (50, 0, 60, 20)),
                                      LabelledIndex("7s", (100, 0, 110, 20))))

    def read(card: str, x: float, conf: float) -> CardDetection:
        return CardDetection(card=Card.parse(card), confidence=conf, box=(x, 0, x + 10, 20),
                             index_boxes=((x, 0, x + 10, 20),))

    report = SourceReport("t")
    score_photo(report, photo, (read("Ac", 0, 0.99), read("Ks", 50, 0.9), read("2h", 200, 0.5)),
                [(0, 0, 10, 20), (50, 0, 60, 20), (200, 0, 210, 20)])
    s = report.summary()
    assert (s["cards"], s["recall"], s["wrong_reads"], s["unlabelled_reads"]) == (3, 1 / 3, 1, 1)
    assert (s["confident_reads"], s["confident_wrong"]) == (2, 1)
    assert s["indices_located_by_stage1"] == 2   # 7s was not located at all
    assert {m.truth: m.read for m in report.misses} == {"Kd": "Ks", "7s": None}


def test_a_contact_sheet_draws_misses_from_photos_edited_in_memory(tmp_path: Path) -> None:
    """The covered photos of benchmarks/real_covered.py exist only in memory: each miss is drawn from the image given
    for it (here a dark index in one, none in the other), not from its file, which need not exist."""
    dark, plain = np.full((100, 100, 3), 230, np.uint8), np.full((100, 100, 3), 230, np.uint8)
    dark[40:60, 45:55] = 10
    misses = [Miss(Path("covered.jpg"), (45.0, 40.0, 55.0, 60.0), "Kd", "Ks", 0.9, True),
              Miss(Path("covered.jpg"), (45.0, 40.0, 55.0, 60.0), "7s", None, 0.0, False)]
    sheet = tmp_path / "sheet.png"
    contact_sheet(misses, sheet, images=[dark, plain])
    drawn = cv2.imread(str(sheet))
    assert drawn.shape == (112 + 28, 10 * 112, 3)
    assert drawn[40:72, 40:72].mean() < 60 and drawn[40:72, 152:184].mean() > 200
    with pytest.raises(ValueError, match="1 images for 2 misses"):
        contact_sheet(misses, sheet, images=[dark])


# ------------------------------------------------------------------ calibration in the runtime

def test_temperature_softens_and_keeps_the_order() -> None:
    p = np.array([[0.9, 0.08, 0.02]], np.float32)
    soft = tempered(p, 2.0)
    assert soft[0].argmax() == 0 and soft[0, 0] < 0.9 and abs(float(soft.sum()) - 1) < 1e-6
    assert np.array_equal(tempered(p, 1.0), p)


def test_shipped_calibration_is_what_the_runtime_uses() -> None:
    path = MODELS / CALIBRATION
    if not path.exists():
        assert reader_temperature(MODELS) == 1.0
        return
    spec = json.loads(path.read_text())
    assert reader_temperature(MODELS) == pytest.approx(spec["temperature"])
    assert "cardcounter val" in spec["fitted_on"]   # fitted on the real validation split, never the test split


@needs_model
def test_an_overconfident_reading_falls_below_the_floor_when_calibrated(tmp_path: Path) -> None:
    """The runtime path (``CardDetector.read_boxes``) applies the temperature of ``reader_calibration.json``:
    a held-out 9s the uncalibrated readers read as 9c at about the floor (0.85 +- 0.01 since ``cls50``) reads
    clearly below it under a softening temperature."""
    for f in ("index_det.onnx", "index_cls.onnx", "index_cls2.onnx"):
        if (MODELS / f).exists():
            shutil.copy(MODELS / f, tmp_path / f)
    image = cv2.imread(str(REAL / "crops" / "overconfident.png"))
    assert image is not None
    box = WHOLE_CROP
    (tmp_path / CALIBRATION).write_text(json.dumps({"temperature": 1.0}))
    plain = CardDetector(tmp_path).read_boxes(image, box)
    (tmp_path / CALIBRATION).write_text(json.dumps({"temperature": 3.0}))
    calibrated = CardDetector(tmp_path).read_boxes(image, box)
    det = CardDetector(tmp_path)
    bg = det.names.index("zz_bg")
    best = lambda p: float(np.delete(p, bg, axis=-1).max())
    read = det.names[int(np.unravel_index(int(plain.argmax()), plain.shape)[-1])]
    assert read == "9c" and best(plain) >= MIN_CONFIDENCE - 0.01   # a wrong read at the floor
    assert best(calibrated) < MIN_CONFIDENCE - 0.1
    assert np.unravel_index(plain.argmax(), plain.shape) == np.unravel_index(calibrated.argmax(), calibrated.shape)


# ------------------------------------------------------------------ committed real crops (held-out split)

# held-out crops the shipped readers do not read right, and why (kept, so that a better reader shows)
KNOWN_MISREADS: dict[str, str] = {
    # this webcam's club, its lobes a few pixels wide: cls50 is unsure, and cls52 as the second reader (0.54 Ts, 0.41
    # Tc) leans the other way from cls19 (0.55 Tc, 0.40 Ts): unsure either way, so the referee reports it
    "Tc_20240627_17_01_12": "a club read as a spade, unsurely (Ts 0.54 against Tc 0.41)",
    # the same lean: a coin flip for every shipped pair (cls19 second: Jc 0.49, Js 0.43; cls52: Jc 0.47, Js 0.45;
    # cls53: Js 0.46, Jc 0.45), far under the floor, so the referee reports it
    "Jc_20240627_17_01_7": "a club read as a spade by a hair, unsurely (Js 0.46 against Jc 0.45)",
}


def _crops() -> list[Any]:
    return [pytest.param(p.stem.split("_")[0], p, id=p.stem,
                         marks=[pytest.mark.xfail(reason=KNOWN_MISREADS[p.stem], strict=True)]
                         if p.stem in KNOWN_MISREADS else [])
            for p in sorted((REAL / "crops").glob("*_*.png"))]


@needs_model
@pytest.mark.parametrize(("card", "path"), _crops())
def test_real_held_out_crop_reads_right(card: str, path: Path) -> None:
    """Index crops (upright, 64 px around the labelled box) of cardcounter's TEST split, never trained on:
    the clubs the readers shipped before ``cls13`` read as spades among them."""
    image = cv2.imread(str(path))
    assert image is not None
    det = CardDetector()
    probs = det.read_boxes(image, WHOLE_CROP)[0]
    probs[:, det.names.index("zz_bg")] = 0
    k, c = np.unravel_index(int(probs.argmax()), probs.shape)
    assert det.names[c] == card
    assert k == 0   # the upright turn


@pytest.mark.skipif(importlib.util.find_spec("ultralytics") is None, reason="needs the train extra (make test)")
@pytest.mark.slow
@pytest.mark.parametrize("stem", ["index_cls", "index_cls2"])
def test_committed_weights_are_the_shipped_readers(stem: str) -> None:
    """``models/<reader>.pt`` (where a next training phase starts) computes what ``<reader>.onnx`` does, and
    the weights recovered from the ONNX export (``training.recover``) do too."""
    import onnxruntime as ort
    import torch
    from ultralytics.nn.tasks import ClassificationModel

    from training.recover import recovered

    pt, onnx_path = MODELS / f"{stem}.pt", MODELS / f"{stem}.onnx"
    if not pt.exists() or not onnx_path.exists():
        pytest.skip(f"models/{stem}.pt or .onnx not committed")
    committed = torch.load(pt, weights_only=False)
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(committed["names"]), verbose=False)
    model.load_state_dict(committed["model"])
    model.eval()
    model.model[-1].export = True
    x = np.random.default_rng(1).random((3, 3, CROP_SIZE, CROP_SIZE), dtype=np.float32)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    want = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    assert np.allclose(got, want, atol=1e-4)
    _recovered, names = recovered(onnx_path)   # raises if it differs from the ONNX model
    assert names == committed["names"]
