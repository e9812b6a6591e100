"""Index-finder tiles cut from real labelled photos (a ``training.realsets`` split), for stage 1's training.

Each photo gives ``per_photo`` tiles of ``tile`` px, as ``training.train_data.build_tiles`` cuts the synthetic
scenes (one class, ``index``; a box kept as ``train_data.tile_label`` keeps it), heavily augmented because
the photos are few: a random zoom (``scale_range``), a quarter turn (the labels are axis-aligned boxes, exact
under quarter turns) plus up to ``max_deg`` degrees more (the box of the turned box's corners, shrunk back
toward the original's area), the webcam's square-stored 16:9 frame undone on a share (an anisotropic
squeeze), blur and JPEG recompression. Tiles centre on a labelled index most of the time, elsewhere on a
random point (table, backs, hands: negatives). Layout: ``OUT/images/<split>/*.jpg`` and
``OUT/labels/<split>/*.txt``, beside the synthetic tiles of the same phase.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.image_io import read_image

from .realsets import Box, RealPhoto
from .train_data import box_under, tile_label


def _turned_box(box: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The axis-aligned box of ``box``'s corners under the affine ``m``, shrunk about its centre so that its area
    is at most the original's times the zoom squared (a turned index's box does not grow with the turn)."""
    x1, y1, x2, y2 = box
    bx1, by1, bx2, by2 = box_under(box, m)
    lo, hi = np.array([bx1, by1]), np.array([bx2, by2])
    zoom2 = abs(np.linalg.det(m[:, :2]))
    area = (hi[0] - lo[0]) * (hi[1] - lo[1])
    want = (x2 - x1) * (y2 - y1) * zoom2
    if area > want > 0:
        k = math.sqrt(want / area)
        c = (lo + hi) / 2
        lo, hi = c - (c - lo) * k, c + (hi - c) * k
    return np.array([lo[0], lo[1], hi[0], hi[1]])


def real_tiles(photos: list[RealPhoto], out: Path, split: str, per_photo: int, seed: int, tile: int,
               scale_range: tuple[float, float] = (0.7, 2.0), max_deg: float = 8.0,
               focus: list[list[Box]] | None = None, tag: str = "real") -> int:
    """Cut ``per_photo`` augmented tiles of each photo into ``out`` (``split``), named ``<tag>_<photo>_t<k>``;
    ``focus``: for each photo, the boxes tiles centre on (else any labelled index); returns how many (a rerun: the
    count its done-marker holds)."""
    img_dir, lab_dir = out / "images" / split, out / "labels" / split
    done = out / f".done_{split}_{tag}"
    if done.exists():
        return int(done.read_text())
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    count = 0
    for n, photo in enumerate(photos):
        image = read_image(photo.path)
        h, w = image.shape[:2]
        boxes = np.array([i.box for i in photo.indices], np.float64).reshape(-1, 4)
        centres = boxes if focus is None else np.array(focus[n], np.float64).reshape(-1, 4)
        for k in range(per_photo):
            s = math.exp(rng.uniform(math.log(scale_range[0]), math.log(scale_range[1])))
            sx = sy = s
            if rng.random() < 0.3:  # undo the square-stored 16:9 frame (or part of it) along one axis
                squeeze = rng.uniform(9 / 16, 0.9)
                if rng.random() < 0.5:
                    sx *= squeeze
                else:
                    sy *= squeeze
            if len(centres) and rng.random() < 0.85:
                b = centres[rng.integers(len(centres))]
                cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
                cx += rng.uniform(-0.4, 0.4) * tile / sx
                cy += rng.uniform(-0.4, 0.4) * tile / sy
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            a = math.radians(90 * int(rng.integers(4)) + rng.uniform(-max_deg, max_deg))
            cos, sin = math.cos(a), math.sin(a)
            # image -> tile: centre (cx, cy) to the tile's centre, scaled by (sx, sy), then turned by a
            lin = np.array([[cos, -sin], [sin, cos]]) @ np.diag([sx, sy])
            m = np.hstack([lin, (np.array([tile / 2, tile / 2]) - lin @ np.array([cx, cy]))[:, None]])
            interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
            crop = cv2.warpAffine(image, m, (tile, tile), flags=interp, borderMode=cv2.BORDER_CONSTANT,
                                  borderValue=(114, 114, 114))
            if rng.random() < 0.25:
                crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.5, 1.3))
            lines = [line for b in boxes if (line := tile_label(_turned_box(b, m), tile)) is not None]
            name = f"{tag}_{photo.path.stem}_t{k}"
            quality = int(rng.integers(55, 95))
            cv2.imwrite(str(img_dir / f"{name}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
            (lab_dir / f"{name}.txt").write_text("".join(x + "\n" for x in lines))
            count += 1
    done.write_text(str(count))
    return count


__all__ = ["real_tiles"]
