"""Salt-and-pepper specks: single pixels far brighter or darker than everything around them.

Some photos come sprinkled with them: a dataset export's "noise" augmentation, a webcam's hot and dead
pixels, bit errors in a stream. A reader crop enlarged from a small index turns a dark speck beside a club's
lobes into a spade's point and a light one inside a glyph into a gap: on the cardcounter webcam photos 19 of
the 22 cards the readers missed lay in the 39 photos (of 86) over the share below. A speck is a pixel whose
grey lies more than ``SPECK_CONTRAST`` above the brightest or below the darkest of its eight neighbours (a
stroke one pixel wide has neighbours along it as dark as itself, and is no speck). A photo with more than
``SPECKLED_SHARE`` of its pixels specks is read through a 3 x 3 median filter (``without_specks``), which
takes the specks out together with most of the ringing JPEG leaves around them; a photo with fewer, like
every phone photo measured (edje: 3.4 in 10,000 at most), is read as it is.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

SPECK_CONTRAST = 60      # grey levels past every one of the eight neighbours
SPECKLED_SHARE = 5e-4    # specks per pixel over which a photo is median-filtered
_RING = np.ones((3, 3), np.uint8)
_RING[1, 1] = 0          # the eight neighbours, not the pixel itself


def speck_share(image: Image) -> float:
    """The share of ``image``'s pixels (grey or BGR) that are specks."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    past = cv2.max(cv2.subtract(grey, cv2.dilate(grey, _RING)), cv2.subtract(cv2.erode(grey, _RING), grey))
    _, hot = cv2.threshold(past, SPECK_CONTRAST, 255, cv2.THRESH_BINARY)
    return cv2.countNonZero(hot) / max(1, grey.size)


def without_specks(image: Image, share: float = SPECKLED_SHARE) -> Image:
    """``image`` through a 3 x 3 median filter when more than ``share`` of its pixels are specks, else
    ``image`` itself (the photo passed in is never changed)."""
    if speck_share(image) <= share:
        return image
    return np.asarray(cv2.medianBlur(image, 3), np.uint8)
