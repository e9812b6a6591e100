"""A large index is read from all of its pixels: ``crop_square`` shrinks the part a crop covers by area averaging
before the affine warp (``cv2.warpAffine`` samples bilinearly whatever interpolation flag it is given)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import tiles
from vision.tiles import CROP_SIZE, crop_square


def _fine_stripes(size: int = 1200) -> np.ndarray:
    """Vertical black and white stripes one pixel wide: a crop that samples every few pixels reads them as
    whole black or white columns; one that averages them reads an even grey."""
    img = np.zeros((size, size, 3), np.uint8)
    img[:, ::2] = 255
    return img


def test_a_large_box_is_averaged_not_sampled() -> None:
    img = _fine_stripes()
    crop = crop_square(img, (300.0, 300.0, 700.0, 700.0)).astype(np.float64)   # ~0.12 crop px per image px
    assert abs(crop.mean() - 127.5) < 3
    assert crop.std() < 10   # bilinear sampling alone: std ~75 (columns of near black or white)


def test_the_shrunk_crop_lies_where_the_plain_one_does() -> None:
    """On a smooth image both ways give the same crop, turned, widened or at the photo's edge."""
    img = np.zeros((2000, 2000, 3), np.uint8)
    cv2.putText(img, "4", (800, 1200), cv2.FONT_HERSHEY_SIMPLEX, 12, (255, 255, 255), 20)
    cv2.circle(img, (60, 80), 60, (0, 200, 255), -1)
    img = cv2.GaussianBlur(img, (0, 0), 12)
    cases = [((780.0, 850.0, 1100.0, 1230.0), 0.0, (1.0, 1.0)), ((780.0, 850.0, 1100.0, 1230.0), 25.0, (1.0, 1.0)),
             ((780.0, 850.0, 1100.0, 1230.0), 0.0, (1.33, 1.0)), ((0.0, 0.0, 300.0, 280.0), 0.0, (1.0, 1.0))]
    for box, turn, stretch in cases:
        shrunk = crop_square(img, box, turn=turn, stretch=stretch).astype(int)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(tiles, "SHRINK_FIRST_BELOW", 0.0)
            plain = crop_square(img, box, turn=turn, stretch=stretch).astype(int)
        assert shrunk.shape == (CROP_SIZE, CROP_SIZE, 3)
        assert np.abs(shrunk - plain).mean() < 1.5, (box, turn, stretch)


def test_boxes_a_crop_enlarges_are_cropped_as_before() -> None:
    """Where a crop does not shrink the photo (``SHRINK_FIRST_BELOW``: indices up to ~49 px, most of the training
    scenes'), the crop is the plain warp's, pixel for pixel."""
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (400, 400, 3), dtype=np.uint8)
    for box in [(100.0, 100.0, 120.0, 130.0), (50.0, 60.0, 80.0, 105.0)]:
        shrunk = crop_square(img, box)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(tiles, "SHRINK_FIRST_BELOW", 0.0)
            plain = crop_square(img, box)
        assert np.array_equal(shrunk, plain)
