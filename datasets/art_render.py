"""Render card artwork (SVG) to BGRA arrays with ``rsvg-convert`` and cut it into cards.

Card boxes come from the alpha channel, never from SVG element ids (librsvg's
element boxes are wrong for several decks, see CARD-ART.md).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import DECK, Card

Image = NDArray[Any]

# Aisleriot sheets: 13 columns A,2..10,J,Q,K; rows clubs, diamonds, hearts, spades, then jokers + back.
SHEET_COLS = 13
SHEET_ROWS = 5
SHEET_SUIT_ROWS = {"c": 0, "d": 1, "h": 2, "s": 3}
SHEET_BACK_CELL = (4, 2)


def render_svg(path: str | Path, width: int) -> Image:
    """Render an SVG (or .svgz) file to a BGRA image ``width`` pixels wide."""
    out = subprocess.run(["rsvg-convert", "-w", str(width), "-f", "png", str(path)],
                         check=True, capture_output=True).stdout
    img = cv2.imdecode(np.frombuffer(out, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise RuntimeError(f"rsvg-convert gave no RGBA image for {path}")
    return np.ascontiguousarray(img)


def alpha_box(img: Image, threshold: int = 16) -> tuple[int, int, int, int] | None:
    """Bounding box ``(x0, y0, x1, y1)`` (exclusive) of pixels whose alpha exceeds ``threshold``."""
    mask = img[:, :, 3] > threshold
    rows = np.flatnonzero(mask.any(axis=1))
    cols = np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return None
    return int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1


def trim(img: Image) -> Image:
    box = alpha_box(img)
    if box is None:
        raise ValueError("empty image: nothing to trim")
    x0, y0, x1, y1 = box
    return img[y0:y1, x0:x1].copy()


def largest_component(img: Image) -> Image:
    """Crop to the largest alpha blob (drops stray bits of neighbouring cells)."""
    mask = (img[:, :, 3] > 16).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        raise ValueError("empty cell")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    return img[y:y + h, x:x + w].copy()


def sheet_rank_column(card: Card) -> int:
    """Column of a card in an aisleriot sheet (A first, then 2..K)."""
    return 0 if card.rank == 14 else card.rank - 1


def cut_sheet(sheet: Image) -> tuple[dict[Card, Image], Image]:
    """Cut an aisleriot sheet into its 52 cards and the back."""
    h, w = sheet.shape[:2]
    cw, ch = w / SHEET_COLS, h / SHEET_ROWS

    def cell(row: int, col: int) -> Image:
        x0, x1 = round(col * cw), round((col + 1) * cw)
        y0, y1 = round(row * ch), round((row + 1) * ch)
        return largest_component(sheet[y0:y1, x0:x1])

    cards = {card: cell(SHEET_SUIT_ROWS[card.suit.value], sheet_rank_column(card)) for card in DECK}
    back = cell(*SHEET_BACK_CELL)
    return cards, back


def normalise_sizes(cards: dict[Card, Image], back: Image | None) -> tuple[dict[Card, Image], Image | None]:
    """Resize every card of a deck to the deck's median size (cuts differ by a pixel or two)."""
    heights = sorted(img.shape[0] for img in cards.values())
    widths = sorted(img.shape[1] for img in cards.values())
    size = (widths[len(widths) // 2], heights[len(heights) // 2])

    def fit(img: Image) -> Image:
        if (img.shape[1], img.shape[0]) == size:
            return img
        return cv2.resize(img, size, interpolation=cv2.INTER_AREA)

    return {c: fit(img) for c, img in cards.items()}, (fit(back) if back is not None else None)
