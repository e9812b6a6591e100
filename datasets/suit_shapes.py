"""Suit symbols drawn from parameters: the many shapes real decks give a club, a spade, a heart and a diamond.

The readers confuse clubs and spades more than anything else: on the real webcam photos most of the cards they
miss are a club and a spade taken for each other, and on decks they never saw they read a plain trefoil as a
spade. The art packages and the machine's fonts give them only a handful of suit designs (every font that draws
the suit glyphs draws one of a few shapes). ``SuitShapes`` draws one deck's four suits from a random generator:

* a club: three round lobes (their size, how far apart, whether they touch or merge through a centre disc, the
  side lobes higher or lower) on a stem;
* a spade: a heart turned point up (round or pointed shoulders, deep or shallow) on a stem;
* a heart: two round lobes and a point, wide or narrow, the point long or short;
* a diamond: four corners, wide or narrow, its sides straight, bulging or drawn in;
* a stem (clubs and spades): straight, tapered or flared into a foot, short or long, thin or thick.

Each is filled on a canvas four times larger and shrunk (smooth edges), and cut to its ink. Training data only:
``datasets.font_decks`` uses it for the decks of ``--drawn-suits`` (index and pips alike, as a real deck does).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image as PILImage

SUPERSAMPLE = 4


def _circle(cx: float, cy: float, r: float, n: int = 48) -> NDArray[np.float64]:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)


@dataclass(frozen=True)
class Stem:
    """A club's or spade's stem, in the shape's units (its box is [-1, 1] on both axes, y down)."""

    top: float        # where it starts (y), inside the lobes
    bottom: float     # its foot (y)
    width_top: float  # half widths
    width_foot: float
    flare: float      # 1: straight sides; above 1 the sides curve out into the foot

    def outline(self, n: int = 16) -> NDArray[np.float64]:
        s = np.linspace(0.0, 1.0, n)
        half = self.width_top + (self.width_foot - self.width_top) * s ** self.flare
        y = self.top + (self.bottom - self.top) * s
        right = np.stack([half, y], axis=1)
        left = np.stack([-half[::-1], y[::-1]], axis=1)
        return np.concatenate([right, left])


class SuitShapes:
    """One deck's four suit shapes, drawn from ``rng``; ``layer`` draws one at a height in a colour."""

    def __init__(self, rng: np.random.Generator) -> None:
        u = rng.uniform
        self.aspect = {s: float(u(0.82, 1.12)) for s in "schd"}  # width over height
        # heart (also the spade's body, drawn with its own numbers)
        self.heart = (float(u(0.42, 0.56)), float(u(0.38, 0.56)), float(u(0.85, 1.0)), float(u(0.0, 0.35)))
        self.spade = (float(u(0.40, 0.56)), float(u(0.36, 0.56)), float(u(0.85, 1.0)), float(u(0.0, 0.45)))
        # club: lobe radius, top lobe height, side lobes' spread and height, centre disc
        r = float(u(0.27, 0.37))
        self.club = (r, float(u(-0.78, -0.55)) + (0.37 - r) * 0.6, float(u(0.95, 1.3)) * r,
                     float(u(-0.05, 0.22)), float(u(0.3, 1.0)) * r)
        stems = {s: Stem(top=float(u(-0.1, 0.15)), bottom=1.0, width_top=float(u(0.04, 0.12)),
                         width_foot=float(u(0.1, 0.42)), flare=float(u(1.0, 3.5))) for s in "sc"}
        self.stem_start = {"s": float(u(0.28, 0.5)), "c": float(u(0.3, 0.55))}  # where the body ends (y)
        self.diamond = (float(u(0.58, 0.85)), float(u(-0.18, 0.12)))   # half width, side bulge (< 0: drawn in)
        # each stem starts inside its body, at least 0.3 above where the body ends
        self.stems = {s: replace(stem, top=min(self.stem_start[s] - 0.3, stem.top)) for s, stem in stems.items()}

    def _heart(self, params: tuple[float, float, float, float], top: float, bottom: float
               ) -> list[NDArray[np.float64]]:
        """A heart filling y in [top, bottom] (point down): two lobes and the hull of their lower halves and the
        point. ``params``: lobe radius, lobe centres' spread, point depth (share of the height), shoulder
        sharpness (0 round)."""
        r, spread, depth, sharp = params
        h = bottom - top
        rr = r * h * 0.55
        cy = top + rr
        cx = spread * h * 0.5
        point = np.array([[0.0, top + depth * h]])
        lobes = [_circle(-cx, cy, rr), _circle(cx, cy, rr)]
        lower = np.concatenate([c[c[:, 1] >= cy - sharp * rr] for c in lobes] + [point])
        hull = cv2.convexHull(lower.astype(np.float32)).reshape(-1, 2).astype(np.float64)
        return [*lobes, hull]

    def polygons(self, suit: str) -> list[NDArray[np.float64]]:
        """The filled polygons of ``suit`` ("s", "h", "d", "c") in the unit box (x, y in [-1, 1], y down)."""
        if suit == "h":
            return self._heart(self.heart, -1.0, 1.0)
        if suit == "s":
            end = self.stem_start["s"] + 0.25   # the body fills y in [-1, end], turned point up
            body = self._heart(self.spade, -1.0, end)
            return [*(np.stack([p[:, 0], end - 1.0 - p[:, 1]], axis=1) for p in body), self.stems["s"].outline()]
        if suit == "d":
            half, bulge = self.diamond
            pts = []
            corners = [(0.0, -1.0), (half, 0.0), (0.0, 1.0), (-half, 0.0)]
            for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
                mx, my = (x0 + x1) / 2, (y0 + y1) / 2   # the side's middle; outward is away from the centre
                norm = max(np.hypot(mx, my), 1e-6)
                cx, cy = mx + bulge * mx / norm, my + bulge * my / norm
                for t in np.linspace(0, 1, 12, endpoint=False):
                    pts.append(((1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t ** 2 * x1,
                                (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t ** 2 * y1))
            return [np.array(pts)]
        r, top_y, spread, side_y, centre = self.club
        # the lobes' box: the top lobe's top at -1 (shifted below), the side lobes' bottoms above the stem's end
        lobes = [(0.0, top_y), (-spread, side_y), (spread, side_y)]
        shift = -1.0 - (top_y - r)
        polys = [_circle(x, y + shift, r) for x, y in lobes]
        if centre > 0.02:
            polys.append(_circle(0.0, (top_y + 2 * side_y) / 3 + shift, centre))
        polys.append(self.stems["c"].outline())
        return polys

    def layer(self, suit: str, height: int, colour: tuple[int, int, int]) -> PILImage.Image:
        """``suit`` drawn ``height`` px tall (its width by the deck's aspect), RGBA, cut to its ink."""
        height = max(4, int(height))
        width = max(3, round(height * self.aspect[suit]))
        k = SUPERSAMPLE
        pad = 2 * k
        big_w, big_h = width * k + 2 * pad, height * k + 2 * pad
        mask = np.zeros((big_h, big_w), np.uint8)
        polys = self.polygons(suit)
        allpts = np.concatenate(polys)
        lo, hi = allpts.min(axis=0), allpts.max(axis=0)
        scale = np.array([(width * k - 1) / max(hi[0] - lo[0], 1e-6), (height * k - 1) / max(hi[1] - lo[1], 1e-6)])
        for p in polys:
            q = ((p - lo) * scale + pad).round().astype(np.int32)
            cv2.fillPoly(mask, [q], 255, cv2.LINE_AA)
        alpha = cv2.resize(mask, (big_w // k, big_h // k), interpolation=cv2.INTER_AREA)
        rgba = np.zeros((*alpha.shape, 4), np.uint8)
        rgba[..., :3] = colour
        rgba[..., 3] = alpha
        layer = PILImage.fromarray(rgba, "RGBA")
        box = layer.getbbox()
        return layer.crop(box) if box else layer
