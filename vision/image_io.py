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
import re
import warnings
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageOps, UnidentifiedImageError

from referee.errors import InputError

MAX_PIXELS = 50_000_000  # a 48 MP phone photo fits; 20,000 x 20,000 does not
MAX_BYTES = 80_000_000
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
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise InputError(f"{label} is {width} x {height} px ({width * height / 1e6:.0f} MP); "
                                 f"the limit is {MAX_PIXELS / 1e6:.0f} MP")
            image.load()
            image = ImageOps.exif_transpose(image)
        except InputError:
            raise
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
            pixels = re.search(r"\((\d+) pixels\)", str(err))
            size = f" ({int(pixels.group(1)) / 1e6:.0f} MP)" if pixels else ""
            raise InputError(f"{label} is too large{size}; the limit is {MAX_PIXELS / 1e6:.0f} MP") from None
        except (UnidentifiedImageError, ImportError):
            # ImportError: ultralytics (training only) patches Image.open to try an optional HEIC plugin
            raise InputError(f"{label} is not an image this referee can read ({FORMATS})") from None
        except (OSError, SyntaxError, ValueError) as err:
            raise InputError(f"{label} is damaged or truncated ({err})") from None
    rgb = np.asarray(image.convert("RGB"))
    return np.ascontiguousarray(rgb[:, :, ::-1])


def _read_bytes(source: bytes | str | Path, label: str) -> bytes:
    if isinstance(source, bytes):
        return source
    path = Path(source)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"{label} is {size / 1e6:.0f} MB; the limit is {MAX_BYTES / 1e6:.0f} MB")
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"image not found: {label}") from None
    except IsADirectoryError:
        raise InputError(f"{label} is a folder, not an image") from None
    except OSError as err:
        raise InputError(f"cannot read {label}: {err.strerror}") from None
