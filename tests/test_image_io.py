"""Reading photos: EXIF orientation is honoured, and every bad file gets one clear error."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from referee.errors import InputError
from vision.image_io import read_image


def jpeg(image: Image.Image, **kw: object) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "JPEG", **kw)
    return buf.getvalue()


def test_exif_orientation_is_applied() -> None:
    # A 40 x 20 picture, left half red, stored sideways with "rotate 90° CW to view" (orientation 6).
    upright = Image.new("RGB", (40, 20), (0, 0, 255))
    upright.paste((255, 0, 0), (0, 0, 20, 20))
    stored = upright.transpose(Image.Transpose.ROTATE_90)  # what a sideways phone writes
    exif = Image.Exif()
    exif[0x0112] = 6
    image = read_image(jpeg(stored, exif=exif.tobytes(), quality=95))
    assert image.shape == (20, 40, 3)
    assert image[10, 5, 2] > 200 and image[10, 35, 0] > 200  # BGR: red on the left, blue on the right


def test_png_and_webp_read() -> None:
    for fmt in ("PNG", "WEBP"):
        buf = io.BytesIO()
        Image.new("RGB", (8, 6), (10, 20, 30)).save(buf, fmt, lossless=True)
        image = read_image(buf.getvalue())
        assert image.shape == (6, 8, 3) and tuple(image[0, 0]) == (30, 20, 10)


def big_png(width: int, height: int) -> bytes:
    buf = io.BytesIO()
    Image.new("1", (width, height)).save(buf, "PNG")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "is empty (0 bytes)"),
        (b"this is a text file, not a photo", "is not an image this referee can read"),
        (jpeg(Image.new("RGB", (64, 64)))[:300], "is damaged or truncated"),
        (big_png(20_000, 20_000), "is too large (400 MP); the limit is 50 MP"),
        (big_png(9_000, 7_000), "is 9000 x 7000 px (63 MP); the limit is 50 MP"),
    ],
)
def test_bad_images(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_image(data)


def test_bad_paths(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="image not found"):
        read_image(tmp_path / "missing.jpg")
    with pytest.raises(InputError, match="is a folder"):
        read_image(tmp_path)
    assert read_image(jpeg(Image.new("RGB", (4, 4)))).shape == (4, 4, 3)
