"""Table surfaces: real textures from the cache (photos and tileable GIMP patterns)
and procedural felt, wood, cloth and plain ones. A texture is a BGR image plus
its scale in mm per pixel, laid on the table plane and seen through the camera."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]
TEX_PX = 1024


@lru_cache(maxsize=8)
def _read(path: str) -> Image | None:
    return cv2.imread(path, cv2.IMREAD_COLOR)


def texture_files(folder: Path | None) -> list[str]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(str(p) for p in folder.glob("*.jpg"))


def real_texture(path: str, rng: np.random.Generator) -> tuple[Image, float] | None:
    img = _read(path)
    if img is None:
        return None
    name = Path(path).name
    if name.startswith("tile_"):
        reps = int(np.ceil(TEX_PX / min(img.shape[:2])))
        tiled = np.tile(img, (reps, reps, 1))[:TEX_PX, :TEX_PX]
        return np.ascontiguousarray(tiled), rng.uniform(0.4, 1.2)
    h, w = img.shape[:2]
    side = int(min(h, w) * rng.uniform(0.5, 1.0))
    y, x = int(rng.integers(0, h - side + 1)), int(rng.integers(0, w - side + 1))
    crop = cv2.resize(img[y:y + side, x:x + side], (TEX_PX, TEX_PX), interpolation=cv2.INTER_AREA)
    return crop, rng.uniform(0.8, 1.6)


def _noise(rng: np.random.Generator, size: int, scale: int) -> NDArray[Any]:
    small = rng.standard_normal((max(2, size // scale), max(2, size // scale))).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def procedural_texture(rng: np.random.Generator) -> tuple[Image, float]:
    kind = rng.choice(["felt", "wood", "cloth", "plain", "gingham", "speckle"])
    n = TEX_PX
    if kind == "felt":
        base = np.array(rng.choice([[40, 110, 30], [90, 60, 20], [30, 40, 130], [70, 70, 70], [40, 90, 90]]),
                        np.float32) * rng.uniform(0.7, 1.3)
        img = base + 8 * _noise(rng, n, 64)[:, :, None] + rng.normal(0, 6, (n, n, 1)).astype(np.float32)
    elif kind == "wood":
        yy, xx = np.mgrid[:n, :n].astype(np.float32)
        warp = 25 * _noise(rng, n, 128)
        grain = np.sin((yy + warp) / rng.uniform(3, 9)) + 0.5 * np.sin((yy + 2 * warp) / rng.uniform(11, 25))
        base = np.array(rng.choice([[40, 80, 140], [30, 60, 100], [90, 140, 190], [20, 40, 70]]), np.float32)
        img = base * (1 + 0.12 * grain[:, :, None]) + 4 * _noise(rng, n, 8)[:, :, None]
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.rot90(img))
    elif kind == "cloth":
        yy, xx = np.mgrid[:n, :n].astype(np.float32)
        p = rng.uniform(2.5, 6)
        weave = np.sin(xx / p) * np.sin(yy / p)
        base = rng.uniform(30, 220, 3).astype(np.float32)
        img = base * (1 + 0.08 * weave[:, :, None]) + 5 * _noise(rng, n, 32)[:, :, None]
    elif kind == "gingham":   # a checked tablecloth
        yy, xx = np.mgrid[:n, :n].astype(np.float32)
        p = rng.uniform(12, 40)
        a = (np.sin(xx * np.pi / p) > 0).astype(np.float32)
        b = (np.sin(yy * np.pi / p) > 0).astype(np.float32)
        colour = rng.uniform(30, 220, 3).astype(np.float32)
        white = np.array([235, 235, 235], np.float32)
        mix = (0.5 * (a + b))[:, :, None]
        img = white * (1 - mix) + colour * mix + 4 * _noise(rng, n, 4)[:, :, None]
    elif kind == "speckle":   # laminate / mahjong-table plastic
        base = rng.uniform(40, 220, 3).astype(np.float32)
        dots = (rng.random((n, n)) < 0.02).astype(np.float32) * rng.uniform(-40, 40)
        img = base + cv2.GaussianBlur(dots, (0, 0), 0.8)[:, :, None] + 6 * _noise(rng, n, 128)[:, :, None]
    else:
        base = rng.uniform(40, 230, 3).astype(np.float32)
        img = base + 10 * _noise(rng, n, 256)[:, :, None] + rng.normal(0, 2, (n, n, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), rng.uniform(0.5, 1.2)


def table_texture(rng: np.random.Generator, files: list[str]) -> tuple[Image, float]:
    """A texture and its mm per pixel: a real one about two times in three when available."""
    if files and rng.random() < 0.65:
        got = real_texture(files[int(rng.integers(0, len(files)))], rng)
        if got is not None:
            return got
    return procedural_texture(rng)
