"""Fit the readers' temperature on real photos, so that a confidence means on a real photo what it says.

    python -m training.calibrate [--split val] [--write]     # writes models/reader_calibration.json

Every labelled index of the split (``training.realsets``: cardcounter's ``val`` capture block, never its
test blocks) that stage 1 located is read as at run time (test-time crops, second reader; no temperature),
and the temperature T that minimises the negative log-likelihood of the labelled card in its upright
turn is found by a grid search (``softmax(log p / T)``: T > 1 softens overconfident readings). The
runtime (``vision.detector.reader_temperature``) applies it to every reading, but never below 1: the
reading, elimination and confidence floors were chosen on synthetic tables at T = 1, and a T < 1 would
lift readings over them on evidence from one small real split (softening only ever stops more tables).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.detector import CALIBRATION, MODELS, CardDetector, tempered
from vision.image_io import read_image

from .evaluate_real import iou, lies_on
from .realsets import cardcounter

GRID = np.round(np.exp(np.linspace(np.log(0.5), np.log(5.0), 61)), 3)


def labelled_readings(detector: CardDetector, split: str) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """(n, classes) raw readings of the labelled indices located by stage 1, each in the turn where its
    labelled card is most probable, and the labelled class of each; each photo read as the runtime reads
    it (a squashed square one widened back, ``vision.stretch``)."""
    keep, detector.temperature = detector.temperature, 1.0
    rows, labels = [], []
    try:
        for photo in cardcounter(split):
            image = read_image(photo.path)
            stretch, image, boxes, _ = detector.find_as_read(image)
            if not len(boxes):
                continue
            probs = detector.read_boxes(image, boxes)
            for ix in photo.indices:
                label = stretch.box_to(ix.box)
                near = [i for i, b in enumerate(boxes) if lies_on(tuple(float(v) for v in b), label)]  # type: ignore[arg-type]
                if not near:
                    continue
                i = max(near, key=lambda j: iou(tuple(float(v) for v in boxes[j]), label))  # type: ignore[arg-type]
                c = detector.names.index(ix.card)
                k = int(np.argmax(probs[i, :, c]))
                rows.append(probs[i, k])
                labels.append(c)
    finally:
        detector.temperature = keep
    return np.asarray(rows, np.float32), np.asarray(labels, np.int64)


def nll(probs: npt.NDArray[np.float32], labels: npt.NDArray[np.int64], temperature: float) -> float:
    p = tempered(probs, temperature)[np.arange(len(labels)), labels]
    return float(-np.log(np.maximum(p, 1e-12)).mean())


def fit_temperature(probs: npt.NDArray[np.float32], labels: npt.NDArray[np.int64]) -> float:
    return float(min(GRID, key=lambda t: nll(probs, labels, float(t))))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.calibrate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", default="val", choices=("train", "val"), help="never the test split")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--write", action="store_true", help=f"write the temperature to MODELS/{CALIBRATION}")
    args = ap.parse_args(argv)
    detector = CardDetector(args.models)
    probs, labels = labelled_readings(detector, args.split)
    t = fit_temperature(probs, labels)
    top = probs.argmax(axis=1)
    print(f"{len(labels)} located labelled indices of cardcounter ({args.split}): top-1 {np.mean(top == labels):.3f}; "
          f"NLL at T=1 {nll(probs, labels, 1.0):.3f}, at T={t:.3f} {nll(probs, labels, t):.3f}")
    applied = max(1.0, t)
    if args.write:
        dest = args.models / CALIBRATION
        dest.write_text(json.dumps({
            "temperature": applied, "fitted": t,
            "fitted_on": f"cardcounter {args.split} split ({len(labels)} located labelled indices)",
            "command": f"python -m training.calibrate --split {args.split} --write",
            "nll_before": round(nll(probs, labels, 1.0), 4), "nll_after": round(nll(probs, labels, t), 4),
            "date": time.strftime("%Y-%m-%d")}, indent=1) + "\n")
        print(f"-> {dest} (temperature {applied:.3f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
