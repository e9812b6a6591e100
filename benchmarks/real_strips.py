"""How the readers read real indices cut down to strips: the held-out real crops, cut as tight rows and fans cut them.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/real_strips.py [--models DIR ...] [--splits val test]  # needs torch

The strips of real phone photos of tight rows and fans (3-6 mm of a corner showing) are what the readers miss
most, and no labelled photo here holds many of them. This benchmark makes them from real pixels: every labelled
index of ``../shared/realcards/cardcounter``'s held-out blocks (``val``, ``test``; one crop each, cut at its
labelled box as the runtime reads the photo, widened back and median-filtered where speckled, turned upright:
``training.realcrops``) whose ink is whole enough to cut (``training.neighbours.whole_enough``) is read as it is
and cut down by another crop of the set laid over it as the covering card (``training.neighbours.cut_one``): from
the right leaving 80 / 60 / 45 % of the ink's width, the same slanted 12 deg (a fan), from below leaving 75 / 55 %
of its height (the next row over the suit). The covering edge and its index are the same for every model (seeded
by setting).

Read as the runtime reads one crop (``vision.detector``: the first reader in four turns, the second reader's
mean where the first is below 0.9, the best card over the turns; the reject class wins where it is likelier),
it prints for each models folder and setting: the crops, how many are read right (best card) and of the right
rank, read right at all (at least the reading floor, 0.45, and not rejected), read wrong at or above the
confidence floor (0.85), and the mean probability of the true card and of its rank (any suit). A cut from the
side hides part of the suit too, and in these squashed, tilted webcam crops often all of it (the next card's
suit then shows where this one's was): there the suit cannot be read, the rank can, and a confident read of
one suit is the error that matters. The cut is the same augmentation ``cls26`` trains on (on other crops: the
real train blocks' and synthetic ones), so a reader trained with it is expected to gain here; what this shows is
how much, and what it costs on whole indices (the ``whole`` row).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

from training.evaluate_real import add_held_out_arguments
from vision.detector import CardDetector
from vision.join import READ_FLOOR
from vision.tiles import BG_CLASS
from vision.types import MIN_CONFIDENCE

SETTINGS: tuple[tuple[str, str, float, float], ...] = (  # name, side, keep, slant (deg)
    ("whole", "", 1.0, 0.0),
    ("right 80 %", "right", 0.8, 0.0),
    ("right 60 %", "right", 0.6, 0.0),
    ("right 45 %", "right", 0.45, 0.0),
    ("right 60 %, fan 12 deg", "right", 0.6, 12.0),
    ("below 75 %", "below", 0.75, 0.0),
    ("below 55 %", "below", 0.55, 0.0),
)


def real_crops(splits: list[str], work: Path) -> tuple[np.ndarray, list[str]]:
    """Upright crops (N, 3, 64, 64 uint8, BGR as read) of every labelled index of ``splits`` and their cards."""
    from training.realcrops import build_real_crops
    from training.realsets import cardcounter

    det = CardDetector()
    images, cards = [], []
    for split in splits:
        build_real_crops(cardcounter(split), work, split, variants=1, bg_per_photo=0, flip_bg=0.0, detector=det,
                         as_read=True, filtered=True)
        for f in sorted((work / split).glob("*/*.jpg")):
            if f.parent.name == BG_CLASS:
                continue
            image = cv2.imread(str(f))
            if image is None:
                raise SystemExit(f"{f}: not readable as an image")
            images.append(image.transpose(2, 0, 1))
            cards.append(f.parent.name)
    return np.ascontiguousarray(np.stack(images)), cards


def cut_set(x: np.ndarray, side: str, keep: float, slant: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The crops ``x`` cut (float 0..1), and which of them could be (ink whole enough)."""
    import torch

    from training.neighbours import cut_one, ink_extents, ink_of, whole_enough

    xt = torch.from_numpy(x)
    ink, paper = ink_extents(xt)
    ok = whole_enough(ink).numpy()
    xf = xt.float() / 255.0
    out = xf.clone()
    if side:
        gen = torch.Generator().manual_seed(seed)
        n = len(x)
        for i in range(n):
            j = (i * 7919 + 17) % n
            if j == i:
                j = (i + 1) % n
            tone = float(paper[i] / paper[j].clamp(min=0.2))
            s = slant if i % 2 == 0 else -slant
            cut_one(out[i], ink_of(ink, i), xf[j] * tone, ink_of(ink, j), gen,
                    side, keep, s, 2 + i % 5, (i % 9) - 4)
    return out.clamp(0, 1).numpy(), ok


def read(det: CardDetector, x: np.ndarray) -> np.ndarray:
    """The probabilities (N, classes) of the crops ``x`` (float 0..1, N x 3 x S x S, BGR) at the turn the runtime
    would choose (``CardDetector.read_crops``: the first reader, the second's opinion where the first is unsure)."""
    probs = det.read_crops([np.ascontiguousarray((c.transpose(1, 2, 0) * 255).round().astype(np.uint8)) for c in x])
    turn = det._best_card(probs).argmax(axis=1)
    return np.asarray(probs[np.arange(len(x)), turn])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_held_out_arguments(ap)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        x, cards = real_crops(args.splits, Path(tmp))
    cut = {name: cut_set(x, side, keep, slant, seed=k) for k, (name, side, keep, slant) in enumerate(SETTINGS)}
    print(f"real crops of cardcounter {' + '.join(args.splits)}: {len(x)} labelled indices, "
          f"{int(cut['whole'][1].sum())} whole enough to cut")
    print(f"{'models':<28} {'setting':<24} {'crops':>5} {'right':>6} {'rank':>6} {'read':>6} {'sure wrong':>10} "
          f"{'p(true)':>8} {'p(rank)':>8}")
    for models in args.models:
        det = CardDetector(models)
        names = det.names
        truth = np.array([names.index(c) for c in cards])
        rank_of = np.array([n[0] if n != BG_CLASS else "" for n in names])
        same_rank = rank_of[None, :] == rank_of[truth][:, None]            # (N, classes)
        for name, _side, _keep, _slant in SETTINGS:
            xs, ok = cut[name]
            p = read(det, xs[ok])
            t = truth[ok]
            cardp = p.copy()
            cardp[:, det.bg] = -1
            best = cardp.argmax(axis=1)
            bp = cardp[np.arange(len(t)), best]
            taken = (bp >= READ_FLOOR) & (p[:, det.bg] <= bp)
            right = best == t
            rank_right = rank_of[best] == rank_of[t]
            p_rank = (p * same_rank[ok]).sum(axis=1)
            sure_wrong = taken & ~right & (bp >= MIN_CONFIDENCE)
            print(f"{str(models)[-28:]:<28} {name:<24} {len(t):>5} {right.mean():>6.3f} {rank_right.mean():>6.3f} "
                  f"{(taken & right).mean():>6.3f} {int(sure_wrong.sum()):>10} "
                  f"{float(p[np.arange(len(t)), t].mean()):>8.3f} {float(p_rank.mean()):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
