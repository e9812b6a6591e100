"""How the detector reads real photos turned between quarter turns, as the cards of a fan lie.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/real_turned.py [--models DIR ...] [--degrees 0 20 30 45]

A fan of 13 cards held or laid on a table spreads its cards over 60-120 degrees, so some of them lie near 45
degrees from every quarter turn, where the readers (trained on turns up to 30 degrees) and the runtime (which
reads an index in its four quarter turns) are weakest. The real photos here hold few such cards. So every photo of
``../shared/realcards/cardcounter``'s held-out blocks (``val`` and ``test``: webcam frames of 16:9 stored square,
widened back to 16:9 first, as ``vision.stretch`` would) is turned by each angle about its centre on a canvas
large enough to hold it (the rest filled with the photo's median colour), its labelled index boxes turned with
it (the upright box of each turned box), and read by the whole detector. Printed per models folder and angle:
the photos, the cards, recall, the labelled indices stage 1 located, and the reads at or above the confidence
floor (0.85) that are wrong, as ``training.evaluate_real`` counts them. A photo sprinkled with specks is
median-filtered first, in its own pixels, as the runtime filters it (``vision.specks``): widened and turned, its
specks would be smeared past what the runtime counts as one.
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np
import numpy.typing as npt

from training.evaluate_real import SourceReport, add_held_out_arguments, located_boxes, score_photo
from training.realsets import LabelledIndex, RealPhoto, cardcounter
from training.train_data import box_under
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks

WIDE = 16 / 9  # cardcounter's frames: 16:9 webcam frames stored as 640 x 640


def turned(image: npt.NDArray[np.uint8], photo: RealPhoto, degrees: float
           ) -> tuple[npt.NDArray[np.uint8], RealPhoto]:
    """The square frame widened back to 16:9 and turned ``degrees`` (counter-clockwise) about its centre on a
    canvas that holds all of it, and its labels turned alike (each the upright box of its turned box)."""
    h, w = image.shape[:2]
    wide_w = round(h * WIDE)
    wide = cv2.resize(image, (wide_w, h), interpolation=cv2.INTER_CUBIC)
    sx = wide_w / w
    m = cv2.getRotationMatrix2D((wide_w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    out_w, out_h = int(h * sin + wide_w * cos), int(h * cos + wide_w * sin)
    m[0, 2] += out_w / 2 - wide_w / 2
    m[1, 2] += out_h / 2 - h / 2
    fill = tuple(float(v) for v in np.median(wide.reshape(-1, 3), axis=0))
    out = cv2.warpAffine(wide, m, (out_w, out_h), flags=cv2.INTER_CUBIC, borderValue=fill)
    labels = tuple(LabelledIndex(ix.card, box_under((ix.box[0] * sx, ix.box[1], ix.box[2] * sx, ix.box[3]), m))
                   for ix in photo.indices)
    return np.asarray(out, np.uint8), RealPhoto(photo.path, labels)


def measure(detector: CardDetector, photos: list[RealPhoto], degrees: float) -> SourceReport:
    """The detector's reading of ``photos`` turned ``degrees``, scored against their turned labels."""
    report = SourceReport(f"turned {degrees:g} deg")
    for photo in photos:
        image, labels = turned(without_specks(read_image(photo.path), detector.speckled_share), photo, degrees)
        found = detector.detect(image)
        score_photo(report, labels, found.cards, located_boxes(found))
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_held_out_arguments(ap)
    ap.add_argument("--degrees", type=float, nargs="+", default=[0.0, 20.0, 30.0, 45.0])
    args = ap.parse_args(argv)
    photos = [p for split in args.splits for p in cardcounter(split)]
    print(f"cardcounter {' + '.join(args.splits)}: {len(photos)} photos, widened to 16:9 and turned")
    print(f"{'models':<28} {'turned':>7} {'cards':>6} {'recall':>7} {'located':>9} {'confident wrong':>16}")
    for models in args.models:
        detector = CardDetector(models)
        for degrees in args.degrees:
            r = measure(detector, photos, degrees)
            print(f"{str(models)[-28:]:<28} {degrees:>6g}° {r.cards:>6} {r.found / max(r.cards, 1):>7.3f} "
                  f"{r.indices_located:>4}/{r.indices:<4} {r.confident_wrong:>6} of {r.confident:<6}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
