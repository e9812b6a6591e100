"""Reader crops cut from real labelled photos (a ``training.realsets`` split), for training and calibration.

The labels are axis-aligned boxes without the index's turn, so each crop is turned upright by the
quarter turn in which the shipped reader finds the labelled card most probable (the identity is known:
only the turn is asked). Every labelled index gives ``variants`` crops: around its labelled box and,
where stage 1 located it, around the detector's own box (what the reader sees at run time), each with
its own shift and scale. ``as_read``: each photo's crops are cut as the runtime reads it, widened back
when ``vision.stretch`` takes it for a squashed one (cardcounter's frames: squashed from 16:9); ``filtered``: cut
from the photo median-filtered where it is speckled, as the runtime reads it (``vision.specks``; the benchmarks
and phase ``cls41``: the shipped readers' real crops keep their specks); ``shrunk``: the share of the variants cut
from the photo shrunk and JPEG'd as a poorer camera leaves it (``poorer``; phase ``cls47``).
Background (``zz_bg``): boxes of an index's size away from every labelled
index (card faces, pips, court pictures, table, hands, card backs) and, as in the synthetic crops,
a share of upside-down indices. Layout as ``training.train_data.build_crops``: ``OUT/<split>/<class>/*.jpg``.

    python -m training.realcrops --split train --out datasets/generated/real/crops_real
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks
from vision.tiles import BG_CLASS, crop_square

from .evaluate_real import lies_on, located_boxes
from .realsets import Box, LabelledIndex, RealPhoto, cardcounter

SHRUNK = (0.4, 0.8)  # a shrunk variant's scale (``shrunk``): the held-out photos read 0.991 -> 0.954 recall at 0.5


def upright_turn(detector: CardDetector, image: np.ndarray, box: Box, card: str,
                 stretch: tuple[float, float] = (1.0, 1.0)) -> tuple[int, float]:
    """The quarter turn (``np.rot90`` k) that shows the index upright, and the reader's probability of
    ``card`` in it."""
    p = detector.first_reading([crop_square(image, box, stretch=stretch)])[0]
    c = detector.names.index(card)
    k = int(np.argmax(p[:, c]))
    return k, float(p[k, c])


def shrunk_as_jpeg(image: np.ndarray, scale: float, quality: int) -> np.ndarray:
    """``image`` shrunk ``scale`` times by area averaging, then saved as a JPEG of ``quality`` and decoded again: the
    photo a poorer camera or a messenger leaves (``poorer``; ``benchmarks/real_scaled.py``)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("a shrunk photo could not be encoded as a JPEG")
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def poorer(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` as a poorer camera or a messenger leaves it: shrunk to ``SHRUNK`` of its size and passed through a
    JPEG of quality 70-95 (``shrunk_as_jpeg``)."""
    return shrunk_as_jpeg(image, float(rng.uniform(*SHRUNK)), int(rng.integers(70, 96)))


def clear_of(box: Box, indices: Iterable[LabelledIndex], margin: float) -> bool:
    """Whether ``box`` stands at least ``margin`` px clear of every one of ``indices``' boxes."""
    x1, y1, x2, y2 = box
    for ix in indices:
        a, b, c, d = ix.box
        if x1 < c + margin and a - margin < x2 and y1 < d + margin and b - margin < y2:
            return False
    return True


def build_real_crops(photos: list[RealPhoto], out: Path, split: str, variants: int = 12, bg_per_photo: int = 24,
                     flip_bg: float = 0.08, seed: int = 0, detector: CardDetector | None = None,
                     as_read: bool = False, filtered: bool = False, shrunk: float = 0.0) -> int:
    detector = detector or CardDetector()
    rng = np.random.default_rng(seed)
    for name in detector.names:
        (out / split / name).mkdir(parents=True, exist_ok=True)
    count = 0
    for photo in photos:
        image = read_image(photo.path)
        if filtered:
            image = without_specks(image, detector.speckled_share)
        h, w = image.shape[:2]
        det = detector.detect(image)
        located = located_boxes(det)
        st = det.widened if as_read else (1.0, 1.0)
        for j, ix in enumerate(photo.indices):
            k, _ = upright_turn(detector, image, ix.box, ix.card, st)
            boxes = [ix.box, *[b for b in located if lies_on(b, ix.box)][:1]]
            for v in range(variants):
                box = boxes[v % len(boxes)]
                jit = (rng.normal(0, 0.05), rng.normal(0, 0.05), rng.uniform(0.85, 1.2))
                seen = image
                if shrunk and rng.random() < shrunk:  # (no draw without: the other phases' crops stay as they were)
                    seen = poorer(image, rng)
                    f = seen.shape[1] / w
                    box = (box[0] * f, box[1] * f, box[2] * f, box[3] * f)
                up = np.ascontiguousarray(np.rot90(crop_square(seen, box, jitter=jit, stretch=st), k))
                stem = f"{photo.path.stem}_{ix.card}{j}_{v}"
                cv2.imwrite(str(out / split / ix.card / f"{stem}.jpg"), up, [cv2.IMWRITE_JPEG_QUALITY, 95])
                count += 1
                if rng.random() < flip_bg:  # upside down is not a card (the turn choice, 6/9)
                    cv2.imwrite(str(out / split / BG_CLASS / f"r{stem}.jpg"), np.ascontiguousarray(np.rot90(up, 2)))
                    count += 1
        sizes = [max(ix.box[2] - ix.box[0], ix.box[3] - ix.box[1]) for ix in photo.indices] or [40.0]
        made = tries = 0
        while made < bg_per_photo and tries < bg_per_photo * 30:
            tries += 1
            size = float(sizes[rng.integers(len(sizes))]) * rng.uniform(0.7, 1.5)
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            box = (cx - size / 3, cy - size / 2, cx + size / 3, cy + size / 2)
            if not clear_of(box, photo.indices, 0.15 * size):
                continue
            crop = np.ascontiguousarray(np.rot90(crop_square(image, box, stretch=st), int(rng.integers(4))))
            cv2.imwrite(str(out / split / BG_CLASS / f"{photo.path.stem}_bg{made}.jpg"), crop,
                        [cv2.IMWRITE_JPEG_QUALITY, 95])
            made += 1
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.realcrops", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("train", "val", "test"), required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--variants", type=int, default=12, help="crops per labelled index")
    ap.add_argument("--as-split", default=None, help="write under this split name (default: --split)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--as-read", action="store_true", help="cut each photo as the runtime reads it (vision.stretch)")
    args = ap.parse_args(argv)
    n = build_real_crops(cardcounter(args.split), args.out, args.as_split or args.split, args.variants,
                         seed=args.seed, as_read=args.as_read)
    print(f"{n} crops -> {args.out / (args.as_split or args.split)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
