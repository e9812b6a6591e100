"""Photos stretched out of their camera's shape, and reading them in it.

A camera's frame is 4:3 or 16:9. Datasets, webcam tools and some apps resize a frame to a square
(640 x 640) without cropping: every card is then squashed along one axis, the glyphs with it, and a
club reads as a spade. Nothing in the file says so, but the indices do: a square photo's surest
indices are read again as if the photo were widened to 4:3 or 16:9 along x and along y; a photo in its
own shape reads about alike either way, a squashed one clearly better widened along the axis it was
squashed on (``choose_stretch``). The cards are then found and read in the un-stretched photo and their
places mapped back to the photo's own pixels (``Stretch.to_photo``). An index still unsure there is also
read in the other frame (``Stretch.other_frame``: 16:9 <-> 4:3), since a choice of frame made on the surest
indices may be wrong for a few glyphs. Photos that are not square are read as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from .types import Box, CardDetection, Detections, Point

# how far from square (width / height) a photo may be and still be a candidate for un-stretching
SQUARE_TOLERANCE = 0.03
# the frames a square photo may have been stretched from: widen it by these along x or y
FACTORS = (4 / 3, 16 / 9)
SAMPLE = 24         # the indices read again (the stage-1 surest), at most
MIN_INDICES = 6     # fewer found indices than this: too little to judge, the photo stays as it is
# 16:9 along one axis must read this much surer on average than 16:9 along the other. Chosen on the
# cardcounter train and val photos (640 x 640 webcam frames squashed from 16:9: 0.17 to 0.48 apart) against
# photos in their own shape, read as if they were square (120 synthetic validation tables: 0.24 at most, 2
# over 0.2; edje photos with 6 or more indices: 0.24 at most, 95 % under 0.13)
ASYMMETRY = 0.2

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class Stretch:
    """Widen a photo ``sx`` times along x and ``sy`` times along y (1, 1: leave it)."""

    sx: float = 1.0
    sy: float = 1.0

    @property
    def identity(self) -> bool:
        return self.sx == 1.0 and self.sy == 1.0

    def apply(self, image: Image) -> Image:
        if self.identity:
            return image
        h, w = image.shape[:2]
        size = (round(w * self.sx), round(h * self.sy))
        return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_CUBIC), np.uint8)

    def other_frame(self) -> Stretch | None:
        """The photo as widened by this stretch, widened again to the other camera frame along the same axis
        (4:3 <-> 16:9), as a stretch of the widened photo: ``None`` for a photo read as it is, or for a
        stretch by a factor not in ``FACTORS``."""
        axis_x = self.sx != 1.0
        f = self.sx if axis_x else self.sy
        if self.identity or f not in FACTORS:
            return None
        g = next(v for v in FACTORS if v != f)
        return Stretch(g / f, 1.0) if axis_x else Stretch(1.0, g / f)

    def box_to(self, box: Box) -> Box:
        """A box of the photo in the stretched photo's pixels."""
        return (box[0] * self.sx, box[1] * self.sy, box[2] * self.sx, box[3] * self.sy)

    def _point(self, p: Point) -> Point:
        return (p[0] / self.sx, p[1] / self.sy)

    def box_from(self, b: Box) -> Box:
        """A box of the stretched photo in the photo's own pixels (``box_to`` undone)."""
        return (b[0] / self.sx, b[1] / self.sy, b[2] / self.sx, b[3] / self.sy)

    def _up(self, up: float) -> float:
        """A direction (degrees, 0 = up the image, 90 = right) in the stretched photo, in the photo."""
        dx, dy = math.sin(math.radians(up)) / self.sx, -math.cos(math.radians(up)) / self.sy
        return math.degrees(math.atan2(dx, -dy)) % 360.0

    def card_to_photo(self, card: CardDetection) -> CardDetection:
        outline = card.outline
        return replace(
            card, box=self.box_from(card.box), index_boxes=tuple(self.box_from(b) for b in card.index_boxes),
            outline=None if outline is None else (self._point(outline[0]), self._point(outline[1]),
                                                  self._point(outline[2]), self._point(outline[3])),
            up=None if card.up is None else self._up(card.up))

    def to_photo(self, found: Detections, width: int, height: int) -> Detections:
        """Detections made in the stretched photo, in the photo's own pixels (``width`` x ``height``)."""
        if self.identity:
            return found
        return replace(found, width=width, height=height, cards=tuple(self.card_to_photo(c) for c in found.cards),
                       unread=tuple(self.box_from(b) for b in found.unread), widened=(self.sx, self.sy),
                       faint=tuple(self.card_to_photo(c) for c in found.faint))


def candidates(width: int, height: int) -> list[Stretch]:
    """The stretches worth trying on a photo of this size: none unless it is square."""
    if abs(width / max(height, 1) - 1.0) > SQUARE_TOLERANCE:
        return []
    return [s for f in FACTORS for s in (Stretch(f, 1.0), Stretch(1.0, f))]


def choose_stretch(sureness: Callable[[Stretch], float], width: int, height: int, found: int) -> Stretch:
    """The stretch a photo of ``width`` x ``height`` with ``found`` sampled indices is read in.

    ``sureness(s)``: the reader's mean best probability over the sampled indices read in the photo
    stretched by ``s``. Un-stretched when square, with at least ``MIN_INDICES`` indices, and the widest
    stretch along one axis at least ``ASYMMETRY`` surer than along the other: then by that axis's surest
    factor, the reader's own preference between 4:3 and 16:9. On the cardcounter val and train photos this
    read 0.981 and 0.979 of the cards; always 16:9 read 0.971 and 0.973, and asking the stretch to read
    surer than the photo as it is too (it keeps 10 of the 86 squashed photos as they are) 0.971 and 0.976.
    """
    options = candidates(width, height)
    if not options or found < MIN_INDICES:
        return Stretch()
    score = {s: sureness(s) for s in options}
    widest = max(FACTORS)
    lean = score[Stretch(widest, 1.0)] - score[Stretch(1.0, widest)]
    if abs(lean) < ASYMMETRY:
        return Stretch()
    return max((s for s in options if (s.sx > 1.0) == (lean > 0)), key=lambda s: score[s])
