"""Procedural decks drawn with the machine's fonts: index designs the art packages do not have.

The reader (stage 2) learns rank and suit from the corner index, and on design families it
never saw it misreads small, soft indices (2c/2s, A of clubs/diamonds, 6/8, K/Q). The art
packages give only ten training families; these decks add many more index designs: each deck
draws its ranks in one of the installed fonts (Debian's DejaVu, Liberation, URW base35, Noto,
... whatever ``/usr/share/fonts`` holds; PIL's own font when it holds none), its suits as font
glyphs or drawn shapes, at its own index size, spacing, weight, colours, paper and corners.
The card faces behind the index (pips, a framed court picture of random shapes) give the crops
the clutter of a real card. Training data only: the app never draws cards.

The index box is known exactly (the ink drawn for rank and suit), so no ink search is needed.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from referee.cards import DECK, Card

from .art_cache import CardArt, make_mips
from .suit_shapes import SuitShapes
from .testdeck import draw_suit

Image = NDArray[Any]
W = 400
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
SUIT_CHARS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
LETTERS = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}
# fonts unfit for a rank: no Latin letters, symbols only, or a script too far from card lettering
_SKIP = ("cjk", "droid", "symbol", "math", "d050000l", "z003", "extralight")


def font_paths(dirs: tuple[Path, ...]) -> list[str]:
    """Every TrueType/OpenType file under ``dirs`` (those that exist), sorted."""
    return sorted(str(p) for d in dirs if d.is_dir() for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".otf"))


@functools.cache
def font_files(debian: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(rank fonts, suit fonts) found on this machine: every TrueType/OpenType file, and of
    those the ones that draw the four suit glyphs; ``debian``: the font packages unpacked into the art cache
    (``datasets.debian_fonts``) too."""
    files = font_paths(FONT_DIRS)
    if debian:
        from .debian_fonts import debian_font_files

        more = debian_font_files()
        if not more:
            raise FileNotFoundError("the Debian font packages are not unpacked: python -m datasets.debian_fonts")
        files += more
    ranks = tuple(f for f in files if not any(s in f.lower() for s in _SKIP))
    suits = []
    for f in files:
        try:
            font = ImageFont.truetype(f, 40)
        except OSError:
            continue
        if _draws_suits(font):
            suits.append(f)
    return ranks, tuple(suits)


def _draws_suits(font: Any) -> bool:
    """True when the four suit glyphs are drawn, each its own shape (a missing glyph is drawn
    as the font's one 'notdef' box, the same for all)."""
    masks = [bytes(font.getmask(ch)) for ch in (*SUIT_CHARS.values(), "\ue000")]
    return len(set(masks)) == 5 and all(any(m) for m in masks[:4])


def _font(path: str | None, size: int) -> Any:
    return ImageFont.load_default(size) if path is None else ImageFont.truetype(path, size)


def _cut_to_ink(layer: PILImage.Image) -> PILImage.Image:
    bbox = layer.getbbox()
    return layer.crop(bbox) if bbox else layer


def _to_height(layer: PILImage.Image, height: int) -> PILImage.Image:
    """``layer`` scaled to ``height`` px, its proportions kept."""
    return layer.resize((max(1, round(layer.width * height / max(1, layer.height))), height),
                        PILImage.Resampling.LANCZOS)


def _ink_layer(text: str, font: Any, colour: tuple[int, int, int], squeeze: float) -> PILImage.Image:
    """``text`` in ``font`` on a transparent layer cut to its ink, narrowed by ``squeeze``."""
    box = font.getbbox(text)
    layer = PILImage.new("RGBA", (box[2] - box[0] + 4, box[3] - box[1] + 4), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((2 - box[0], 2 - box[1]), text, font=font, fill=(*colour, 255))
    layer = _cut_to_ink(layer)
    if squeeze != 1.0:
        layer = layer.resize((max(1, round(layer.width * squeeze)), layer.height), PILImage.Resampling.LANCZOS)
    return layer


def _suit_layer(suit: str, height: int, colour: tuple[int, int, int], font_path: str | None,
                shapes: SuitShapes | None = None) -> PILImage.Image:
    if shapes is not None:
        return shapes.layer(suit, height, colour)
    if font_path is not None:
        return _to_height(_ink_layer(SUIT_CHARS[suit], _font(font_path, int(height * 1.5)), colour, 1.0), height)
    r = max(3, height // 2)
    canvas = np.zeros((2 * r + 4, 2 * r + 4, 4), np.uint8)
    draw_suit(canvas, suit, r + 2, r + 2, r, (*colour, 255))
    return _cut_to_ink(PILImage.fromarray(canvas, "RGBA"))


class FontDeckStyle:
    """Everything one deck draws the same way, drawn from ``rng``."""

    def __init__(self, rng: np.random.Generator, debian_fonts: bool = False) -> None:
        ranks, suits = font_files(debian_fonts)
        self.rank_font: str | None = str(rng.choice(ranks)) if ranks else None
        self.suit_font: str | None = str(rng.choice(suits)) if suits and rng.random() < 0.6 else None
        self.height = int(rng.integers(560, 630))
        self.rank_h = int(W * rng.uniform(0.1, 0.17))        # cap height of the rank
        self.suit_h = int(self.rank_h * rng.uniform(0.6, 1.05))
        self.gap = int(self.rank_h * rng.uniform(0.05, 0.4))
        self.margin = (int(W * rng.uniform(0.025, 0.07)), int(W * rng.uniform(0.03, 0.08)))
        self.ten_squeeze = float(rng.uniform(0.55, 1.0))
        self.squeeze = float(rng.uniform(0.8, 1.1))
        self.suit_offset = float(rng.uniform(-0.15, 0.15))      # suit centre off the rank's, in rank heights
        paper = int(rng.integers(228, 256))
        tint = rng.integers(-10, 6, 3)
        self.paper = tuple(int(np.clip(paper + t, 200, 255)) for t in tint)
        self.red = (int(rng.integers(170, 240)), int(rng.integers(0, 60)), int(rng.integers(0, 70)))
        grey = int(rng.integers(0, 50))
        self.black = (grey, grey, grey + int(rng.integers(0, 40)))
        self.four_colour = bool(rng.random() < 0.15)
        self.corner_r = int(W * rng.uniform(0.03, 0.09))
        self.frame = rng.random() < 0.4
        self.court_inset = float(rng.uniform(0.17, 0.3))         # court picture frame, share of the width
        self.suit_shapes: SuitShapes | None = None  # suits drawn from parameters (font_deck's drawn_suits)

    def colour(self, card: Card) -> tuple[int, int, int]:
        if self.four_colour and card.suit.value == "d":
            return (20, 60, 200)
        if self.four_colour and card.suit.value == "c":
            return (20, 130, 40)
        return self.red if card.suit.is_red else self.black


def _index(card: Card, style: FontDeckStyle) -> PILImage.Image:
    """Rank over suit, on a transparent layer (the top-left index, upright)."""
    colour = style.colour(card)
    text = LETTERS.get(card.rank, card.rank.symbol)
    font = _font(style.rank_font, int(style.rank_h * 1.45))
    rank = _ink_layer(text, font, colour, style.squeeze * (style.ten_squeeze if text == "10" else 1.0))
    if rank.height:
        rank = _to_height(rank, style.rank_h)
    suit = _suit_layer(card.suit.value, style.suit_h, colour, style.suit_font, style.suit_shapes)
    w = max(rank.width, suit.width) + 2
    layer = PILImage.new("RGBA", (w, rank.height + style.gap + suit.height), (0, 0, 0, 0))
    layer.alpha_composite(rank, ((w - rank.width) // 2, 0))
    sx = int(np.clip((w - suit.width) / 2 + style.suit_offset * rank.height, 0, w - suit.width))
    layer.alpha_composite(suit, (sx, rank.height + style.gap))
    return layer


_PIPS: dict[int, list[tuple[float, float]]] = {  # pip centres in the face's unit square (x, y), for 2..10
    2: [(0.5, 0.0), (0.5, 1.0)], 3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)], 5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


def _face(card: Card, style: FontDeckStyle, rng: np.random.Generator, index_w: int) -> PILImage.Image:
    """The card without its indices: paper, frame, pips or a court picture."""
    h = style.height
    img = PILImage.new("RGBA", (W, h), (*style.paper, 255))
    draw = ImageDraw.Draw(img)
    colour = style.colour(card)
    left = style.margin[0] + index_w + int(W * 0.04)
    if style.frame:
        inset = int(W * 0.015)
        draw.rounded_rectangle((inset, inset, W - inset, h - inset), style.corner_r, outline=(90, 90, 90, 255),
                               width=2)
    if card.rank > 10 and card.rank < 14:     # court: a framed picture of random shapes
        x0, y0 = max(left, int(W * style.court_inset)), int(h * 0.1)
        draw.rectangle((x0, y0, W - x0, h - y0), outline=(*colour, 255), width=3)
        palette = [colour, (210, 170, 40), (40, 60, 160), (30, 30, 30), (200, 60, 40)]
        for _ in range(int(rng.integers(10, 30))):
            c = palette[int(rng.integers(len(palette)))]
            x, y = rng.uniform(x0, W - x0, 2), rng.uniform(y0, h - y0, 2)
            if rng.random() < 0.5:
                draw.line((x[0], y[0], x[1], y[1]), fill=(*c, 255), width=int(rng.integers(2, 8)))
            else:
                draw.ellipse((min(x), min(y), max(x), max(y)), fill=(*c, 255))
        return img
    pip_h = int(W * (rng.uniform(0.3, 0.45) if card.rank == 14 else rng.uniform(0.12, 0.17)))
    pip = _suit_layer(card.suit.value, pip_h, colour, style.suit_font, style.suit_shapes)
    flipped = pip.rotate(180)
    if card.rank == 14:
        img.alpha_composite(pip, ((W - pip.width) // 2, (h - pip.height) // 2))
        return img
    x0, x1 = max(left, int(W * 0.25)), W - max(left, int(W * 0.25)) - pip.width
    y0, y1 = int(h * 0.16), int(h * 0.84) - pip.height
    for px, py in _PIPS[card.rank]:
        art = flipped if py > 0.55 else pip
        img.alpha_composite(art, (int(x0 + px * (x1 - x0)), int(y0 + py * (y1 - y0))))
    return img


def draw_font_card(card: Card, style: FontDeckStyle, rng: np.random.Generator) -> tuple[Image, tuple[float, ...]]:
    """One card (BGRA, W x style.height) and its top-left index box (x0, y0, x1, y1)."""
    index = _index(card, style)
    img = _face(card, style, rng, index.width)
    mx, my = style.margin
    img.alpha_composite(index, (mx, my))
    img.alpha_composite(index.rotate(180), (W - mx - index.width, style.height - my - index.height))
    rgba = np.asarray(img).copy()
    mask = np.zeros(rgba.shape[:2], np.uint8)
    r = style.corner_r
    cv2.rectangle(mask, (r, 0), (W - 1 - r, style.height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (W - 1, style.height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, style.height - 1 - r), (W - 1 - r, style.height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    rgba[..., 3] = mask
    bgra = np.ascontiguousarray(rgba[..., [2, 1, 0, 3]])
    box = (float(mx), float(my), float(mx + index.width), float(my + index.height))
    return bgra, box


def font_deck(seed: int, drawn_suits: bool = False, debian_fonts: bool = False) -> CardArt:
    """One procedural deck (all 52 cards in one drawn style), reproducible from ``seed``; ``drawn_suits``: its
    suits (index and pips) drawn from parameters (``datasets.suit_shapes``, their own generator) instead of a
    font's glyphs or the one plain shape, the rest of the deck as without; ``debian_fonts``: its fonts chosen among
    the Debian font packages' too (``datasets.debian_fonts``)."""
    rng = np.random.default_rng(seed)
    style = FontDeckStyle(rng, debian_fonts)
    if drawn_suits:
        style.suit_shapes = SuitShapes(np.random.default_rng([seed, 2]))
    drawn = [draw_font_card(c, style, rng) for c in DECK]
    stack = np.stack([d[0] for d in drawn])
    boxes = np.array([d[1] for d in drawn], dtype=np.float64)
    name = f"fonts{'-debian' if debian_fonts else ''}{'-drawn' if drawn_suits else ''}-{seed}"
    return CardArt(name=name, family="fonts", images=stack, boxes=boxes, back=None, mips=tuple(make_mips(stack)))
