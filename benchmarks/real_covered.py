"""How the whole detector reads real indices covered down to strips in the photo: tight rows made of real photos.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/real_covered.py [--models DIR ...] [--splits val test]  # needs torch

``benchmarks/real_strips.py`` cuts 64 px reader crops, each at its whole index's box: it shows the readers' blind
spot, but not what the runtime does with a strip, which stage 1 boxes around what shows and the readers then read
in a crop centred there. Here the cut is made in the photo itself. In every photo of
``../shared/realcards/cardcounter``'s held-out blocks (``val`` and ``test``; speckled ones median-filtered first, as
the runtime filters them), each card whose labelled indices stand clear of the others is covered as the next card
of a tight row covers it (``training.neighbours.cut_one``: the covering card's edge, a grey line and a soft shadow,
and its own index just past the edge, a real index of another held-out photo of a card not in this one, turned and
scaled alike), in the index's own upright frame: from the right leaving 80 / 60 / 45 % of its labelled width, the
same slanted 12 deg (a fan), from below leaving 75 / 55 % of its height (the next row over the suit). Cards are
covered a few at a time, far enough apart that no covering reaches another's index, and the photo is read whole by
the detector. The label of a covered index becomes the box of what shows, as a person would label it.

Printed per models folder and setting: the covered cards, recall, the labelled indices stage 1 located, and of the
reads lying on a covered card, those at or above the confidence floor (0.85) that are wrong, as
``training.evaluate_real`` counts them, and how many of those took the rank of the covering card's own index (it
lies just past the strip, in the readers' crop too). ``whole`` reads the same cards uncovered. ``--misses`` lists
each covered card not read right, with the cards covering it.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from training.evaluate_real import SourceReport, add_held_out_arguments, located_boxes, score_photo
from training.realcrops import clear_of, upright_turn
from training.realsets import Box, LabelledIndex, RealPhoto, cardcounter
from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks
from vision.types import MIN_CONFIDENCE

SETTINGS: tuple[tuple[str, str, float, float], ...] = (  # name, side, keep, slant (deg)
    ("whole", "", 1.0, 0.0),
    ("right 80 %", "right", 0.8, 0.0),
    ("right 70 %", "right", 0.7, 0.0),
    ("right 60 %", "right", 0.6, 0.0),
    ("right 70 %, fan 12 deg", "right", 0.7, 12.0),
    ("below 85 %", "below", 0.85, 0.0),
    ("below 75 %", "below", 0.75, 0.0),
)
REGION = 2.6   # the square edited around an index, in its long sides
CARD_MARGIN = 0.35  # the covering card's edge past the covered index's ink, in index heights (a row laid level)
CLEAR = 0.3    # a coverable index stands this many of its short sides clear of every other labelled index
EDGE_BLUR = 0.7  # px: the camera's softening of the pasted edge


@dataclass(frozen=True)
class Upright:
    """One labelled index of a photo, with the quarter turn (``np.rot90`` k) that shows it upright."""

    photo: int
    index: LabelledIndex
    turn: int


def _clear(ix: LabelledIndex, photo: RealPhoto) -> bool:
    return clear_of(ix.box, (o for o in photo.indices if o is not ix), CLEAR * ix.size)


def _region(box: Box) -> tuple[int, int, int]:
    """The square (x, y of its corner, side) edited around ``box``, in photo pixels."""
    side = round(REGION * max(box[2] - box[0], box[3] - box[1]))
    side += side % 2
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return round(cx - side / 2), round(cy - side / 2), side


def _upright_box(box: Box, region: tuple[int, int, int], turn: int) -> tuple[int, int, int, int]:
    """``box`` in the upright square of ``region``: x0, x1, y0, y1 inclusive (``training.neighbours``' ink box)."""
    x, y, side = region
    mask = np.zeros((side, side), np.uint8)
    top, bottom = max(0, int(box[1]) - y), max(0, int(np.ceil(box[3])) - y)
    left, right = max(0, int(box[0]) - x), max(0, int(np.ceil(box[2])) - x)
    mask[top:bottom, left:right] = 1
    ys, xs = np.nonzero(np.rot90(mask, turn))
    return int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())


def _from_upright(ux0: int, ux1: int, uy0: int, uy1: int, region: tuple[int, int, int], turn: int) -> Box:
    """A box of the upright square of ``region`` back in photo pixels."""
    x, y, side = region
    mask = np.zeros((side, side), np.uint8)
    mask[uy0:uy1 + 1, ux0:ux1 + 1] = 1
    ys, xs = np.nonzero(np.rot90(mask, -turn))
    return float(x + xs.min()), float(y + ys.min()), float(x + xs.max() + 1), float(y + ys.max() + 1)


def _square(padded: npt.NDArray[np.uint8], region: tuple[int, int, int], pad: int) -> npt.NDArray[np.uint8]:
    x, y, side = region
    return padded[y + pad:y + pad + side, x + pad:x + pad + side]


def _paper(square: npt.NDArray[np.uint8]) -> float:
    return float(np.percentile(square.mean(axis=2), 90)) / 255.0


def covered(image: npt.NDArray[np.uint8], targets: list[Upright], donors: list[tuple[npt.NDArray[np.uint8], Upright]],
            side: str, keep: float, slant: float, seed: int) -> tuple[npt.NDArray[np.uint8], list[LabelledIndex]]:
    """``image`` with each of ``targets`` covered from ``side`` by a card whose index is one of ``donors`` (a photo
    and an index of it), and the targets' labels cut to what shows."""
    import torch

    from training.neighbours import cut_one

    pad = int(max(_region(t.index.box)[2] for t in targets)) + 4
    padded = np.asarray(cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT), np.uint8)
    gen = torch.Generator().manual_seed(seed)
    labels = []
    for n, t in enumerate(targets):
        region = _region(t.index.box)
        ink = _upright_box(t.index.box, region, t.turn)
        up = np.ascontiguousarray(np.rot90(_square(padded, region, pad), t.turn))
        donor_image, donor = donors[n % len(donors)]
        dregion = _region(donor.index.box)
        dpad = dregion[2] + 4
        dsrc = np.asarray(cv2.copyMakeBorder(donor_image, dpad, dpad, dpad, dpad, cv2.BORDER_REFLECT), np.uint8)
        dup = np.rot90(_square(dsrc, dregion, dpad), donor.turn)
        f = region[2] / dregion[2]
        dup = np.asarray(cv2.resize(np.ascontiguousarray(dup), (region[2], region[2]),
                                    interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR), np.uint8)
        dink = tuple(round(v * f) for v in _upright_box(donor.index.box, dregion, donor.turn))
        img = torch.from_numpy(up.transpose(2, 0, 1).astype(np.float32) / 255.0)
        src = torch.from_numpy(dup.transpose(2, 0, 1).astype(np.float32) / 255.0) * (_paper(up) / max(_paper(dup), 0.2))
        margin = max(2, round(0.12 * (ink[1] - ink[0] + 1)))
        cut_one(img, ink, src.clamp(0, 1), dink, gen, side, keep, slant if n % 2 == 0 else -slant, margin, 0)  # type: ignore[arg-type]
        out = (img.clamp(0, 1).numpy().transpose(1, 2, 0) * 255).round().astype(np.uint8)
        x0, x1, y0, y1 = ink
        if side == "right":   # the covering card's top edge level with the covered card's: the table above it
            top = max(0, round(y0 - CARD_MARGIN * (y1 - y0 + 1)))
            out[:top] = up[:top]
            x1 = x0 + max(1, int(keep * (x1 - x0 + 1))) - 1      # what shows
        else:                 # the next row's card starts a margin left of the index, as the covered card does
            left = max(0, round(x0 - CARD_MARGIN * (y1 - y0 + 1)))
            out[:, :left] = up[:, :left]
            y1 = y0 + max(1, int(keep * (y1 - y0 + 1))) - 1
        changed = np.abs(out.astype(np.int16) - up.astype(np.int16)).max(axis=2) > 0
        near = cv2.dilate(changed.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        soft = cv2.GaussianBlur(out, (0, 0), EDGE_BLUR)
        out[near] = soft[near]
        _square(padded, region, pad)[:] = np.rot90(out, -t.turn)
        labels.append(LabelledIndex(t.index.card, _from_upright(x0, x1, y0, y1, region, t.turn)))
    h, w = image.shape[:2]
    return np.ascontiguousarray(padded[pad:pad + h, pad:pad + w]), labels


def took_covering_rank(truth: str, read: str | None, covering: set[str]) -> bool:
    """Whether a covered card ``truth`` read as ``read`` took its rank from one of the ``covering`` cards (whose own
    index lies just past the strip) instead of its own.

    >>> [took_covering_rank("Ad", read, {"Kc"}) for read in ("Kd", "As", None)], took_covering_rank("Kd", "Ks", {"Kc"})
    ([True, False, False], False)
    """
    return read is not None and read[0] != truth[0] and read[0] in {c[0] for c in covering}


def rounds(photo: RealPhoto, uprights: list[Upright]) -> list[list[Upright]]:
    """The photo's coverable cards (every labelled index of the card clear of the others) in groups far enough
    apart that no covering reaches another group member's index."""
    by_card: dict[str, list[Upright]] = {}
    for u in uprights:
        by_card.setdefault(u.index.card, []).append(u)
    cards = [us for us in by_card.values() if all(_clear(u.index, photo) for u in us)]
    groups: list[list[list[Upright]]] = []
    for us in cards:
        spans = [_region(u.index.box) for u in us]
        for g in groups:
            taken = [_region(v.index.box) for vs in g for v in vs]
            if all(a[0] + a[2] + b[2] < b[0] or b[0] + b[2] + a[2] < a[0] or a[1] + a[2] + b[2] < b[1]
                   or b[1] + b[2] + a[2] < a[1] for a in spans for b in taken):
                g.append(us)
                break
        else:
            groups.append([us])
    return [[u for us in g for u in us] for g in groups]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_held_out_arguments(ap)
    ap.add_argument("--settings", nargs="+", default=[name for name, *_ in SETTINGS],
                    choices=[name for name, *_ in SETTINGS], metavar="SETTING", help="some of: %(choices)s")
    ap.add_argument("--misses", action="store_true", help="list each covered card not read right")
    args = ap.parse_args(argv)
    photos = [p for split in args.splits for p in cardcounter(split)]
    base = CardDetector()
    images = [without_specks(read_image(p.path), base.speckled_share) for p in photos]
    uprights: list[list[Upright]] = []
    for i, (photo, image) in enumerate(zip(photos, images, strict=True)):
        st = base.detect(image).widened
        uprights.append([Upright(i, ix, upright_turn(base, image, ix.box, ix.card, st)[0]) for ix in photo.indices])
    plan = [rounds(p, u) for p, u in zip(photos, uprights, strict=True)]
    pool = [u for us, p in zip(uprights, photos, strict=True) for u in us if _clear(u.index, p)]
    print(f"cardcounter {' + '.join(args.splits)}: {len(photos)} photos, "
          f"{sum(len({u.index.card for u in g}) for gs in plan for g in gs)} cards coverable, "
          f"{sum(len(gs) for gs in plan)} photo copies a setting")
    print(f"{'models':<28} {'setting':<24} {'cards':>6} {'recall':>7} {'located':>9} {'confident reads wrong':>22}")
    for models in args.models:
        detector = CardDetector(models)
        for k, (name, side, keep, slant) in enumerate(SETTINGS):
            if name not in args.settings:
                continue
            report = SourceReport(name)
            under: dict[tuple[str, str], set[str]] = {}   # (photo, covered card) -> the covering cards
            for i, (photo, image) in enumerate(zip(photos, images, strict=True)):
                donors = [(images[u.photo], u) for u in pool if u.photo != i and u.index.card not in photo.cards]
                for g, group in enumerate(plan[i]):
                    if side:
                        rng = np.random.default_rng(1000 * k + 10 * i + g)
                        picks = [donors[int(j)] for j in rng.choice(len(donors), size=len(group), replace=False)]
                        seen, labels = covered(image, group, picks, side, keep, slant, seed=1000 * k + 10 * i + g)
                        for u, (_, donor) in zip(group, picks, strict=True):
                            under.setdefault((photo.path.name, u.index.card), set()).add(donor.index.card)
                    else:
                        seen, labels = image, [u.index for u in group]
                    found = detector.detect(seen)
                    score_photo(report, RealPhoto(photo.path, tuple(labels)), found.cards, located_boxes(found))
            sure = sum(c >= MIN_CONFIDENCE for c, _ in report.read_confidences)
            print(f"{str(models)[-28:]:<28} {name:<24} {report.cards:>6} {report.found / max(report.cards, 1):>7.3f} "
                  f"{report.indices_located:>4}/{report.indices:<4} {report.confident_wrong:>9} of {sure:<6}",
                  flush=True)
            borrowed = [m for m in report.misses if m.confidence >= MIN_CONFIDENCE
                        and took_covering_rank(m.truth, m.read, under.get((m.photo.name, m.truth), set()))]
            if side and report.confident_wrong:
                print(f"{'':<28} {'':<24} of the confident reads wrong, {len(borrowed)} read the covering card's rank")
            if args.misses:
                for m in report.misses:
                    covering = ", ".join(sorted(under.get((m.photo.name, m.truth), set())))
                    print(f"    {m.photo.name[:40]} {m.truth} read {m.read or '-'} {m.confidence:.2f}"
                          f"{'' if m.found_by_stage1 else ' (not located)'}"
                          f"{f'  covered by {covering}' if covering else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
