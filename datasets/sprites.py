"""Procedural distractors drawn as BGRA sprites with their physical size: chips,
coins, a phone, card backs; and fingers drawn straight into the image."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]
PX_PER_MM = 4.0

CHIP_COLOURS = [(40, 40, 200), (200, 60, 30), (40, 140, 40), (30, 30, 30), (220, 220, 220), (30, 160, 230),
                (150, 40, 120)]


def _blank(w_mm: float, h_mm: float) -> Image:
    return np.zeros((round(h_mm * PX_PER_MM), round(w_mm * PX_PER_MM), 4), np.uint8)


def chip(rng: np.random.Generator) -> tuple[Image, float]:
    d = rng.uniform(36, 42)
    img = _blank(d, d)
    c = img.shape[0] // 2
    r = c - 1
    colour = CHIP_COLOURS[int(rng.integers(0, len(CHIP_COLOURS)))]
    cv2.circle(img, (c, c), r, (*colour, 255), -1, cv2.LINE_AA)
    spots = int(rng.choice([4, 6, 8]))
    for k in range(spots):
        a0 = 2 * math.pi * k / spots
        pts = [(c + r * math.cos(a0 + t) * s, c + r * math.sin(a0 + t) * s)
               for s, t in ((1.0, -0.18), (1.0, 0.18), (0.78, 0.18), (0.78, -0.18))]
        cv2.fillConvexPoly(img, np.round(np.array(pts)).astype(np.int32), (235, 235, 235, 255), cv2.LINE_AA)
    cv2.circle(img, (c, c), int(r * 0.62), (235, 235, 235, 255), max(1, r // 20), cv2.LINE_AA)
    cv2.circle(img, (c, c), int(r * 0.55), (*tuple(int(v * 0.85) for v in colour), 255), -1, cv2.LINE_AA)
    return img, d


def coin(rng: np.random.Generator) -> tuple[Image, float]:
    d = rng.uniform(18, 27)
    img = _blank(d, d)
    c = img.shape[0] // 2
    gold = rng.random() < 0.5
    base = np.array([60, 170, 210] if gold else [185, 185, 180], np.float32)
    yy, xx = np.mgrid[:img.shape[0], :img.shape[1]].astype(np.float32)
    shade = 0.75 + 0.35 * ((xx - yy) / img.shape[0])
    rgb = np.clip(base[None, None, :] * shade[:, :, None], 0, 255).astype(np.uint8)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(mask, (c, c), c - 1, 255, -1, cv2.LINE_AA)
    img[:, :, :3] = rgb
    img[:, :, 3] = mask
    cv2.circle(img, (c, c), int(c * 0.82), (*tuple(int(v * 0.7) for v in base), 255), max(1, c // 14), cv2.LINE_AA)
    return img, d


def phone(rng: np.random.Generator) -> tuple[Image, float]:
    w, h = rng.uniform(68, 78), rng.uniform(140, 162)
    img = _blank(w, h)
    H, W = img.shape[:2]
    rad = int(0.12 * W)
    body = (*tuple(int(v) for v in rng.integers(10, 60, 3)), 255)
    cv2.rectangle(img, (rad, 0), (W - rad, H - 1), body, -1)
    cv2.rectangle(img, (0, rad), (W - 1, H - rad), body, -1)
    for cx, cy in ((rad, rad), (W - rad, rad), (rad, H - rad), (W - rad, H - rad)):
        cv2.circle(img, (cx, cy), rad, body, -1, cv2.LINE_AA)
    m = int(0.04 * W)
    if rng.random() < 0.6:   # screen side up
        yy = np.linspace(0, 1, H - 2 * m)[:, None, None]
        top = rng.uniform(20, 120, 3)
        screen = np.clip(top * (0.6 + 0.6 * yy) + rng.normal(0, 3, (H - 2 * m, W - 2 * m, 3)), 0, 255)
        img[m:H - m, m:W - m, :3] = screen.astype(np.uint8)
    else:
        cv2.circle(img, (int(0.25 * W), int(0.12 * W)), int(0.09 * W), (20, 20, 20, 255), -1, cv2.LINE_AA)
        cv2.circle(img, (int(0.25 * W), int(0.32 * W)), int(0.09 * W), (20, 20, 20, 255), -1, cv2.LINE_AA)
    return img, w


NOTE_GLYPHS = "0123456789AKQJ+-=x/ "
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
         cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_PLAIN)


def score_note(rng: np.random.Generator) -> tuple[Image, float]:
    """A scrap of paper with a pencilled score sheet: letters and digits that are not card indices."""
    w, h = rng.uniform(60, 120), rng.uniform(70, 150)
    img = _blank(w, h)
    paper = np.array([rng.uniform(215, 250), rng.uniform(225, 252), rng.uniform(230, 255)])
    if rng.random() < 0.3:   # a yellow sticky note
        paper = np.array([rng.uniform(90, 140), rng.uniform(215, 245), rng.uniform(235, 255)])
    img[:, :, :3] = paper.astype(np.uint8)
    img[:, :, 3] = 255
    H, W = img.shape[:2]
    ink = tuple(int(v) for v in rng.choice([[40, 40, 40], [140, 60, 20], [30, 30, 150]]))
    font = FONTS[int(rng.integers(0, len(FONTS)))]
    scale = rng.uniform(0.5, 1.1) * W / 300
    line_h = int(40 * scale) + 6
    y = line_h
    while y < H - 4:
        text = "".join(NOTE_GLYPHS[int(i)] for i in rng.integers(0, len(NOTE_GLYPHS), int(rng.integers(3, 9))))
        cv2.putText(img, text, (int(rng.uniform(4, 0.2 * W)), y), font, scale, (*ink, 255), max(1, int(2 * scale)),
                    cv2.LINE_AA)
        y += line_h + int(rng.integers(0, 8))
    return img, w


def procedural_back(rng: np.random.Generator, w_px: int, h_px: int) -> Image:
    img = np.zeros((h_px, w_px, 4), np.uint8)
    colour = np.array([[140, 40, 30], [40, 40, 170], [40, 110, 40], [30, 30, 30]][int(rng.integers(0, 4))])
    img[:, :, :3] = 245
    img[:, :, 3] = 255
    m = max(2, w_px // 16)
    inner = img[m:h_px - m, m:w_px - m, :3]
    yy, xx = np.mgrid[:inner.shape[0], :inner.shape[1]]
    period = max(4, w_px // 18)
    pattern = ((xx + yy) // period + (xx - yy) // period) % 2
    inner[:] = np.where(pattern[:, :, None] > 0, colour, colour * 0.6 + 40).astype(np.uint8)
    return img


def draw_finger(image: NDArray[Any], idmap: NDArray[np.int16], rng: np.random.Generator,
                occluder: int) -> None:
    """A finger or two reaching in from an image edge (skin-coloured, shaded capsule)."""
    H, W = image.shape[:2]
    side = int(rng.integers(0, 4))
    along = rng.uniform(0.1, 0.9)
    width = rng.uniform(0.045, 0.075) * max(W, H)
    length = rng.uniform(0.08, 0.22) * max(W, H)
    start = {0: (along * W, H + width), 1: (along * W, -width), 2: (-width, along * H), 3: (W + width, along * H)}[side]
    inward = {0: (0, -1), 1: (0, 1), 2: (1, 0), 3: (-1, 0)}[side]
    ang = math.atan2(inward[1], inward[0]) + rng.normal(0, 0.35)
    skin = np.array([rng.uniform(80, 140), rng.uniform(110, 165), rng.uniform(165, 225)], np.float32)
    for k in range(int(rng.integers(1, 3))):
        off = (k - 0.5) * width * 1.05
        sx = start[0] - math.sin(ang) * off
        sy = start[1] + math.cos(ang) * off
        ex, ey = sx + math.cos(ang) * length * (1 - 0.15 * k), sy + math.sin(ang) * length * (1 - 0.15 * k)
        mask = np.zeros((H, W), np.uint8)
        cv2.line(mask, (int(sx), int(sy)), (int(ex), int(ey)), 255, int(width), cv2.LINE_AA)
        cv2.circle(mask, (int(ex), int(ey)), int(width / 2), 255, -1, cv2.LINE_AA)
        x, y, bw, bh = cv2.boundingRect(mask)
        if bw == 0 or bh == 0:
            continue
        m = mask[y:y + bh, x:x + bw].astype(np.float32) / 255
        shade = cv2.GaussianBlur(m, (0, 0), width / 5) ** 0.6
        colour = skin[None, None, :] * (0.55 + 0.45 * shade[:, :, None])
        # the nail: a paler, glossier rounded patch just behind the tip
        nail = np.zeros((bh, bw), np.uint8)
        nx, ny = ex - math.cos(ang) * width * 0.45 - x, ey - math.sin(ang) * width * 0.45 - y
        cv2.ellipse(nail, (int(nx), int(ny)), (int(width * 0.42), int(width * 0.3)), math.degrees(ang), 0, 360, 255,
                    -1, cv2.LINE_AA)
        nail_f = cv2.GaussianBlur(nail.astype(np.float32) / 255, (0, 0), max(1.0, width / 25)) * m
        colour = colour * (1 - 0.35 * nail_f[:, :, None]) + np.array([215, 215, 235], np.float32) * 0.35 * nail_f[
            :, :, None]
        roi = image[y:y + bh, x:x + bw]
        roi[:] = roi * (1 - m[:, :, None]) + colour * m[:, :, None]
        idmap[y:y + bh, x:x + bw][m > 0.5] = occluder
