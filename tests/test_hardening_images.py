"""Images: every accepted image decoded to the right pixels, or refused in one line before decoding."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from test_hardening_cli import run_cli

from referee.errors import InputError
from vision.image_io import MAX_ASPECT, MAX_PIXELS, read_image

HERE = Path(__file__).resolve().parent
PHOTOS = HERE / "fixtures" / "photos"
BIG_HEIC = HERE / "fixtures" / "hardening" / "blank-7200x7200.heic"  # 12 kB, 52 MP


def encoded(array: np.ndarray, ext: str) -> bytes:
    ok, data = cv2.imencode(ext, array)
    assert ok
    return data.tobytes()


def test_16_bit_greyscale_png_is_scaled_not_clipped() -> None:
    ramp = (np.arange(64 * 64, dtype=np.uint32).reshape(64, 64) * 16).astype(np.uint16)  # 0 .. 65520
    image = read_image(encoded(ramp, ".png"))
    assert image.dtype == np.uint8 and image.shape == (64, 64, 3)
    expected = np.rint(ramp / 257.0)
    assert np.abs(image[:, :, 0].astype(int) - expected).max() <= 1
    assert image.min() == 0 and image.max() == 255 and len(np.unique(image)) > 200  # not all white


def test_a_real_photo_in_16_bit_grey_reads_as_its_8_bit_grey() -> None:
    photo = next(iter(sorted(PHOTOS.glob("*.jpg"))), None)
    if photo is None:
        pytest.skip("no photo fixtures")
    grey8 = cv2.cvtColor(read_image(photo), cv2.COLOR_BGR2GRAY)
    grey16 = grey8.astype(np.uint16) * 257
    from16 = read_image(encoded(grey16, ".png"))
    assert np.array_equal(from16[:, :, 1], grey8)


def test_float_tiff_is_scaled() -> None:
    ramp = np.linspace(0.0, 1.0, 50 * 40, dtype=np.float32).reshape(40, 50)
    out = io.BytesIO()
    Image.fromarray(ramp, "F").save(out, "TIFF")
    image = read_image(out.getvalue())
    assert image[0, 0, 0] == 0 and image[-1, -1, 0] == 255
    assert abs(int(image[20, 25, 0]) - round(float(ramp[20, 25]) * 255)) <= 1
    # Values outside [0, 1] (a depth map, say): stretched over their own range, never clipped black.
    out = io.BytesIO()
    Image.fromarray(ramp * 4000 - 1000, "F").save(out, "TIFF")
    image = read_image(out.getvalue())
    assert image.min() == 0 and image.max() == 255 and len(np.unique(image)) > 200


def test_a_colour_float_tiff_is_refused_with_a_message() -> None:
    data = encoded(np.zeros((8, 8, 3), np.float32), ".tiff")
    with pytest.raises(InputError, match="not an image this referee can read"):
        read_image(data)


@pytest.mark.parametrize(("width", "height"), [(1, 5000), (5000, 2), (30, 1000)])
def test_strips_are_refused(width: int, height: int) -> None:
    out = io.BytesIO()
    Image.new("RGB", (width, height)).save(out, "PNG")
    with pytest.raises(InputError, match=f"at most {MAX_ASPECT} times as long as it is wide"):
        read_image(out.getvalue())


@pytest.mark.parametrize(("width", "height"), [(1, 5000), (5000, 2)])
def test_strips_are_refused_by_the_command_line(tmp_path: Path, width: int, height: int) -> None:
    path = tmp_path / "strip.png"
    Image.new("RGB", (width, height)).save(path, "PNG")
    for command in ("detect", "photo"):
        code, _, err = run_cli([command, str(path)])
        assert code == 2 and err.count("\n") == 1 and f"{width} x {height} px" in err, err


def test_dev_zero_as_an_image_is_refused() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    start = time.monotonic()
    with pytest.raises(InputError, match="larger than the limit of 80 MB"):
        read_image("/dev/zero")
    assert time.monotonic() - start < 5


def test_a_huge_heic_is_refused_from_its_header() -> None:
    pytest.importorskip("pillow_heif")
    data = BIG_HEIC.read_bytes()
    assert len(data) < 20_000
    start = time.monotonic()
    with pytest.raises(InputError, match=f"7200 x 7200 px \\(52 MP\\); the limit is {MAX_PIXELS // 10**6} MP"):
        read_image(data)
    from app_pages.images import load_photo

    with pytest.raises(InputError, match="7200 x 7200 px"):
        load_photo(data)
    assert time.monotonic() - start < 2  # decoding 52 MP would take seconds and ~200 MB


def _small_heic() -> bytes:
    pillow_heif = pytest.importorskip("pillow_heif")
    out = io.BytesIO()
    pillow_heif.from_pillow(Image.new("RGB", (64, 48), (30, 120, 30))).save(out, quality=70)
    return out.getvalue()


def test_a_truncated_heic_gives_one_line() -> None:
    from app_pages.images import load_photo

    data = _small_heic()
    for cut in range(len(data) - 60, len(data), 7):
        for reader in (read_image, load_photo):
            with pytest.raises(InputError) as caught:
                reader(data[:cut])
            assert "\n" not in str(caught.value)


def test_the_app_and_the_reader_share_one_pixel_limit() -> None:
    from app_pages import images

    assert images.MAX_PIXELS is MAX_PIXELS


def test_the_app_shows_a_16_bit_photo_scaled() -> None:
    from app_pages.images import load_photo, to_rgb

    ramp = (np.arange(64 * 64, dtype=np.uint32).reshape(64, 64) * 16).astype(np.uint16)
    photo = load_photo(encoded(ramp, ".png"))
    shown = to_rgb(photo.data)
    assert shown.min() == 0 and shown.max() == 255 and len(np.unique(shown)) > 200


def test_photo_exit_status_says_whether_the_round_was_scored(tmp_path: Path) -> None:
    # 0: scored; 3: read, but not scored because of problems (scripts can tell); 2: bad input.
    problems = sorted(p for p in PHOTOS.glob("*.jpg") if p.with_suffix(".problems.json").exists())
    if not problems:
        pytest.skip("no problem fixtures")
    from vision.detector import CardDetector

    if not CardDetector.available():
        pytest.skip("the detector is not in models/")
    import json

    photo = problems[0]
    rules = json.loads(photo.with_suffix(".problems.json").read_text())["rules"]
    code, out, err = run_cli(["photo", str(photo), "--rules", rules])
    assert code == 3 and err == "" and "not scored" in out
    code, out, _ = run_cli(["photo", str(photo), "--rules", rules, "--json"])
    assert code == 3 and json.loads(out)["round"] is None
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert run_cli(["photo", str(empty)])[0] == 2
