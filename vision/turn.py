"""How far the card around an index lies turned from the photo's axes, from its edges.

A fan's cards, and a whole hand on a phone photo held at an angle, lie turned between quarter turns; the readers
read an index in its four quarter turns and were trained on turns up to 30 degrees. A card's edges (against the
table and against the cards it covers) are long straight lines in two directions a quarter turn apart, and the ink
of its index mostly runs along them too. So the gradient directions around an index, taken four times over (an
edge at 0, 90, 180 or 270 degrees counts alike) and weighed by their strength, point at the card's turn within a
quarter turn: ``card_turn``. Measured against the ground truth of the 60 phone-held validation tables
(``datasets.synth --n 60 --seed 82 --split val --held --bent 0.6 --size 1600-4000``: 2,229 visible indices, turned
10.5 degrees at the median and 25 at the 90th percentile), the three neighbourhoods agree on 85 % of them, and there
the estimate is off 3.4 degrees at the median, 9.9 at the 90th percentile; of the 729 it puts at 12 degrees or more,
28 are off by more than 15 (the 120 validation tables: 1,723 and 107).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from .types import Box

WINDOWS = (5.0, 3.0, 2.0)  # the neighbourhoods read: these many times the index box's long side, about its centre;
#                            a turn is told only where all three agree (AGREE): a textured table (wood planks) or a
#                            neighbouring hand at another angle sways the largest, the index's own ink the smallest
AGREE = 8.0                # degrees
WINDOW_PX = 96             # the largest neighbourhood shrunk to at most this many pixels first (as sure as the full
#                            resolution, 15 x sooner)


def fold_turn(degrees: float) -> float:
    """``degrees`` as a turn within a quarter turn either way (-45..45): a card looks alike a quarter turn round."""
    return (degrees + 45.0) % 90.0 - 45.0


def card_turn(image: npt.NDArray[np.uint8], box: Box, stretch: tuple[float, float] = (1.0, 1.0)) -> float:
    """The turn (degrees, -45..45) that brings the card around ``box`` (x1, y1, x2, y2 of ``image``) onto the
    photo's axes, as ``cv2.getRotationMatrix2D`` counts an angle; ``stretch`` = (sx, sy): measured in the photo
    widened that many times (``vision.stretch``). 0 where the neighbourhoods disagree, or are too small or flat
    to tell."""
    sx, sy = stretch
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half = WINDOWS[0] * max((x2 - x1) * sx, (y2 - y1) * sy) / 2
    h, w = image.shape[:2]
    a, b = max(int(cx - half / sx), 0), max(int(cy - half / sy), 0)
    c, d = min(int(cx + half / sx) + 1, w), min(int(cy + half / sy) + 1, h)
    if c - a < 4 or d - b < 4:
        return 0.0
    f = min(1.0, WINDOW_PX / max((c - a) * sx, (d - b) * sy))
    patch = image[b:d, a:c]
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    small = cv2.resize(gray, None, fx=f * sx, fy=f * sy, interpolation=cv2.INTER_AREA).astype(np.float32)
    if min(small.shape) < 4:
        return 0.0
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3)
    votes = np.hypot(gx, gy) * np.exp(4j * np.arctan2(gy, gx))
    # the box's centre and half-side in the small patch's pixels
    scx, scy, shalf = (cx - a) * sx * f, (cy - b) * sy * f, half * f
    turns = []
    for k in WINDOWS:
        r = shalf * k / WINDOWS[0]
        z = complex(votes[max(int(scy - r), 0):int(scy + r) + 1, max(int(scx - r), 0):int(scx + r) + 1].sum())
        if abs(z) < 1e-6:
            return 0.0
        turns.append(float(np.degrees(np.angle(z)) / 4))
    if any(abs(fold_turn(t - turns[0])) >= AGREE for t in turns[1:]):
        return 0.0
    return turns[0]
