"""How a photo looks, measured: its indices' size, blur and contrast, its noise, its JPEG quality.

Used by ``benchmarks/camera_look.py`` to compare the generator's camera look (``datasets.effects``) with real photos,
and by the tests of ``datasets.synth --look real``.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

# libjpeg's luminance table at quality 50 (ITU-T T.81 K.1), in zig-zag order as a JPEG file stores it
_STD_LUMA = np.array([16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35,
                      37, 29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109,
                      81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99], float)


def jpeg_quality(data: bytes) -> float | None:
    """The quality (1-100) of a JPEG file's first quantisation table, as libjpeg scales it; None if not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDB:
            precision = data[i + 4] >> 4
            n = 128 if precision else 64
            raw = data[i + 5:i + 5 + n]
            table = (np.frombuffer(raw, ">u2") if precision else np.frombuffer(raw, np.uint8)).astype(float)
            scale = float(np.mean(table * 100 / _STD_LUMA))
            return max(1.0, min(100.0, (200 - scale) / 2 if scale <= 100 else 5000 / scale))
        if marker == 0xDA:
            return None
        i += 2 + length
    return None


def noise_sigma(grey: NDArray[Any]) -> float:
    """Immerkaer (1996): the noise's sigma from a Laplacian-difference mask over the whole grey image."""
    mask = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    h, w = grey.shape
    conv = cv2.filter2D(grey.astype(np.float32), -1, mask)[1:-1, 1:-1]
    return float(math.sqrt(math.pi / 2) * np.abs(conv).sum() / (6 * (w - 2) * (h - 2)))


def index_look(grey: NDArray[Any], box: tuple[float, float, float, float]) -> dict[str, float] | None:
    """Height, edge width and contrast of the index in ``box`` (None when it is too small to measure)."""
    x1, y1, x2, y2 = (round(v) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(grey.shape[1], x2), min(grey.shape[0], y2)
    if x2 - x1 < 4 or y2 - y1 < 4:
        return None
    patch = grey[y1:y2, x1:x2].astype(np.float32)
    lo, hi = np.percentile(patch, (2, 98))
    contrast = float(hi - lo)
    if contrast < 20:
        return None
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8
    g = float(np.percentile(np.hypot(gx, gy)[1:-1, 1:-1], 99))
    height = float(max(box[2] - box[0], box[3] - box[1]))
    edge = contrast / max(g, 1e-6)
    # along y only: a photo squashed along x (a 16:9 webcam frame stored square) sharpens its x edges, not these
    edge_y = contrast / max(float(np.percentile(np.abs(gy)[1:-1, 1:-1], 99)), 1e-6)
    return {"height": height, "edge": edge, "edge/h": edge / height, "edge_y/h": edge_y / height,
            "contrast": contrast}
