"""Real indices covered in the photo as the next card of a tight row or fan covers them.

In a photo of ``../shared/realcards/cardcounter`` each card whose labelled indices stand clear of the others can
be covered as the next card of a tight row covers it (``training.neighbours.cut_one``: the covering card's edge, a
grey line and a soft shadow, and its own index just past the edge, a real index of another photo of a card not
in this one, turned and scaled alike), in the index's own upright frame, from the right or from below, its edge
level or slanted as a fan's. The label of a covered index becomes the box of what shows, as a person would label
it. ``benchmarks/real_covered.py`` reads the held-out blocks covered so; ``build_covered_crops`` cuts reader crops
of the train blocks covered so (phases ``cls49``-``cls51``; ``cls50`` ships), around the labelled strip and around
stage 1's own box on it; ``build_covered_photos`` keeps the covered train photos whole, labelled for stage 1 (phase
``det11``, not shipped).

    python -m training.realcover --split train --out datasets/generated/detector/crops_real_covered   # needs torch
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.detector import CardDetector
from vision.image_io import read_image
from vision.specks import without_specks
from vision.tiles import crop_square

from .evaluate_real import lies_on
from .neighbours import INK_BELOW_PAPER
from .realcrops import clear_of, upright_turn
from .realsets import Box, LabelledIndex, RealPhoto, cardcounter

REGION = 2.6   # the square edited around an index, in its long sides
CARD_MARGIN = 0.35  # the covering card's edge past the covered index's ink, in index heights (a row laid level)
CLEAR = 0.3    # a coverable index stands this many of its short sides clear of every other labelled index
EDGE_BLUR = 0.7  # px: the camera's softening of the pasted edge
SHOWN_WHOLE = 0.6  # a covering card's own index cut off by the edited square's edge is labelled where this much shows


@dataclass(frozen=True)
class Upright:
    """One labelled index of a photo, with the quarter turn (``np.rot90`` k) that shows it upright."""

    photo: int
    index: LabelledIndex
    turn: int


def stands_clear(ix: LabelledIndex, photo: RealPhoto) -> bool:
    return clear_of(ix.box, (o for o in photo.indices if o is not ix), CLEAR * ix.size)


def region_of(box: Box) -> tuple[int, int, int]:
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
    seen, labels, _ = covered_with_covering(image, targets, donors, side, keep, slant, seed)
    return seen, labels


def _cut_to(box: Box, within: Box) -> Box | None:
    """``box`` cut to ``within`` (both x0, y0, x1, y1, the ends excluded), or None where less than ``SHOWN_WHOLE``
    of it is left."""
    x0, y0, x1, y1 = max(box[0], within[0]), max(box[1], within[1]), min(box[2], within[2]), min(box[3], within[3])
    area = (box[2] - box[0]) * (box[3] - box[1])
    if x1 <= x0 or y1 <= y0 or (x1 - x0) * (y1 - y0) < SHOWN_WHOLE * area:
        return None
    return x0, y0, x1, y1


def covered_with_covering(image: npt.NDArray[np.uint8], targets: list[Upright],
                          donors: list[tuple[npt.NDArray[np.uint8], Upright]], side: str, keep: float, slant: float,
                          seed: int) -> tuple[npt.NDArray[np.uint8], list[LabelledIndex], list[LabelledIndex]]:
    """``covered``, and the covering cards' own indices pasted just past each edge, labelled as they show in the
    photo (an index stage 1 is to find too; left out where the edited square cuts off much of it)."""
    import torch

    from training.neighbours import cut_one

    pad = int(max(region_of(t.index.box)[2] for t in targets)) + 4
    padded = np.asarray(cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT), np.uint8)
    gen = torch.Generator().manual_seed(seed)
    labels, covering = [], []
    for n, t in enumerate(targets):
        region = region_of(t.index.box)
        ink = _upright_box(t.index.box, region, t.turn)
        up = np.ascontiguousarray(np.rot90(_square(padded, region, pad), t.turn))
        donor_image, donor = donors[n % len(donors)]
        dregion = region_of(donor.index.box)
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
        dw, dh = dink[1] - dink[0], dink[3] - dink[2]
        if side == "right":   # the covering card's top edge level with the covered card's: the table above it
            top = max(0, round(y0 - CARD_MARGIN * (y1 - y0 + 1)))
            out[:top] = up[:top]
            dx = round(x0 + keep * (x1 - x0 + 1)) + margin          # where cut_one lays the covering card's index
            own = _cut_to((dx, dink[2], dx + dw + 1, dink[2] + dh + 1), (0, top, region[2], region[2]))
            x1 = x0 + max(1, int(keep * (x1 - x0 + 1))) - 1      # what shows
        else:                 # the next row's card starts a margin left of the index, as the covered card does
            left = max(0, round(x0 - CARD_MARGIN * (y1 - y0 + 1)))
            out[:, :left] = up[:, :left]
            dy = round(y0 + keep * (y1 - y0 + 1)) + margin
            own = _cut_to((x0, dy, x0 + dw + 1, dy + dh + 1), (left, 0, region[2], region[2]))
            y1 = y0 + max(1, int(keep * (y1 - y0 + 1))) - 1
        if own is not None:
            ox0, oy0, ox1, oy1 = (int(v) for v in own)
            covering.append(LabelledIndex(donor.index.card, _from_upright(ox0, ox1 - 1, oy0, oy1 - 1, region, t.turn)))
        changed = np.abs(out.astype(np.int16) - up.astype(np.int16)).max(axis=2) > 0
        near = cv2.dilate(changed.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        soft = cv2.GaussianBlur(out, (0, 0), EDGE_BLUR)
        out[near] = soft[near]
        _square(padded, region, pad)[:] = np.rot90(out, -t.turn)
        labels.append(LabelledIndex(t.index.card, _from_upright(x0, x1, y0, y1, region, t.turn)))
    h, w = image.shape[:2]
    inside = [ix for ix in covering if _cut_to(ix.box, (0, 0, w, h)) is not None]   # not in the reflected border
    return np.ascontiguousarray(padded[pad:pad + h, pad:pad + w]), labels, inside


def rounds(photo: RealPhoto, uprights: list[Upright]) -> list[list[Upright]]:
    """The photo's coverable cards (every labelled index of the card clear of the others) in groups far enough
    apart that no covering reaches another group member's index."""
    by_card: dict[str, list[Upright]] = {}
    for u in uprights:
        by_card.setdefault(u.index.card, []).append(u)
    cards = [us for us in by_card.values() if all(stands_clear(u.index, photo) for u in us)]
    groups: list[list[list[Upright]]] = []
    for us in cards:
        spans = [region_of(u.index.box) for u in us]
        for g in groups:
            taken = [region_of(v.index.box) for vs in g for v in vs]
            if all(a[0] + a[2] + b[2] < b[0] or b[0] + b[2] + a[2] < a[0] or a[1] + a[2] + b[2] < b[1]
                   or b[1] + b[2] + a[2] < a[1] for a in spans for b in taken):
                g.append(us)
                break
        else:
            groups.append([us])
    return [[u for us in g for u in us] for g in groups]


@dataclass(frozen=True)
class Coverable:
    """Real photos ready to be covered: each as the runtime reads it (median-filtered where speckled), its labelled
    indices upright, its coverable cards in groups (``rounds``), and the indices of all the photos that may serve as
    another photo's covering cards (every one clear of the others)."""

    photos: list[RealPhoto]
    images: list[npt.NDArray[np.uint8]]
    plan: list[list[list[Upright]]]
    pool: list[Upright]

    def donors_for(self, i: int) -> list[tuple[npt.NDArray[np.uint8], Upright]]:
        """The covering cards for photo ``i``: indices of the other photos, of cards not in photo ``i``."""
        return [(self.images[u.photo], u) for u in self.pool
                if u.photo != i and u.index.card not in self.photos[i].cards]


def coverable(photos: list[RealPhoto], detector: CardDetector) -> Coverable:
    images = [without_specks(read_image(p.path), detector.speckled_share) for p in photos]
    uprights: list[list[Upright]] = []
    for i, (photo, image) in enumerate(zip(photos, images, strict=True)):
        stretch = detector.find_as_read(image)[0]
        st = (stretch.sx, stretch.sy)
        uprights.append([Upright(i, ix, upright_turn(detector, image, ix.box, ix.card, st)[0])
                         for ix in photo.indices])
    plan = [rounds(p, u) for p, u in zip(photos, uprights, strict=True)]
    pool = [u for us, p in zip(uprights, photos, strict=True) for u in us if stands_clear(u.index, p)]
    return Coverable(photos, images, plan, pool)


KEEP_SIDE = (0.55, 0.85)   # the share of an index's width left showing by a card laid over it from the right
KEEP_BELOW = (0.6, 0.85)   # ... of its height, by the next row laid over it from below
BELOW = 0.3                # the share of coverings from below
SLANT_DEG = 15.0           # a fan's covering edge, turned up to this much off the index's axis (half of them)
MIN_INK_SHOWN = 0.4        # a strip showing less of its index's ink is no training target (a person reads no card)


def ink_shown(image: npt.NDArray[np.uint8], whole: Box, shown: Box) -> float:
    """The share of the ink of the index labelled ``whole`` (uncovered ``image``) that lies in ``shown``."""
    x0, y0, x1, y1 = (round(v) for v in whole)
    grey = image[max(0, y0):y1, max(0, x0):x1].mean(axis=2)
    if grey.size == 0:
        return 0.0
    ink = grey < np.percentile(grey, 90) - 255 * INK_BELOW_PAPER   # the readers' augmentation's ink, in grey levels
    total = int(ink.sum())
    if not total:
        return 0.0
    a, b, c, d = (round(v) - o for v, o in zip(shown, (x0, y0, x0, y0), strict=True))
    return float(ink[max(0, b):d, max(0, a):c].sum()) / total


def _drawn_covering(rng: np.random.Generator, donors: list[tuple[npt.NDArray[np.uint8], Upright]], n: int
                    ) -> tuple[list[tuple[npt.NDArray[np.uint8], Upright]], str, float, float, int]:
    """A covering drawn for a group of ``n`` cards, as ``covered``'s arguments after the targets: the covering cards
    (of ``donors``), a side, the share showing, a slant and a seed."""
    side = "below" if rng.random() < BELOW else "right"
    keep = float(rng.uniform(*(KEEP_BELOW if side == "below" else KEEP_SIDE)))
    slant = float(rng.uniform(-SLANT_DEG, SLANT_DEG)) if rng.random() < 0.5 else 0.0
    picks = [donors[int(j)] for j in rng.choice(len(donors), size=n, replace=len(donors) < n)]
    return picks, side, keep, slant, int(rng.integers(1 << 30))


def build_covered_crops(photos: list[RealPhoto], out: Path, split: str, copies: int = 3, variants: int = 6,
                        seed: int = 0, detector: CardDetector | None = None) -> int:
    """Reader crops of ``photos``' coverable cards, each group of them covered ``copies`` times (a side, a share
    showing and a slant drawn each time, a covering card drawn from the other photos), ``variants`` crops per
    covered index: around the labelled strip and, where stage 1 locates it, around stage 1's box (what the reader
    sees at run time), each shifted and scaled, cut as the runtime reads the photo (widened back where squashed),
    turned upright; a strip showing less than ``MIN_INK_SHOWN`` of its index's ink is left out. Written as
    ``OUT/<split>/<card>/*.jpg``, named by photo, group, copy, card and variant, so that of a card's two corners in
    one copy the later's crops replace the earlier's (as phase ``cls50`` was trained: distinct names would add crops
    it never saw); returns how many files there are."""
    detector = detector or CardDetector()
    rng = np.random.default_rng(seed)
    for name in detector.names:
        (out / split / name).mkdir(parents=True, exist_ok=True)
    ready = coverable(photos, detector)
    written: set[Path] = set()
    for cover in _coverings(ready, copies, rng):
        stretch, _, found, _ = detector.find_as_read(cover.seen)
        located = [stretch.box_from(b) for b in found.tolist()]
        for u, label in cover.readable:
            boxes = [label.box, *[b for b in located if lies_on(b, label.box)][:1]]
            for v in range(variants):
                jit = (rng.normal(0, 0.05), rng.normal(0, 0.05), rng.uniform(0.85, 1.2))
                crop = crop_square(cover.seen, boxes[v % len(boxes)], jitter=jit, stretch=(stretch.sx, stretch.sy))
                up = np.ascontiguousarray(np.rot90(crop, u.turn))
                path = out / split / u.index.card / f"{cover.stem}_{u.index.card}_{v}.jpg"
                cv2.imwrite(str(path), up, [cv2.IMWRITE_JPEG_QUALITY, 95])
                written.add(path)
    return len(written)


@dataclass(frozen=True)
class Covering:
    """One covered copy of a photo (``Coverable`` index ``photo``): the ``group`` of cards covered, the photo as it
    then looks, the covered indices a person still reads (each with its label cut to what shows; those showing less
    than ``MIN_INK_SHOWN`` of their ink left out), the covering cards' own indices, and a name for what is cut of it."""

    photo: int
    group: list[Upright]
    seen: npt.NDArray[np.uint8]
    readable: list[tuple[Upright, LabelledIndex]]
    own: list[LabelledIndex]
    stem: str


def _coverings(ready: Coverable, copies: int, rng: np.random.Generator) -> Iterator[Covering]:
    """Each group of each photo's coverable cards covered ``copies`` times, a covering drawn each time; the
    photos with no covering card to lend (no other photo) are skipped."""
    for i, photo in enumerate(ready.photos):
        donors = ready.donors_for(i)
        if not donors:
            continue
        for g, group in enumerate(ready.plan[i]):
            for c in range(copies):
                seen, labels, own = covered_with_covering(ready.images[i], group,
                                                          *_drawn_covering(rng, donors, len(group)))
                readable = [(u, label) for u, label in zip(group, labels, strict=True)
                            if ink_shown(ready.images[i], u.index.box, label.box) >= MIN_INK_SHOWN]
                yield Covering(i, group, seen, readable, own, f"{photo.path.stem}_g{g}_c{c}")


def build_covered_photos(photos: list[RealPhoto], out: Path, copies: int = 2, seed: int = 0,
                         detector: CardDetector | None = None) -> list[tuple[RealPhoto, list[Box]]]:
    """Stage 1's training photos of ``photos``' coverable cards: each group of them covered ``copies`` times (drawn as
    for ``build_covered_crops``), written as ``OUT/<stem>_g<group>_c<copy>.jpg`` and labelled as a person labels what
    shows: each covered index boxed around its strip, or left out where the strip shows less than ``MIN_INK_SHOWN`` of
    its ink (no index to find), the covering cards' own indices boxed, the photo's other indices as they were.
    ``OUT/photos.json`` lists them with their labels (read back by ``covered_photos``); returns them, each with the
    boxes of what the covering changed (the strips and the covering cards' indices: where tiles are to centre)."""
    import json

    detector = detector or CardDetector()
    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    ready = coverable(photos, detector)
    made: list[tuple[RealPhoto, list[Box]]] = []
    for cover in _coverings(ready, copies, rng):
        strips = [label for _, label in cover.readable]
        others = [ix for ix in photos[cover.photo].indices if all(ix is not u.index for u in cover.group)]
        path = out / f"{cover.stem}.jpg"
        cv2.imwrite(str(path), cover.seen, [cv2.IMWRITE_JPEG_QUALITY, 95])
        made.append((RealPhoto(path, (*others, *strips, *cover.own)), [ix.box for ix in (*strips, *cover.own)]))
    (out / "photos.json").write_text(json.dumps(
        [{"path": p.path.name, "indices": [[ix.card, list(ix.box)] for ix in p.indices], "focus": [list(b) for b in f]}
         for p, f in made]))
    return made


def covered_photos(out: Path) -> list[tuple[RealPhoto, list[Box]]]:
    """The photos ``build_covered_photos`` wrote into ``out``, with their labels and where the covering changed."""
    import json

    def box(b: list[float]) -> Box:
        return b[0], b[1], b[2], b[3]

    return [(RealPhoto(out / p["path"], tuple(LabelledIndex(c, box(b)) for c, b in p["indices"])),
             [box(b) for b in p["focus"]]) for p in json.loads((out / "photos.json").read_text())]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.realcover", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("train", "val", "test"), required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--copies", type=int, default=3, help="times each group of coverable cards is covered")
    ap.add_argument("--variants", type=int, default=6, help="crops per covered index")
    ap.add_argument("--photos", type=int, default=None, help="only the first N photos of the split")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    n = build_covered_crops(cardcounter(args.split)[:args.photos], args.out, args.split, args.copies, args.variants,
                            args.seed)
    print(f"{n} crops -> {args.out / args.split}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
