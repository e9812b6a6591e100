"""Contact sheet of the rendered decks with their index boxes drawn, to check the cache by eye.

    python -m datasets.art_sheet OUT.png [--cards Ah,Td,Qs,Kh,7c]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from referee.cards import Card

from .art_cache import available_decks, cards_dir, load_deck
from .index_box import rotate_box_180


def contact_sheet(cards: list[Card], cell_w: int = 160, zoom: bool = False,
                  decks: list[str] | None = None) -> np.ndarray:
    """One row per cached deck; ``zoom`` shows only the top-left corner, enlarged."""
    rows = []
    for name in decks or list(available_decks()):
        art = load_deck(cards_dir() / name)
        w, h = art.size
        scale = cell_w / w
        cells = []
        for card in cards:
            img = np.array(art.images[card.index])
            bg = np.full((h, w, 3), (60, 110, 60), np.uint8)
            a = img[:, :, 3:4].astype(np.float32) / 255
            comp = (img[:, :, :3] * a + bg * (1 - a)).astype(np.uint8)
            for box in (art.boxes[card.index], rotate_box_180(tuple(art.boxes[card.index]), w, h)):
                x0, y0, x1, y1 = (round(v) for v in box)
                cv2.rectangle(comp, (x0, y0), (x1, y1), (255, 0, 255), 1 if zoom else 3)
            if zoom:
                comp = comp[: round(0.4 * h), : round(0.36 * w)]
                scale = cell_w / comp.shape[1]
            cells.append(cv2.resize(comp, (cell_w, round(comp.shape[0] * scale)), interpolation=cv2.INTER_AREA))
        height = max(c.shape[0] for c in cells)
        cells = [np.pad(c, ((0, height - c.shape[0]), (0, 4), (0, 0))) for c in cells]
        row = np.hstack(cells)
        cv2.putText(row, name, (4, height - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 255), 1)
        rows.append(row)
    width = max(r.shape[1] for r in rows)
    return np.vstack([np.pad(r, ((0, 4), (0, width - r.shape[1]), (0, 0))) for r in rows])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.art_sheet")
    ap.add_argument("out", type=Path)
    ap.add_argument("--cards", default="Ah,Td,Qs,Kh,7c,Jd")
    ap.add_argument("--zoom", action="store_true", help="top-left corners only, enlarged")
    ap.add_argument("--deck", action="append", help="only this deck (repeatable)")
    args = ap.parse_args(argv)
    cards = [Card.parse(t) for t in args.cards.split(",")]
    cv2.imwrite(str(args.out), contact_sheet(cards, 110 if args.zoom else 160, args.zoom, args.deck))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
