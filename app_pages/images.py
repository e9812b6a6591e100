"""Uploaded and camera photos: checked and made readable before anything else sees them.

Every way a file can be wrong (empty, not an image, cut short, too big) becomes one
:class:`~referee.errors.InputError` with a sentence for the page. HEIC/HEIF (what
iPhones take) is converted to JPEG here, so the photo reader gets JPEG, PNG or WebP.

>>> load_photo(b"")
Traceback (most recent call last):
...
referee.errors.InputError: the file is empty (0 bytes): choose a photo of the table
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

from referee.errors import InputError
from referee.safe_input import one_line
from vision.image_io import MAX_PIXELS, check_size, to_rgb8

MAX_UPLOAD_BYTES = 40 * 1024 * 1024
ACCEPTED_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
_HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1")
_PASS_THROUGH = {"JPEG": "image/jpeg", "MPO": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}


@dataclass(frozen=True, kw_only=True)
class Photo:
    """A photo the referee can read: ``data`` is JPEG, PNG or WebP bytes."""

    data: bytes = field(repr=False)
    mime: str
    width: int
    height: int
    converted_from: str | None = None
    #: The photo upright (EXIF orientation applied) as RGB, decoded once here: the photo reader and the
    #: page use it instead of decoding ``data`` again (what vision.image_io.read_image would give, in RGB).
    pixels: NDArray[np.uint8] | None = field(default=None, repr=False, compare=False)


def is_heif(data: bytes) -> bool:
    """ISO-BMFF ``ftyp`` box with a HEIF brand (``....ftypheic``)."""
    return len(data) >= 12 and data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS


def _heif_to_jpeg(data: bytes) -> bytes:
    try:
        import pillow_heif
    except ImportError:
        raise InputError("this is a HEIC photo and the pillow-heif package is not installed: "
                         "pip install pillow-heif, or save the photo as JPEG") from None
    try:
        heif = pillow_heif.open_heif(data, convert_hdr_to_8bit=True)
        check_size(heif.size, "the HEIC photo")  # from the header: a 21 kB file may hold 90 MP
        image = heif.to_pillow()
    except InputError:
        raise
    except Exception as err:  # pillow-heif raises plain ValueError/RuntimeError for damaged files
        raise InputError(f"the HEIC photo could not be read ({one_line(str(err))})") from None
    exif = heif.info.get("exif")
    if exif:
        image.info["exif"] = exif
    image = ImageOps.exif_transpose(image).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=92)
    return out.getvalue()


def load_photo(data: bytes) -> Photo:
    """Check an upload and return it as something the photo reader accepts."""
    if not data:
        raise InputError("the file is empty (0 bytes): choose a photo of the table")
    if len(data) > MAX_UPLOAD_BYTES:
        raise InputError(f"the file is {len(data) / 2**20:.0f} MB; the referee reads photos up to "
                         f"{MAX_UPLOAD_BYTES // 2**20} MB (a phone photo is 2-8 MB)")
    converted_from = None
    if is_heif(data):
        data = _heif_to_jpeg(data)
        converted_from = "HEIC"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise InputError(f"the image is {width}x{height} pixels; the referee reads up to "
                                     f"{MAX_PIXELS // 1_000_000} megapixels")
                check_size(image.size, "the image")  # a strip of 1 x 5000 px
                image_format = image.format or ""
                image.load()  # decodes everything: a truncated file fails here, not later
                ImageOps.exif_transpose(image, in_place=True)
                pixels = np.asarray(to_rgb8(image), dtype=np.uint8)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InputError(f"the image is too large; the referee reads up to {MAX_PIXELS // 1_000_000} "
                         "megapixels") from None
    except UnidentifiedImageError:
        raise InputError("this file is not an image the referee can read: use a JPEG, PNG, WebP or HEIC "
                         "photo") from None
    except (OSError, SyntaxError, ValueError) as err:
        raise InputError(f"the image is damaged or cut short ({one_line(str(err))})") from None
    mime = _PASS_THROUGH.get(image_format)
    if mime is None:  # GIF, BMP, TIFF...: readable, but hand the reader a PNG
        with Image.open(io.BytesIO(data)) as image:
            out = io.BytesIO()
            to_rgb8(ImageOps.exif_transpose(image)).save(out, format="PNG")
        data, mime, converted_from = out.getvalue(), "image/png", image_format or "image"
    return Photo(data=data, mime=mime, width=width, height=height, converted_from=converted_from, pixels=pixels)


def to_rgb(data: bytes | NDArray[np.uint8], *, max_side: int = 1600) -> NDArray[np.uint8]:
    """The photo upright (EXIF orientation applied) as an RGB array, scaled down for display
    (``data``: the file, or :attr:`Photo.pixels`)."""
    if isinstance(data, np.ndarray):
        upright = Image.fromarray(data)
    else:
        with Image.open(io.BytesIO(data)) as image:
            upright = to_rgb8(ImageOps.exif_transpose(image))
    upright.thumbnail((max_side, max_side))
    return np.asarray(upright, dtype=np.uint8)


#: Widest image the page shows without Streamlit scaling (and re-encoding) it on every rerun
#: (streamlit.elements.lib.image_utils.MAXIMUM_CONTENT_WIDTH).
PAGE_IMAGE_WIDTH = 1460


def jpeg_bytes(rgb: NDArray[np.uint8], *, max_width: int | None = PAGE_IMAGE_WIDTH, quality: int = 85) -> bytes:
    """An RGB image as JPEG, scaled to at most ``max_width`` wide: encoded once, so each rerun of the
    page sends these bytes as they are instead of encoding an array again."""
    image = Image.fromarray(np.ascontiguousarray(rgb))
    if max_width is not None and image.width > max_width:
        image = image.resize((max_width, round(image.height * max_width / image.width)), Image.Resampling.BILINEAR)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def display_jpeg(bgr: NDArray[np.uint8], *, max_width: int | None = PAGE_IMAGE_WIDTH, quality: int = 85) -> bytes:
    """The photo reader's BGR image (e.g. the annotated photo) as the page shows it. OpenCV (there
    whenever the photo reader is) scales and encodes BGR as it is: on a 12 MP photo about half the
    time of flipping it to RGB for Pillow first (benchmarks/bench_app_photo.py)."""
    try:
        import cv2
    except ImportError:  # pragma: no cover - the photo reader needs OpenCV
        return jpeg_bytes(bgr[:, :, ::-1], max_width=max_width, quality=quality)
    height, width = bgr.shape[:2]
    shown: NDArray[Any] = bgr
    if max_width is not None and width > max_width:
        shown = cv2.resize(bgr, (max_width, round(height * max_width / width)), interpolation=cv2.INTER_LINEAR)
    ok, encoded = cv2.imencode(".jpg", shown, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - a uint8 BGR image always encodes
        return jpeg_bytes(bgr[:, :, ::-1], max_width=None, quality=quality)
    return bytes(encoded.tobytes())
