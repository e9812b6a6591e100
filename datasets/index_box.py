"""Find the corner index (rank + suit) of a rendered card by its ink pixels.

Done once per deck when the art is rendered; the box is cached in card-local
pixel coordinates and later moved into a scene with the card's homography.
The bottom-right index is the top-left one turned by 180 degrees.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import Card

Image = NDArray[Any]
Box = tuple[float, float, float, float]

WINDOW_W = 0.34  # the index lies within this share of the card width...
WINDOW_H = 0.42  # ...and height, from the top-left corner
BORDER = 0.022   # ignore ink this close to the card outline (share of the width)


def ink_mask(card: Image, thin: int = 0) -> NDArray[np.bool_]:
    """Pixels clearly darker or more colourful than the card's paper.

    ``thin`` > 0 drops vertical lines narrower than that many pixels (frame
    lines that run into the index on some decks).
    """
    bgr = card[:, :, :3].astype(np.int16)
    alpha = card[:, :, 3]
    gray = bgr.mean(axis=2)
    chroma = bgr.max(axis=2) - bgr.min(axis=2)
    opaque = alpha > 200
    paper = float(np.percentile(gray[opaque], 75)) if opaque.any() else 255.0
    paper_chroma = float(np.percentile(chroma[opaque], 50)) if opaque.any() else 0.0
    ink = (gray < paper - 70) | (chroma > paper_chroma + 70)
    inset = max(2, round(BORDER * card.shape[1]))
    kernel = np.ones((2 * inset + 1, 2 * inset + 1), np.uint8)
    inner = cv2.erode(opaque.astype(np.uint8), kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    out = ink & inner
    if thin > 0:
        out = cv2.morphologyEx(out.astype(np.uint8), cv2.MORPH_OPEN, np.ones((1, thin), np.uint8)) > 0
    return np.asarray(out)


def top_left_index(card: Image, ink: NDArray[np.bool_] | None = None, kx_frac: float = 0.012) -> Box | None:
    """Box ``(x0, y0, x1, y1)`` of the index nearest the top-left corner, or None.

    Ink is merged with a tall, narrow kernel: rank and suit stack vertically
    (and the two digits of a 10 nearly touch), while pips and pictures lie
    further to the right.
    """
    h, w = card.shape[:2]
    win_w, win_h = round(WINDOW_W * w), round(WINDOW_H * h)
    if ink is None:
        ink = ink_mask(card)
    win = ink[:win_h, :win_w].astype(np.uint8)
    if win.sum() < 10:
        return None
    kx, ky = max(3, round(kx_frac * w)) | 1, max(3, round(0.075 * w)) | 1
    merged = cv2.dilate(win, np.ones((ky, kx), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(merged, connectivity=8)
    min_area = (0.025 * w) ** 2
    best: int | None = None
    best_key = 1e18
    for i in range(1, count):
        x, y, _bw, _bh, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        key = x + y
        if key < best_key:
            best, best_key = i, key
    if best is None:
        return None
    ys, xs = np.nonzero((labels == best) & (win > 0))
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)


def _area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(box: Box, outer: Box) -> bool:
    return box[0] >= outer[0] and box[1] >= outer[1] and box[2] <= outer[2] and box[3] <= outer[3]


def _ink_box(ink: NDArray[np.bool_], region: Box) -> Box | None:
    x0, y0, x1, y1 = (round(v) for v in region)
    ys, xs = np.nonzero(ink[y0:y1, x0:x1])
    if xs.size == 0:
        return None
    return float(x0 + xs.min()), float(y0 + ys.min()), float(x0 + xs.max() + 1), float(y0 + ys.max() + 1)


def deck_index_boxes(cards: dict[Card, Image], pad: float = 0.012, thin: int = 0) -> dict[Card, Box]:
    """Top-left index box of every card, checked against the deck's plain pip cards.

    The reference region comes from the aces, 2s and 3s (uncrowded corners); a
    card whose ink blob runs outside it (a 10 next to a pip, a court picture
    touching the index) is cut to the ink inside the reference region, widened
    to the right for the two digits of a 10.
    """
    inks = {card: ink_mask(img, thin) for card, img in cards.items()}
    found = {card: top_left_index(img, inks[card]) for card, img in cards.items()}
    # A, 2 and 3 keep their pips in the middle column, away from the corner
    plain = [b for c, b in found.items() if b is not None and c.rank in (14, 2, 3)]
    if len(plain) < 8:
        raise ValueError(f"index found on only {len(plain)} plain pip cards")
    med = np.median(np.array(plain), axis=0)
    med_w, med_h = med[2] - med[0], med[3] - med[1]
    typical = [b for b in plain if (b[2] - b[0]) < 1.4 * med_w and (b[3] - b[1]) < 1.3 * med_h]
    reference: Box = (min(b[0] for b in typical), min(b[1] for b in typical),
                      max(b[2] for b in typical), max(b[3] for b in typical))
    for card in found:
        if card.rank != 10:
            continue
        # the two digits of a 10 can stand further apart than the narrow merge reaches
        wide = top_left_index(cards[card], inks[card], kx_frac=0.03)
        if wide is not None and (wide[2] - wide[0]) <= 2.2 * med_w and (wide[3] - wide[1]) <= 1.3 * med_h:
            found[card] = wide
    out: dict[Card, Box] = {}
    for card, box in found.items():
        w = cards[card].shape[1]
        grow = 0.7 * med_w if card.rank == 10 else 0.15 * med_w
        allowed: Box = (reference[0] - 0.15 * med_w, reference[1] - 0.1 * med_h,
                        reference[2] + grow, reference[3] + 0.1 * med_h)
        use = box
        if use is None or not _inside(use, allowed) or _area(use) < 0.3 * med_w * med_h:
            use = _ink_box(inks[card], allowed) or reference
        p = pad * w
        out[card] = (max(0.0, use[0] - p), max(0.0, use[1] - p), use[2] + p, use[3] + p)
    return out


def rotate_box_180(box: Box, width: int, height: int) -> Box:
    """The bottom-right index box, given the top-left one."""
    x0, y0, x1, y1 = box
    return width - x1, height - y1, width - x0, height - y0


def mirror_box_x(box: Box, width: int) -> Box:
    """The top-right index box of a four-index deck, given the top-left one."""
    x0, y0, x1, y1 = box
    return width - x1, y0, width - x0, y1


def has_four_indices(cards: dict[Card, Image], boxes: dict[Card, Box], thin: int = 0) -> bool:
    """True when the plain cards (A, 2, 3) also carry an index in the top-right corner."""
    hits = total = 0
    for card, img in cards.items():
        if card.rank not in (14, 2, 3):
            continue
        ink = ink_mask(img, thin)
        w = img.shape[1]
        x0, y0, x1, y1 = (round(v) for v in boxes[card])
        rx0, _, rx1, _ = (round(v) for v in mirror_box_x(boxes[card], w))
        left = float(ink[y0:y1, x0:x1].mean())
        right = float(ink[y0:y1, rx0:rx1].mean())
        total += 1
        hits += left > 0 and right > 0.5 * left
    return total > 0 and hits >= 0.8 * total
