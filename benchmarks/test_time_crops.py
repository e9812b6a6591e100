"""How each test-time crop of an index reads, and how sets of them read together, on synthetic tables and real photos.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/test_time_crops.py DIR [DIR ...] [--real REAL_DIR]

The readers read each index in several crops cut around the finder's box (``CardDetector.tta``, and ``tta_large``
for an index at least ``large_index`` px long: shifts ``dx, dy`` in box sides, a scale of the 1.3 x long-side square)
and take the mean. Every crop is read here by the first reader alone, in its four quarter turns, over the index
boxes the finder located that lie on exactly one labelled visible index: on ``DIR``, output folders of
``python -m datasets.synth`` whose readings are cached (``benchmarks/check_readings.py cache DIR``; the boxes are
those of the cached reads, the truth the card whose index box holds their centre), and with ``--real`` on a
YOLO-labelled real set (the boxes stage 1 finds in the photo as it is read, widened back where ``vision.stretch``
widens it). Printed per source, for the indices under ``large_index`` px long and for the rest:

* each crop alone: its accuracy (best card over the four turns, the reject class left out) and its mean
  probability of the true card;
* each set of crops (``SETS``; the shipped two first): the accuracy of their mean, the reads at or above the
  confidence floor (0.85) right and wrong, and the negative log-likelihood of the true card.

These are single reads before the second reader, the joining of two corners and the one-deck checks; the tables
(``check_readings.py``) and real photos (``training.evaluate_real``) judge a change of crops in the end.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from training.evaluate_real import lies_on
from training.realsets import yolo_photos
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.tiles import BG_CLASS, crop_square
from vision.truth import card_of_index_at
from vision.types import MIN_CONFIDENCE

Crop = tuple[float, float, float]
CROPS: tuple[Crop, ...] = ((0.0, 0.0, 1.0), (0.0, 0.0, 1.05), (0.0, 0.0, 0.9), (0.05, 0.05, 1.0), (-0.05, -0.05, 1.0),
                           (0.0, 0.0, 1.15), (0.0, 0.0, 0.95), (0.0, 0.0, 0.8))
SETS: dict[str, tuple[int, ...]] = {  # places in CROPS
    "1, 1.05, 0.9, two shifts (tta_large)": (0, 1, 2, 3, 4),
    "1, 1.15, 0.9, two shifts (tta)": (0, 5, 2, 3, 4),
    "0.95 for 1.15": (0, 6, 2, 3, 4),
    "without 1.15 (four crops)": (0, 2, 3, 4),
    "0.8 for 1.15": (0, 7, 2, 3, 4),
}
Box = tuple[float, float, float, float]


def read_all(detector: CardDetector, image: npt.NDArray[np.uint8], box: Box) -> npt.NDArray[np.float32]:
    """The first reader's probabilities (len(CROPS), 4 turns, classes) of every crop of ``box``."""
    return detector.first_reading([crop_square(image, box, jitter=c) for c in CROPS])


Row = tuple[npt.NDArray[np.float32], int, float]   # the crops' probabilities, the true card, the box's long side


def synthetic(detector: CardDetector, root: Path) -> list[Row]:
    out = []
    for path in sorted(root.glob("truth/*/*.json")):
        truth = json.loads(path.read_text())
        reads = json.loads((root / "readings" / f"{path.stem}.json").read_text())["cards"]
        image = read_image(root / truth["image"])
        for read in reads:
            b = read["index_boxes"][0] if read["index_boxes"] else read["box"]
            shown = card_of_index_at(truth, tuple(b))
            if shown is not None:
                out.append((read_all(detector, image, tuple(b)), detector.names.index(shown),
                            max(b[2] - b[0], b[3] - b[1])))
    return out


def real(detector: CardDetector, folder: Path) -> list[Row]:
    out = []
    for photo in yolo_photos(folder):
        stretch, image, boxes, _scores = detector.find_as_read(read_image(photo.path))
        for raw in boxes:
            b = (float(raw[0]), float(raw[1]), float(raw[2]), float(raw[3]))
            under = {ix.card for ix in photo.indices if lies_on(b, stretch.box_to(ix.box))}
            if len(under) == 1:   # the boxes are the widened photo's own: their size is the size as read
                out.append((read_all(detector, image, b), detector.names.index(under.pop()),
                            max(b[2] - b[0], b[3] - b[1])))
    return out


def report(name: str, every: list[Row], reject: int, large: float) -> None:
    for label, rows in ((f"indices under {large:.0f} px", [(p, t) for p, t, side in every if side < large]),
                        (f"indices {large:.0f} px or more", [(p, t) for p, t, side in every if side >= large])):
        if rows:
            print(f"{name}, {label}: {len(rows)} located indices on one labelled index")
            report_rows(rows, reject)


def report_rows(rows: list[tuple[npt.NDArray[np.float32], int]], reject: int) -> None:
    keep = [k for k in range(rows[0][0].shape[-1]) if k != reject]
    for i, crop in enumerate(CROPS):
        hits = [p[i][:, keep].max(axis=0).argmax() == keep.index(t) for p, t in rows]
        truth = [p[i][:, t].max() for p, t in rows]
        print(f"  crop dx {crop[0]:+.2f} dy {crop[1]:+.2f} scale {crop[2]:.2f}: accuracy {np.mean(hits):.4f}, "
              f"p(true card) {np.mean(truth):.3f}")
    for label, places in SETS.items():
        right = sure_right = sure_wrong = 0
        nll = 0.0
        for p, t in rows:
            m = p[list(places)].mean(axis=0)[:, keep]   # (4 turns, cards)
            turn, k = np.unravel_index(int(m.argmax()), m.shape)
            confidence = float(m[turn, k] / max(float(m[turn].sum()), 1e-9))
            ok = keep[k] == t
            right += ok
            sure_right += ok and confidence >= MIN_CONFIDENCE
            sure_wrong += (not ok) and confidence >= MIN_CONFIDENCE
            best_turn = int(m[:, keep.index(t)].argmax())
            nll -= float(np.log(max(float(m[best_turn, keep.index(t)] / max(float(m[best_turn].sum()), 1e-9)), 1e-6)))
        print(f"  {label:<36} accuracy {right / len(rows):.4f}, at or above {MIN_CONFIDENCE}: {sure_right} right, "
              f"{sure_wrong} wrong; NLL {nll / len(rows):.4f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", type=Path, nargs="*", help="datasets.synth output folders with cached readings")
    ap.add_argument("--real", type=Path, action="append", default=[], help="a YOLO-labelled real set")
    args = ap.parse_args(argv)
    detector = CardDetector()
    reject = detector.names.index(BG_CLASS)
    for root in args.dirs:
        if not (root / "readings").is_dir():
            print(f"{root}: no cached readings (python benchmarks/check_readings.py cache {root})", file=sys.stderr)
            return 2
        report(root.name, synthetic(detector, root), reject, detector.large_index)
    for folder in args.real:
        report(folder.name, real(detector, folder), reject, detector.large_index)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
