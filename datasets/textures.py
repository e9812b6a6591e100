"""Table textures from Debian packages (felt, wood, cloth, paper, stone), copied into the cache.

GIMP ``.pat`` patterns are small tileable tiles; they are stored with a ``tile_``
prefix so the scene generator repeats them instead of stretching them.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]

PHOTOS: tuple[str, ...] = (
    "/usr/share/games/pokerth/gfx/gui/table/default/table.png",
    "/usr/share/backgrounds/gnome/wood-d.webp",
    "/usr/share/backgrounds/gnome/wood-l.webp",
    "/usr/share/backgrounds/mate/nature/Wood.jpg",
    "/usr/share/backgrounds/mate/abstract/Silk.png",
)
GIMP_PATTERNS = "/usr/share/gimp/2.0/patterns"
GIMP_FOLDERS = ("Wood", "Fabric", "Paper")
GIMP_STONES = ("granite1", "marble1", "marble2", "marble3", "pink_marble", "slate")  # table-like stones only
GIMP_KEYWORDS = ("granite", "slate", "marble", "leather", "burlap", "green_curtains")
GIMP_EXCLUDE = ("bark",)   # looked at: not a table top
MAX_SIDE = 2048


def read_gimp_pattern(path: str | Path) -> Image:
    """Decode a GIMP ``.pat`` file (header + raw 1-4 byte pixels) to BGR."""
    data = Path(path).read_bytes()
    header_size, _version, width, height, depth = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT":
        raise ValueError(f"{path}: not a GIMP pattern")
    pixels = np.frombuffer(data[header_size:header_size + width * height * depth], np.uint8)
    img = pixels.reshape(height, width, depth)
    if depth in (1, 2):
        return cv2.cvtColor(np.ascontiguousarray(img[:, :, 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(img[:, :, :3]), cv2.COLOR_RGB2BGR)


def gimp_pattern_files() -> list[Path]:
    base = Path(GIMP_PATTERNS)
    if not base.is_dir():
        return []
    files = [p for folder in GIMP_FOLDERS for p in sorted((base / folder).glob("*.pat"))]
    files += [base / "Stone" / f"{name}.pat" for name in GIMP_STONES if (base / "Stone" / f"{name}.pat").is_file()]
    files += [p for p in sorted(base.glob("*.pat")) if any(k in p.stem for k in GIMP_KEYWORDS)]
    return [p for p in files if p.stem not in GIMP_EXCLUDE]


def export_textures(out: Path) -> int:
    """Copy every available texture into ``out`` as JPEG; returns how many were written."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.jpg"):
        old.unlink()
    count = 0
    for photo in PHOTOS:
        img = cv2.imread(photo, cv2.IMREAD_COLOR)
        if img is None:
            continue
        scale = MAX_SIDE / max(img.shape[:2])
        if scale < 1:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        name = Path(photo).parent.name + "-" + Path(photo).stem
        cv2.imwrite(str(out / f"photo_{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        count += 1
    for pat in gimp_pattern_files():
        try:
            img = read_gimp_pattern(pat)
        except (ValueError, struct.error):
            continue
        if min(img.shape[:2]) < 32:
            continue
        cv2.imwrite(str(out / f"tile_{pat.stem}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        count += 1
    return count
