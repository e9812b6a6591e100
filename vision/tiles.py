"""Geometry shared by training and inference: tiles, index crops, orientation.

Everything here is numpy + OpenCV only (the runtime never imports torch).

Conventions
-----------
* An *index* is a card's rank+suit corner mark. Its *glyph up* angle is the direction
  (degrees, image coordinates: 0 = up the image, 90 = right) that the top of the
  rank character faces.
* A *crop* of an index is a square, axis-aligned in the image, centred on the index's
  axis-aligned box, side ``CROP_MARGIN * max(w, h)``, resized to ``CROP_SIZE``.
  The classifier is trained on crops turned by the multiple of 90 degrees nearest to
  upright (``np.rot90(crop, k)`` with ``k = upright_turns(angle)``), so up to 45
  degrees of residual rotation remain; at inference each crop is tried in all four
  turns and the best-scoring turn gives the identity and (to within 45 deg) the glyph up.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import cv2
import numpy as np
import numpy.typing as npt

CROP_SIZE = 64
CROP_MARGIN = 1.3
SHRINK_FIRST_BELOW = 1.0  # crop px per image px under which the covered part is area-shrunk first (any shrink)
BG_CLASS = "zz_bg"  # the classifier's reject class (background, backs, chips, card art)

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]


def glyph_up_from_quad(quad: Sequence[Sequence[float]], corner: str) -> float:
    """Glyph-up angle of an index from its ground-truth quad (datasets' truth JSON).

    The quad's points are the index box's corners in the upright card's frame
    (top-left, top-right, bottom-right, bottom-left), for both corners, so
    ``quad[0] - quad[3]`` points to the card's top; the bottom-right index is
    printed upside down, so its glyph faces the other way.
    """
    q = np.asarray(quad, dtype=np.float64)
    u = q[0] - q[3]
    if corner == "bottom_right":
        u = -u
    return angle_of(float(u[0]), float(u[1]))


def angle_of(dx: float, dy: float) -> float:
    """Direction of the image vector (dx, dy) as degrees: 0 = up, 90 = right."""
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def unit_of(angle: float) -> tuple[float, float]:
    """Image-space unit vector pointing in direction ``angle`` (0 = up, 90 = right)."""
    a = math.radians(angle)
    return (math.sin(a), -math.cos(a))


def upright_turns(angle: float) -> int:
    """``k`` such that ``np.rot90(crop, k)`` brings a glyph facing ``angle`` nearest upright."""
    return round(angle / 90.0) % 4


def crop_square(image: Image, box: Box, margin: float = CROP_MARGIN, size: int = CROP_SIZE,
                jitter: tuple[float, float, float] = (0.0, 0.0, 1.0),
                stretch: tuple[float, float] = (1.0, 1.0), turn: float = 0.0) -> Image:
    """The square crop around ``box`` (x1, y1, x2, y2), resized to ``size``; border replicated.

    ``jitter`` = (dx, dy, scale) in units of the crop side (training augmentation). ``stretch`` = (sx, sy):
    the crop of the image widened that many times along x and y (``vision.stretch``), without
    resampling the whole image. ``turn`` (degrees, as ``cv2.getRotationMatrix2D`` counts them): the crop's
    content turned that much about its centre (``vision.turn.card_turn``: a turned card's index read upright).
    """
    sx, sy = stretch
    x1, y1, x2, y2 = box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy
    side = max(x2 - x1, y2 - y1, 2.0) * margin * jitter[2]
    cx = (x1 + x2) / 2 + jitter[0] * side
    cy = (y1 + y2) / 2 + jitter[1] * side
    s = size / side
    # affine: image -> crop, maps (cx - side/2, cy - side/2) of the stretched image to (0, 0)
    m = np.array([[s * sx, 0, -s * (cx - side / 2)], [0, s * sy, -s * (cy - side / 2)]], dtype=np.float64)
    if turn:  # the widened image, moved to the crop's centre, turned and scaled there
        r = cv2.getRotationMatrix2D((0.0, 0.0), turn, s)
        m = r @ np.array([[sx, 0, -cx], [0, sy, -cy], [0, 0, 1.0]])
        m[:, 2] += size / 2
    m, part = _shrunk_first(image, m, size)
    return np.asarray(cv2.warpAffine(image if part is None else part, m, (size, size), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def _shrunk_first(image: Image, m: npt.NDArray[np.float64], size: int) -> tuple[npt.NDArray[np.float64], Image | None]:
    """The affine ``m`` (image -> crop) and the image it is to be applied to: where the crop shrinks the image below
    ``SHRINK_FIRST_BELOW`` along an axis, the part of the image it covers, shrunk first by area averaging
    (``cv2.warpAffine`` samples bilinearly whatever flag it is given, so a large index read at ``CROP_SIZE`` would
    be read from every few pixels of its strokes), and ``m`` for that part; else ``m`` and None."""
    fx, fy = float(np.hypot(m[0, 0], m[1, 0])), float(np.hypot(m[0, 1], m[1, 1]))  # crop px per image px
    if min(fx, fy) >= SHRINK_FIRST_BELOW:
        return m, None
    inv = cv2.invertAffineTransform(m)
    corners = np.array([[0, 0, 1], [size, 0, 1], [0, size, 1], [size, size, 1]], np.float64) @ inv.T
    h, w = image.shape[:2]
    pad = 2.0 / min(fx, fy)
    x0, y0 = max(0, math.floor(corners[:, 0].min() - pad)), max(0, math.floor(corners[:, 1].min() - pad))
    x1, y1 = min(w, math.ceil(corners[:, 0].max() + pad)), min(h, math.ceil(corners[:, 1].max() + pad))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return m, None
    gx, gy = min(1.0, fx), min(1.0, fy)
    nw, nh = max(1, round((x1 - x0) * gx)), max(1, round((y1 - y0) * gy))
    part = cv2.resize(image[y0:y1, x0:x1], (nw, nh), interpolation=cv2.INTER_AREA)
    gx, gy = nw / (x1 - x0), nh / (y1 - y0)
    # crop <- image: m; image <- part: x = x0 + (x' + 0.5) / gx - 0.5 (pixel centres, as cv2.resize maps them)
    back = np.array([[1 / gx, 0, x0 + 0.5 / gx - 0.5], [0, 1 / gy, y0 + 0.5 / gy - 0.5], [0, 0, 1]], np.float64)
    return m @ back, np.asarray(part, np.uint8)


def tile_origins(length: int, tile: int, overlap: int) -> list[int]:
    """Start offsets of tiles of ``tile`` px covering ``length`` px with at least ``overlap`` px shared."""
    if length <= tile:
        return [0]
    n = math.ceil((length - overlap) / (tile - overlap))
    step = (length - tile) / (n - 1)
    return [round(i * step) for i in range(n)]


def tiles(width: int, height: int, tile: int, overlap: int) -> Iterator[tuple[int, int]]:
    for y in tile_origins(height, tile, overlap):
        for x in tile_origins(width, tile, overlap):
            yield x, y


def nms(boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32], iou: float) -> list[int]:
    """Indices kept by greedy non-maximum suppression (boxes x1, y1, x2, y2)."""
    if len(boxes) == 0:
        return []
    keep = cv2.dnn.NMSBoxes([[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes],
                            [float(s) for s in scores], 0.0, iou)
    return [int(i) for i in np.asarray(keep).reshape(-1)]


# Card geometry in an index's glyph frame, in units of the index box's long side
# (the rank+suit mark's height). Measured on the training decks by
# measuring the truth JSON of 80 training scenes (tilt <= 10 deg); see models/MODEL_CARD.md.
CARD_GEOMETRY: dict[str, float] = {
    "w": 3.07,       # card width (median over the training decks; 10-90%: 2.64-3.64)
    "h": 4.59,       # card height (3.69-5.35)
    "cx": 0.30,      # index centre, from the card's left edge (glyph frame)
    "cy": 0.63,      # index centre, from the card's top edge (glyph frame)
}


def outline_from_index(box: Box, glyph_up: float, geometry: dict[str, float] | None = None,
                       ) -> tuple[tuple[float, float], ...]:
    """Estimate a card's four corners from one index (its box and glyph-up angle).

    Both indices of a card look the same in their own glyph frame (the card extends
    to the glyph's right and down), so one index is enough for an outline estimate.
    Corners are returned in the glyph frame's order: top-left, top-right, bottom-right,
    bottom-left.
    """
    g = geometry or CARD_GEOMETRY
    x1, y1, x2, y2 = box
    # the index's height: its box's long side (rank above suit: taller than wide in any turn)
    unit = max(y2 - y1, x2 - x1, 1.0)
    ux, uy = unit_of(glyph_up)          # up
    rx, ry = -uy, ux                    # right (up turned clockwise)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    ox = cx - rx * g["cx"] * unit + ux * g["cy"] * unit  # card top-left corner
    oy = cy - ry * g["cx"] * unit + uy * g["cy"] * unit
    W, H = g["w"] * unit, g["h"] * unit
    tl = (ox, oy)
    tr = (ox + rx * W, oy + ry * W)
    br = (ox + rx * W - ux * H, oy + ry * W - uy * H)
    bl = (ox - ux * H, oy - uy * H)
    return (tl, tr, br, bl)
