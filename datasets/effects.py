"""The phone's look: uneven light, glare on the glossy cards, white balance,
lens and motion blur, sensor noise, resolution loss. JPEG comes last, on save."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[Any]


def _low_freq(rng: np.random.Generator, w: int, h: int, cells: int) -> NDArray[Any]:
    small = rng.standard_normal((cells, cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def lighting(img: NDArray[Any], rng: np.random.Generator) -> None:
    """Uneven light, vignetting and white balance, in place."""
    h, w = img.shape[:2]
    sw, sh = max(8, w // 16), max(8, h // 16)
    gain = 1 + rng.uniform(0.05, 0.25) * _low_freq(rng, sw, sh, 3)
    yy, xx = np.mgrid[:sh, :sw].astype(np.float32)
    r2 = ((xx / sw - 0.5) ** 2 + (yy / sh - 0.5) ** 2) * 2
    gain *= 1 - rng.uniform(0, 0.35) * r2
    # a broad directional gradient (window light)
    a = rng.uniform(0, 2 * math.pi)
    gain *= 1 + rng.uniform(0, 0.25) * ((xx / sw - 0.5) * math.cos(a) + (yy / sh - 0.5) * math.sin(a))
    gain *= rng.uniform(0.75, 1.15) if rng.random() < 0.85 else rng.uniform(0.45, 0.75)
    if rng.random() < 0.3:
        gain *= 1 - rng.uniform(0.2, 0.45) * cast_shadow(rng, sw, sh)
    wb = white_balance_gains(rng)
    full = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.merge([full * wb[0], full * wb[1], full * wb[2]]), dst=img)


def cast_shadow(rng: np.random.Generator, w: int, h: int) -> NDArray[Any]:
    """A large soft shadow (the photographer's arm or phone, a lamp shade) as a 0..1 mask."""
    mask = np.zeros((h, w), np.float32)
    edge = int(rng.integers(0, 4))
    # a blob entering from one side of the frame
    cx = {0: rng.uniform(0, w), 1: rng.uniform(0, w), 2: 0.0, 3: float(w)}[edge]
    cy = {0: 0.0, 1: float(h), 2: rng.uniform(0, h), 3: rng.uniform(0, h)}[edge]
    axes = (int(rng.uniform(0.2, 0.6) * w), int(rng.uniform(0.2, 0.6) * h))
    cv2.ellipse(mask, (int(cx), int(cy)), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    return cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.03, 0.12) * max(w, h))


def glare(img: NDArray[Any], card_mask: NDArray[np.bool_], rng: np.random.Generator) -> None:
    """Specular highlights, strongest on the glossy cards, in place."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        sx, sy = rng.uniform(0.04, 0.2) * w, rng.uniform(0.03, 0.12) * h
        a = rng.uniform(0, math.pi)
        x0, x1 = int(max(0, cx - 3 * max(sx, sy))), int(min(w, cx + 3 * max(sx, sy)))
        y0, y1 = int(max(0, cy - 3 * max(sx, sy))), int(min(h, cy + 3 * max(sx, sy)))
        if x1 <= x0 or y1 <= y0:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        u = (xx - cx) * math.cos(a) + (yy - cy) * math.sin(a)
        v = -(xx - cx) * math.sin(a) + (yy - cy) * math.cos(a)
        blob = np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2))
        strength = rng.uniform(60, 200)
        gloss = np.where(card_mask[y0:y1, x0:x1], 1.0, 0.25).astype(np.float32)
        img[y0:y1, x0:x1] += (strength * blob * gloss)[:, :, None]


def white_balance_gains(rng: np.random.Generator) -> tuple[float, float, float]:
    """Per-channel (B, G, R) gains of a colour temperature and tint shift."""
    temp = rng.normal(0, 0.05)
    tint = rng.normal(0, 0.02)
    return 1 - temp, 1 + tint, 1 + temp


def blur(img: NDArray[Any], rng: np.random.Generator) -> NDArray[Any]:
    h, w = img.shape[:2]
    scale = max(h, w) / 1600
    if rng.random() < 0.7:
        sigma = rng.uniform(0.3, 1.6) * scale
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.25:
        img = streak(img, max(3, int(rng.uniform(3, 11) * scale)) | 1, rng)
    return img


def streak(img: NDArray[Any], length: int, rng: np.random.Generator) -> NDArray[Any]:
    """A motion blur ``length`` px long (odd) at an angle drawn from ``rng``."""
    kernel: NDArray[Any] = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    out: NDArray[Any] = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    return out


def depth_of_field(img: NDArray[Any], rng: np.random.Generator) -> NDArray[Any]:
    """Close-up shots focus on one band; the far (top) or near (bottom) side goes soft."""
    if rng.random() > 0.25:
        return img
    h, w = img.shape[:2]
    soft = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.2) * max(h, w) / 1600)
    focus = rng.uniform(0.35, 0.75)
    ramp = np.abs(np.linspace(0, 1, h, dtype=np.float32) - focus)
    ramp = np.clip((ramp - 0.15) / 0.35, 0, 1)[:, None, None]
    out: NDArray[Any] = img * (1 - ramp) + soft * ramp
    return out


def resolution_loss(img: NDArray[Any], rng: np.random.Generator) -> NDArray[Any]:
    """Sometimes the photo had fewer pixels (1 MP phones, digital zoom): down and up again."""
    if rng.random() > 0.25:
        return img
    h, w = img.shape[:2]
    f = rng.uniform(0.55, 0.85)
    small = cv2.resize(img, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def noise(img: NDArray[Any], rng: np.random.Generator) -> None:
    """Sensor noise, signal-dependent, slightly blotchy (generated at half size), in place."""
    h, w = img.shape[:2]
    sigma = rng.uniform(1, 7) * 0.7
    n: NDArray[Any] = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3), dtype=np.float32)
    lum = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 1), dtype=np.float32)
    n += lum
    n = cv2.resize(n, (w, h), interpolation=cv2.INTER_LINEAR)
    amp: NDArray[Any] = img * np.float32(sigma * 0.6 / 255)
    amp += np.float32(sigma * 0.4)
    n *= amp
    img += n


@dataclass(frozen=True)
class MeasuredLook:
    """The camera of ``--look real``, chosen so that the generated indices measure as the real photos' do
    (``benchmarks/camera_look.py``: index edge width over height along y, noise sigma, JPEG quality; the numbers in
    docs/training.md)."""

    blur_p: float = 0.5                          # share of photos out of focus a little
    blur_sigma: tuple[float, float] = (0.3, 0.9)  # its Gaussian sigma, px of a 1,600 px photo
    motion_p: float = 0.15                       # share with a slight motion (a phone held by hand)
    motion_px: tuple[float, float] = (3.0, 7.0)   # its streak, px of a 1,600 px photo
    grain_sigma: tuple[float, float] = (1.5, 8.0)  # the sensor's grain, grey levels, pixel by pixel
    jpeg_quality: tuple[int, int] = (70, 96)      # the JPEG quality saved at (drawn in [lo, hi))


REAL_LOOK = MeasuredLook()


def measured_blur(img: NDArray[Any], rng: np.random.Generator) -> NDArray[Any]:
    """The softening of the real photos measured by ``benchmarks/camera_look.py`` (``--look real``): lighter and rarer
    than ``blur``'s guess, a slight motion now and then (a phone held by hand)."""
    h, w = img.shape[:2]
    scale = max(h, w) / 1600
    if rng.random() < REAL_LOOK.blur_p:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(*REAL_LOOK.blur_sigma) * scale)
    if rng.random() < REAL_LOOK.motion_p:
        img = streak(img, max(3, int(rng.uniform(*REAL_LOOK.motion_px) * scale)) | 1, rng)
    return img


def grain(img: NDArray[Any], rng: np.random.Generator) -> None:
    """Sensor grain pixel by pixel (``--look real``: the real photos' noise is fine, not blotchy), in place."""
    sigma = rng.uniform(*REAL_LOOK.grain_sigma)
    n: NDArray[Any] = rng.standard_normal(img.shape, dtype=np.float32)
    n += rng.standard_normal((*img.shape[:2], 1), dtype=np.float32)
    n *= np.float32(sigma / math.sqrt(2))
    img += n


def finish(img: NDArray[Any], card_mask: NDArray[np.bool_], rng: np.random.Generator,
           soften: bool = True, real: bool = False) -> Image:
    """All photometric effects; returns the 8-bit image. ``soften=False`` leaves out the ones that
    soften the picture (resolution loss, depth of field, lens and motion blur), to measure what
    they cost (``datasets.synth --look sharp``); ``real``: softening and noise as measured on real photos
    (``--look real``)."""
    lighting(img, rng)
    if rng.random() < 0.45:
        glare(img, card_mask, rng)
    if real:
        img = measured_blur(img, rng)
        grain(img, rng)
    else:
        if soften:
            img = resolution_loss(img, rng)
            img = depth_of_field(img, rng)
            img = blur(img, rng)
        noise(img, rng)
    out: Image = np.clip(img, 0, 255).astype(np.uint8)
    return out


def bent_card_light(img: NDArray[Any], idmap: NDArray[Any], obj_id: int, h_img: NDArray[Any], art_w: int,
                    art_h: int, rng: np.random.Generator) -> bool:
    """The light on a card bowed a little about one of its axes (a held or much-handled card), in place on the
    pixels where card ``obj_id`` is on top: across the bow the surface turns by up to about 25°, so its
    shading changes smoothly from one edge to the other, and where the surface faces the light's mirror
    direction a glossy band of glare runs the length of the card, across whatever index lies under it.
    The band leaves the ink darker than the paper beside it (a person still reads it). ``h_img`` maps the card
    sprite's pixels (``art_w`` x ``art_h``) to the image. False when the card shows no pixels."""
    corners = h_img @ np.array([[0, art_w, art_w, 0], [0, 0, art_h, art_h], [1, 1, 1, 1]], np.float64)
    cx, cy = corners[0] / corners[2], corners[1] / corners[2]
    x0, y0 = max(0, int(cx.min())), max(0, int(cy.min()))
    x1, y1 = min(idmap.shape[1], int(cx.max()) + 2), min(idmap.shape[0], int(cy.max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    ys, xs = np.nonzero(idmap[y0:y1, x0:x1] == obj_id)
    if len(xs) == 0:
        return False
    ys, xs = ys + y0, xs + x0
    inv = np.linalg.inv(h_img)
    pts = np.stack([xs, ys, np.ones_like(xs)]).astype(np.float64)
    uvw = inv @ pts
    along_width = rng.random() < 0.5         # bowed about the long axis: the shading runs across the width
    t = (uvw[0] / uvw[2] / art_w) if along_width else (uvw[1] / uvw[2] / art_h)
    t = np.clip(t, 0.0, 1.0).astype(np.float32)
    bow = math.radians(rng.uniform(8, 25))    # the surface's turn from the middle to either edge
    theta = (2 * t - 1) * bow
    light = rng.uniform(-1.0, 1.0) * bow      # where the surface faces the light's mirror direction
    shade = 1 + rng.uniform(0.05, 0.2) * np.cos(theta - light + rng.uniform(-0.4, 0.4)) - 0.1
    gloss = rng.uniform(40, 130) * np.exp(-0.5 * ((theta - light) / (bow * rng.uniform(0.08, 0.25))) ** 2)
    px = img[ys, xs].astype(np.float32)
    # glare lifts dark ink less than paper (a highlight on glossy ink is also partly diffuse): ink stays darker
    lift = gloss[:, None] * (0.55 + 0.45 * np.clip(px / 255.0, 0, 1))
    img[ys, xs] = px * shade[:, None].astype(np.float32) + lift.astype(np.float32)
    return True
