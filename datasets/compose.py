"""Paste flat sprites (cards, chips, ...) into the image through their homographies.

Each sprite is warped only into its own bounding box, alpha-blended over what
is there, with a soft contact shadow first; ``idmap`` remembers which object
is on top at every pixel, so index visibility can be measured afterwards.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from .camera import project

Image = NDArray[Any]
Mat = NDArray[np.float64]
OCCLUDER = -2   # idmap value of distractors
EMPTY = -1

_MIPS: OrderedDict[tuple[object, int], Image] = OrderedDict()
_MIP_CAP = 600


def mip(key: object, sprite: Image, level: int) -> Image:
    """``sprite`` halved ``level`` times, cached by ``key`` (deterministic, per process)."""
    if level == 0:
        return sprite
    cached = _MIPS.get((key, level))
    if cached is not None:
        _MIPS.move_to_end((key, level))
        return cached
    out = cv2.pyrDown(np.ascontiguousarray(mip(key, sprite, level - 1)))
    _MIPS[(key, level)] = out
    if len(_MIPS) > _MIP_CAP:
        _MIPS.popitem(last=False)
    return out


@dataclass
class Canvas:
    image: NDArray[Any]     # (H, W, 3) BGR, 0..255
    idmap: NDArray[np.int16]       # top object id per pixel

    @classmethod
    def from_background(cls, bg: Image) -> Canvas:
        return cls(image=bg.astype(np.float32), idmap=np.full(bg.shape[:2], EMPTY, np.int16))

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]


def sprite_corners(sprite: Image) -> NDArray[np.float64]:
    h, w = sprite.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def paste(canvas: Canvas, sprite: Image, h_img: Mat, obj_id: int, key: object = None,
          shadow: tuple[float, float, float, float] | None = None, gain: float = 1.0,
          pyramid: Sequence[Image] = ()) -> bool:
    """Warp ``sprite`` (BGRA) with ``h_img`` (sprite px -> image px) onto the canvas.

    ``shadow`` = (dx, dy, blur sigma, strength) in image pixels; ``pyramid`` = the sprite
    pre-halved (level 0 = ``sprite``), else halved here and cached by ``key``.
    Returns False if off-image.
    """
    W, H = canvas.size
    quad = project(h_img, sprite_corners(sprite))
    margin = 0.0 if shadow is None else abs(shadow[0]) + abs(shadow[1]) + 3 * shadow[2]
    x0 = max(0, int(np.floor(quad[:, 0].min() - margin)))
    y0 = max(0, int(np.floor(quad[:, 1].min() - margin)))
    x1 = min(W, int(np.ceil(quad[:, 0].max() + margin)) + 1)
    y1 = min(H, int(np.ceil(quad[:, 1].max() + margin)) + 1)
    if x1 <= x0 or y1 <= y0:
        return False
    # choose a pre-shrunk copy so the warp does not alias
    sw = sprite.shape[1]
    scale = float(np.linalg.norm(quad[1] - quad[0]) / sw)
    level = 0
    while scale * (2 ** level) < 0.55 and sw >> (level + 1) >= 16:
        level += 1
    if level < len(pyramid):
        src = pyramid[level]
    elif key is not None:
        src = mip(key, sprite, level)
    else:
        src = sprite
        for _ in range(level):
            src = cv2.pyrDown(np.ascontiguousarray(src))
    f = 2.0 ** level
    h_src = h_img @ np.diag([f, f, 1.0])
    to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    warped = cv2.warpPerspective(np.ascontiguousarray(src), to_roi @ h_src, (x1 - x0, y1 - y0),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3].astype(np.float32) * (1 / 255)
    roi = canvas.image[y0:y1, x0:x1]
    keep = 1 - alpha
    if shadow is not None:
        dx, dy, sigma, strength = shadow
        m = np.array([[1, 0, dx], [0, 1, dy]], dtype=np.float64)
        sh = cv2.warpAffine(alpha, m, (alpha.shape[1], alpha.shape[0]))
        if sigma > 0.3:
            sh = cv2.GaussianBlur(sh, (0, 0), sigma)
        keep *= 1 - strength * sh
    roi *= cv2.merge([keep, keep, keep])
    if gain != 1.0:
        alpha *= gain
    roi += warped[:, :, :3].astype(np.float32) * cv2.merge([alpha, alpha, alpha])
    canvas.idmap[y0:y1, x0:x1][warped[:, :, 3] > 127] = obj_id
    return True


def _polygon_pixels(canvas: Canvas, quad: NDArray[np.float64]) -> tuple[NDArray[np.bool_], int, int, int] | None:
    """The polygon's pixels in the image (a mask over its in-image box, and that box's origin x, y) and how many
    pixels it covers in all, in the image or not; None when no part of its box is in the image."""
    W, H = canvas.size
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if cx1 <= cx0 or cy1 <= cy0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((quad - (x0, y0)) * 4).astype(np.int32), 1, shift=2)
    return mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] > 0, int(cx0), int(cy0), int(mask.sum())


def _on_top(canvas: Canvas, inside: NDArray[np.bool_], x0: int, y0: int, obj_id: int) -> NDArray[np.bool_]:
    h, w = inside.shape
    top: NDArray[np.bool_] = inside & (canvas.idmap[y0:y0 + h, x0:x0 + w] == obj_id)
    return top


def shown_box(canvas: Canvas, quad: NDArray[np.float64], obj_id: int) -> list[float] | None:
    """The box (x1, y1, x2, y2) of the pixels of the polygon where ``obj_id`` is on top (None: none):
    what a photo shows of a partly covered index."""
    pixels = _polygon_pixels(canvas, quad)
    if pixels is None:
        return None
    inside, x0, y0, _total = pixels
    ys, xs = np.nonzero(_on_top(canvas, inside, x0, y0, obj_id))
    if len(xs) == 0:
        return None
    return [float(x0 + xs.min()), float(y0 + ys.min()), float(x0 + xs.max() + 1), float(y0 + ys.max() + 1)]


def polygon_visibility(canvas: Canvas, quad: NDArray[np.float64], obj_id: int) -> tuple[float, float]:
    """(share of the polygon inside the image, share of its in-image pixels where ``obj_id`` is on top)."""
    pixels = _polygon_pixels(canvas, quad)
    if pixels is None:
        return 0.0, 0.0
    inside, x0, y0, total = pixels
    n_in = int(inside.sum())
    if total == 0 or n_in == 0:
        return 0.0, 0.0
    return n_in / total, float(_on_top(canvas, inside, x0, y0, obj_id).sum()) / n_in
