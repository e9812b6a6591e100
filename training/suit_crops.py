"""The club-or-spade reader's data: the crops of clubs and spades of a reader phase's crop folders, as two classes.

A webcam's clubs, a few pixels wide, lose their lobes and read as spades (the misses of the real cardcounter
photos: 12 of 19 a club and a spade taken for each other). ``vision.detector``'s suit reader, asked about every
index read as a black card, is trained on the black cards' crops alone (``c``: every club, ``s``: every spade,
whatever the rank), linked from the reader's own crop folders, so it learns nothing but that one difference.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

SUITS = ("c", "s")


@dataclass(frozen=True)
class SuitSource:
    """A crop folder (its ``train`` or ``val`` split, one folder per card) the suit reader learns from:
    each of its clubs and spades linked ``repeats`` times (a small real set weighed up), a ``share`` of them."""

    folder: Path
    repeats: int = 1
    share: float = 1.0


def build_suit_crops(out: Path, split: str, sources: list[SuitSource], seed: int) -> dict[str, int]:
    """``out/split/{c,s}``: links to the clubs' and spades' crops of ``sources`` (``source/split/<card>/*.jpg``);
    how many of each. Made once (a ``.done_<split>`` file); the choice of a share is seeded, so the folder is
    the same on every machine that has the same crops."""
    done = out / f".done_{split}"
    if done.exists():
        made = done.read_text().split()
        return dict(zip(SUITS, (int(c) for c in made), strict=True))
    rng = random.Random(seed)
    counts = dict.fromkeys(SUITS, 0)
    for suit in SUITS:
        dest = out / split / suit
        dest.mkdir(parents=True, exist_ok=True)
        for src in sources:
            root = src.folder / split
            if not root.is_dir():
                continue
            for card in sorted(p for p in root.iterdir() if p.is_dir() and len(p.name) == 2 and p.name[1] == suit):
                for f in sorted(card.glob("*.jpg")):
                    if rng.random() >= src.share:
                        continue
                    for r in range(src.repeats):
                        link = dest / f"{src.folder.name}_{r}_{f.name}"
                        if not link.exists():
                            os.symlink(f.resolve(), link)
                        counts[suit] += 1
    done.write_text(" ".join(str(counts[s]) for s in SUITS))
    return counts


__all__ = ["SUITS", "SuitSource", "build_suit_crops"]
