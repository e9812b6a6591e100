"""Whether an index's ink is plainly black: then it is no heart or diamond, however little of its suit shows.

A reader that sees only a strip of an index (the next card of a tight row over its right side) can take a spade's
for a diamond's; the ink's colour says otherwise however much of the mark shows. Measured against the index's own
paper (white balance), so a warm or cold light does not tint it, and in the middle of the box only: the box of a
turned card holds the table in its corners. Red is not told the same way: a dim webcam's red ink is barely redder
than its black (its median red excess over green and blue 0.09 of the paper's, against 0.2-0.5 on the synthetic
tables), and a wooden table or a brown mark reads as red as that. Four-colour decks' blue diamonds and green clubs
are not neutral, so they are never called black.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .types import Box

CENTRE = 0.6          # the middle of the box looked at: this share of its width and of its height
INK_DEPTH = 0.35      # a pixel is ink when at least this share of the way from the paper's grey to the darkest
MIN_INK_PX = 12       # fewer ink pixels than this tell nothing
MIN_CONTRAST = 0.25   # the darkest ink at least this much darker than the paper (a share of the paper's grey)
MIN_PAPER = 40.0      # a paper darker than this in any channel (BGR 0..255) gives no white balance
RED_EXCESS = 0.005    # black: the ink pixels' median red excess over the higher of green and blue at most this,
#                       as a share of the paper's ...
RED_PIXEL = 0.06      # ... no more than RED_STRAY of them this much redder
RED_STRAY = 0.05
NEUTRAL = 0.06        # ... and their median largest channel's distance from their grey at most this (not blue,
#                       not green)


def plainly_black(image: npt.NDArray[np.uint8], box: Box) -> bool:
    """Whether the ink in the middle of ``box`` of the BGR ``image`` is plainly black (neutral, dark)."""
    h, w = image.shape[:2]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    hw, hh = (box[2] - box[0]) * CENTRE / 2, (box[3] - box[1]) * CENTRE / 2
    x0, y0 = max(0, int(cx - hw)), max(0, int(cy - hh))
    x1, y1 = min(w, int(np.ceil(cx + hw))), min(h, int(np.ceil(cy + hh)))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    crop = image[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    grey = crop.mean(axis=1)
    paper = crop[grey >= np.percentile(grey, 90)].mean(axis=0)
    if float(paper.min()) < MIN_PAPER:
        return False
    rel = crop / paper                                   # white balanced: the paper reads 1, 1, 1
    g = rel.mean(axis=1)
    darkest = float(np.percentile(g, 2))
    if 1.0 - darkest < MIN_CONTRAST:
        return False
    ink = g <= 1.0 - INK_DEPTH * (1.0 - darkest)
    if int(ink.sum()) < MIN_INK_PX:
        return False
    b, gr, r = rel[ink, 0], rel[ink, 1], rel[ink, 2]
    excess = r - np.maximum(b, gr)
    off_grey = np.abs(rel[ink] - g[ink][:, None]).max(axis=1)
    return bool(float(np.median(excess)) <= RED_EXCESS and float((excess >= RED_PIXEL).mean()) <= RED_STRAY
                and float(np.median(off_grey)) <= NEUTRAL)
