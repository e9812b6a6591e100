"""Read a photo safely: one clear error for anything that is not a usable image.

EXIF orientation is applied, so a phone photo taken sideways comes out the way
the person saw it. Decoding goes through Pillow, which refuses truncated files
(OpenCV would silently return a half-grey image).

>>> read_image(b"")
Traceback (most recent call last):
referee.errors.InputError: the image file is empty (0 bytes)
"""

from __future__ import annotations

import io
import os
import re
import warnings
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageOps, UnidentifiedImageError

from referee.errors import InputError
from referee.safe_input import one_line

#: The one pixel limit, for the command line and the app alike: checked from the header, before decoding.
MAX_PIXELS = 50_000_000  # a 48 MP phone photo fits; 20,000 x 20,000 does not
MAX_BYTES = 80_000_000
#: Longest side over shortest side: a 1 x 5000 strip holds no table of cards (and breaks the detector's scaling).
MAX_ASPECT = 20
FORMATS = "JPEG, PNG, WebP or HEIC"

BGRImage = npt.NDArray[np.uint8]

try:  # HEIC (iPhone default) when pillow-heif is installed
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - optional
    pass


def read_image(source: bytes | str | Path, name: str | None = None) -> BGRImage:
    """Decode ``source`` (bytes or a path) into an upright BGR image."""
    label = name or (str(source) if isinstance(source, (str, Path)) else "the image file")
    data = _read_bytes(source, label)
    if not data:
        raise InputError(f"{label} is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise InputError(f"{label} is {len(data) / 1e6:.0f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image: Image.Image = Image.open(io.BytesIO(data))
            check_size(image.size, label)
            image.load()
            ImageOps.exif_transpose(image, in_place=True)
        except InputError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
            pixels = re.search(r"\((\d+) pixels\)", str(err))
            size = f" ({int(pixels.group(1)) / 1e6:.0f} MP)" if pixels else ""
            raise InputError(f"{label} is too large{size}; the limit is {MAX_PIXELS / 1e6:.0f} MP") from None
        except (UnidentifiedImageError, ImportError):
            # ImportError: ultralytics (training only) patches Image.open to try an optional HEIC plugin
            raise InputError(f"{label} is not an image this referee can read ({FORMATS})") from None
        except (OSError, SyntaxError, ValueError, RuntimeError) as err:  # RuntimeError: pillow-heif
            raise InputError(f"{label} is damaged or truncated ({one_line(str(err))})") from None
    return np.asarray(cv2.cvtColor(np.asarray(to_rgb8(image)), cv2.COLOR_RGB2BGR), np.uint8)


def check_size(size: tuple[int, int], label: str) -> None:
    """Refuse a photo by its header's size: over :data:`MAX_PIXELS`, or a strip (:data:`MAX_ASPECT`)."""
    width, height = size
    if width * height > MAX_PIXELS:
        raise InputError(f"{label} is {width} x {height} px ({width * height / 1e6:.0f} MP); "
                         f"the limit is {MAX_PIXELS / 1e6:.0f} MP")
    if min(width, height) < 1 or max(width, height) > MAX_ASPECT * min(width, height):
        raise InputError(f"{label} is {width} x {height} px: a photo of a table is at most {MAX_ASPECT} times "
                         "as long as it is wide")


_WIDE_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I", "F")


def to_rgb8(image: Image.Image) -> Image.Image:
    """``image`` as 8-bit RGB. 16-bit, 32-bit and float greyscale are scaled to 0-255, not clipped:
    16-bit by 65535, float by 1.0 when its values lie in [0, 1], anything else by its own range."""
    if image.mode == "RGB":
        return image
    if image.mode not in _WIDE_MODES:
        return image.convert("RGB")
    values = np.asarray(image).astype(np.float64)
    values[~np.isfinite(values)] = 0.0
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 0.0)
    if image.mode.startswith("I;16") or (image.mode == "I" and low >= 0 and high <= 65535 and high > 255):
        scaled = values / 65535.0
    elif image.mode == "I" and low >= 0 and high <= 255:
        scaled = values / 255.0
    elif image.mode == "F" and low >= 0 and high <= 1:
        scaled = values
    else:
        scaled = (values - low) / (high - low) if high > low else np.zeros_like(values)
    grey = np.clip(np.rint(scaled * 255.0), 0, 255).astype(np.uint8)
    return Image.fromarray(grey, "L").convert("RGB")


def _read_bytes(source: bytes | str | Path, label: str) -> bytes:
    if isinstance(source, bytes):
        return source
    path = Path(source)
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_BYTES:
                raise InputError(f"{label} is {size / 1e6:.0f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")
            data = handle.read(MAX_BYTES + 1)  # /dev/zero has no size: read no more than the limit and one byte
        if len(data) > MAX_BYTES:
            raise InputError(f"{label} is larger than the limit of {MAX_BYTES / 1e6:.0f} MB")
        return data
    except FileNotFoundError:
        raise InputError(f"image not found: {label}") from None
    except IsADirectoryError:
        raise InputError(f"{label} is a folder, not an image") from None
    except OSError as err:
        raise InputError(f"cannot read {label}: {err.strerror}") from None
