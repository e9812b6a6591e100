"""How the detector reads real photos taken with a poorer camera: the held-out real photos at lower resolutions.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/real_scaled.py [--models DIR ...] [--scales 1 0.75 0.6 0.5]

A photo of a whole table taken from further off, sent shrunk through a messenger, or taken with a cheaper camera
holds fewer pixels per index than the webcam frames labelled here. So every photo of
``../shared/realcards/cardcounter``'s held-out blocks (``val`` and ``test``) is shrunk by each scale (area
averaging, then saved as a JPEG of quality 90 and decoded again, as a camera or a messenger would), its labelled
index boxes scaled with it, and read by the whole detector as a photo of that size. A photo sprinkled with specks is
median-filtered first, in its own pixels, as the runtime filters it (``vision.specks``): shrunk, its specks would be
smeared past what the runtime counts as one. Printed per models folder and scale: the photos' size, the cards,
recall, the labelled indices stage 1 located, the reads at or above the confidence floor (0.85) that are wrong,
as ``training.evaluate_real`` counts them, and recall by the labelled index's short side at that scale.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
import numpy.typing as npt

from training.evaluate_real import SourceReport, add_held_out_arguments, located_boxes, score_photo
from training.realcrops import shrunk_as_jpeg
from training.realsets import LabelledIndex, RealPhoto, cardcounter
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks

JPEG_QUALITY = 90


def scaled(image: npt.NDArray[np.uint8], photo: RealPhoto, scale: float
           ) -> tuple[npt.NDArray[np.uint8], RealPhoto]:
    """``image`` shrunk ``scale`` times by area averaging and passed through a JPEG, and its labels scaled alike."""
    if scale == 1.0:
        return image, photo
    h, w = image.shape[:2]
    out = shrunk_as_jpeg(image, scale, JPEG_QUALITY)
    sx, sy = out.shape[1] / w, out.shape[0] / h
    labels = tuple(LabelledIndex(ix.card, (ix.box[0] * sx, ix.box[1] * sy, ix.box[2] * sx, ix.box[3] * sy))
                   for ix in photo.indices)
    return out, RealPhoto(photo.path, labels)


def measure(detector: CardDetector, photos: list[RealPhoto], scale: float) -> tuple[SourceReport, int]:
    """The detector's reading of ``photos`` shrunk ``scale`` times, scored against their scaled labels, and the
    photos' longer side at that scale."""
    report = SourceReport(f"scaled {scale:g}")
    side = 0
    for photo in photos:
        image, labels = scaled(without_specks(read_image(photo.path), detector.speckled_share), photo, scale)
        side = max(side, *image.shape[:2])
        found = detector.detect(image)
        score_photo(report, labels, found.cards, located_boxes(found))
    return report, side


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_held_out_arguments(ap)
    ap.add_argument("--scales", type=float, nargs="+", default=[1.0, 0.75, 0.6, 0.5])
    args = ap.parse_args(argv)
    if any(not 0.1 <= s <= 1.0 for s in args.scales):
        ap.error("--scales: each between 0.1 and 1 (the photos are shrunk, never enlarged)")
    photos = [p for split in args.splits for p in cardcounter(split)]
    print(f"cardcounter {' + '.join(args.splits)}: {len(photos)} photos, shrunk")
    print(f"{'models':<28} {'scale':>6} {'side':>5} {'cards':>6} {'recall':>7} {'located':>9} {'confident wrong':>16}"
          "   recall by index short side")
    for models in args.models:
        detector = CardDetector(models)
        for scale in args.scales:
            r, side = measure(detector, photos, scale)
            sizes = "  ".join(f"{k} px {found / n:.3f} ({n})" for k, (found, n) in
                              sorted(r.by_size.items(), key=lambda kv: float(kv[0].lstrip(">=").split("-")[0])) if n)
            print(f"{str(models)[-28:]:<28} {scale:>6g} {side:>5} {r.cards:>6} {r.found / max(r.cards, 1):>7.3f} "
                  f"{r.indices_located:>4}/{r.indices:<4} {r.confident_wrong:>6} of {r.confident:<6}   {sizes}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
