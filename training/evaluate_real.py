"""Measure the card reader on real labelled photos, per source.

    python -m training.evaluate_real DIR [DIR ...] [--split test] [--sheet misses.png] [--json out.json]
    python -m training.evaluate --real DIR        # the same, from the detector's evaluation

``DIR`` is a folder of YOLO corner-index labels (``images/``, ``labels/``, ``data.yaml``, such as
``shared/realcards/cardcounter``; ``--split`` takes one capture-time split, see ``training.realsets``)
or the edje set (``images/test/*.xml``: whole-card boxes, rank only; ``--split train`` reads its train
split instead, which nothing was trained or tuned on either). Printed per source: photos,
cards, recall, precision, the confident-read error rate (reads at or above the confidence floor,
0.85, that are another card), and recall by the visible index's size.

* YOLO sets: a labelled card (one identity per photo; a card showing both corners has two boxes)
  is **found** when a read card's index box lies on one of its labelled boxes (centre inside, or
  IoU >= 0.3) and has its identity. A read lying on labelled boxes of other cards only is **wrong**;
  a read on no labelled box is **unlabelled** (counted against precision: usually clutter, now and
  then an index the labels left out).
* edje: a card is found when a read's index box centre lies in its box; wrong when the rank differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detector import MODELS, CardDetector
from vision.image_io import read_image
from vision.tiles import Image
from vision.types import MIN_CONFIDENCE, CardDetection, Detections

from .evaluate import edje_items
from .realsets import Box, LabelledIndex, RealPhoto, yolo_photos

CONFIDENCE_BUCKETS: tuple[float, ...] = (0.0, 0.55, 0.7, 0.85, 0.95, 0.99, 1.0001)
SIZE_BUCKETS: tuple[tuple[float, float], ...] = ((0, 14), (14, 20), (20, 28), (28, 1e9))  # short side, px


@dataclass
class Miss:
    """A labelled card not read right, or a confident read that is wrong: for the contact sheet."""

    photo: Path
    box: Box
    truth: str
    read: str | None       # None: not read at all
    confidence: float
    found_by_stage1: bool  # an index box of the detector lies on it (read or not)


@dataclass
class SourceReport:
    name: str
    photos: int = 0
    cards: int = 0
    found: int = 0
    reads: int = 0
    right_reads: int = 0
    wrong_reads: int = 0
    unlabelled_reads: int = 0
    confident: int = 0
    confident_wrong: int = 0
    indices: int = 0
    indices_located: int = 0
    by_size: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    read_confidences: list[tuple[float, bool]] = field(default_factory=list)  # reads on a label: (confidence, right)
    misses: list[Miss] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "photos": self.photos, "cards": self.cards,
            "recall": _ratio(self.found, self.cards),
            "precision": _ratio(self.right_reads, self.reads),
            "reads": self.reads, "wrong_reads": self.wrong_reads, "unlabelled_reads": self.unlabelled_reads,
            "confident_reads": self.confident, "confident_wrong": self.confident_wrong,
            "confident_error_rate": _ratio(self.confident_wrong, self.confident),
            "indices": self.indices, "indices_located_by_stage1": self.indices_located,
            "recall_by_index_px": {k: {"cards": v[1], "recall": _ratio(v[0], v[1])} for k, v in self.by_size.items()},
            "reliability": reliability(self.read_confidences),
            "misses": [{"photo": m.photo.name, "card": m.truth, "read": m.read, "confidence": round(m.confidence, 4),
                        "located": m.found_by_stage1} for m in self.misses],
        }


def reliability(reads: list[tuple[float, bool]]) -> list[dict[str, Any]]:
    """Confidence bucket -> reads, the share of them wrong, and their mean confidence (the share a
    calibrated reader would have right)."""
    out = []
    for lo, hi in pairwise(CONFIDENCE_BUCKETS):
        inside = [(c, ok) for c, ok in reads if lo <= c < hi]
        if inside:
            out.append({"confidence": f"{lo:.2f}-{min(hi, 1.0):.2f}", "reads": len(inside),
                        "wrong": sum(not ok for _, ok in inside),
                        "share_wrong": sum(not ok for _, ok in inside) / len(inside),
                        "mean_confidence": sum(c for c, _ in inside) / len(inside)})
    return out


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def lies_on(read: Box, label: Box) -> bool:
    """A read index box lies on a labelled one: its centre inside, or IoU >= 0.3."""
    cx, cy = (read[0] + read[2]) / 2, (read[1] + read[3]) / 2
    return (label[0] <= cx <= label[2] and label[1] <= cy <= label[3]) or iou(read, label) >= 0.3


def _bucket(size: float) -> str:
    for lo, hi in SIZE_BUCKETS:
        if lo <= size < hi:
            return f"{lo:.0f}-{hi:.0f}" if hi < 1e8 else f">={lo:.0f}"
    return "?"


def score_photo(report: SourceReport, photo: RealPhoto, cards: tuple[CardDetection, ...],
                located: list[Box], floor: float = MIN_CONFIDENCE) -> None:
    """Add one photo's reads (``cards``) and every index box the detector located to ``report``."""
    report.photos += 1
    by_card: dict[str, list[LabelledIndex]] = defaultdict(list)
    for ix in photo.indices:
        by_card[ix.card].append(ix)
        report.indices += 1
        report.indices_located += any(lies_on(b, ix.box) for b in located)
    found: set[str] = set()
    for d in cards:
        under = {ix.card for ix in photo.indices if any(lies_on(b, ix.box) for b in d.index_boxes)}
        report.reads += 1
        sure = d.confidence >= floor
        report.confident += sure
        if not under:
            report.unlabelled_reads += 1
        elif str(d.card) in under:
            report.right_reads += 1
            found.add(str(d.card))
            report.read_confidences.append((d.confidence, True))
        else:
            report.wrong_reads += 1
            report.read_confidences.append((d.confidence, False))
            report.confident_wrong += sure
            truth = sorted(under)[0]
            box = next(ix.box for ix in photo.indices if ix.card == truth)
            report.misses.append(Miss(photo.path, box, truth, str(d.card), d.confidence, True))
    for card, ixs in by_card.items():
        report.cards += 1
        size = max(ix.size for ix in ixs)
        bucket = report.by_size[_bucket(size)]
        bucket[1] += 1
        if card in found:
            bucket[0] += 1
            report.found += 1
        elif not any(m.photo == photo.path and m.truth == card for m in report.misses):
            box = max(ixs, key=lambda ix: ix.size).box
            report.misses.append(Miss(photo.path, box, card, None, 0.0,
                                      any(lies_on(b, ix.box) for b in located for ix in ixs)))


def located_boxes(found: Detections) -> list[Box]:
    """Every index box the detector located in a photo: its cards' and the regions it left unread."""
    return [b for d in (*found.cards, *found.faint) for b in d.index_boxes] + list(found.unread)


def evaluate_yolo(detector: CardDetector, folder: Path, split: str | None = None,
                  floor: float = MIN_CONFIDENCE) -> SourceReport:
    report = SourceReport(f"{folder.name}" + (f" ({split})" if split else ""))
    for photo in yolo_photos(folder, split):
        det = detector.detect(read_image(photo.path))
        score_photo(report, photo, det.cards, located_boxes(det), floor)
    return report


def evaluate_edje(detector: CardDetector, folder: Path, floor: float = MIN_CONFIDENCE,
                  split: str = "test") -> SourceReport:
    report = SourceReport(f"{folder.name} ({split})")
    for img, boxes in edje_items(split, folder):
        det = detector.detect(read_image(img))
        report.photos += 1
        found = [False] * len(boxes)
        for d in det.cards:
            inside = [k for k, (_, bx) in enumerate(boxes)
                      if any(bx[0] <= (b[0] + b[2]) / 2 <= bx[2] and bx[1] <= (b[1] + b[3]) / 2 <= bx[3]
                             for b in d.index_boxes)]
            report.reads += 1
            sure = d.confidence >= floor
            report.confident += sure
            if not inside:
                report.unlabelled_reads += 1
            elif any(boxes[k][0] == str(d.card)[0] for k in inside):
                report.right_reads += 1
                report.read_confidences.append((d.confidence, True))
                for k in inside:
                    found[k] = found[k] or boxes[k][0] == str(d.card)[0]
            else:
                report.wrong_reads += 1
                report.read_confidences.append((d.confidence, False))
                report.confident_wrong += sure
                report.misses.append(Miss(img, boxes[inside[0]][1], boxes[inside[0]][0], str(d.card), d.confidence,
                                          True))
        for k, (rank, bx) in enumerate(boxes):
            report.cards += 1
            bucket = report.by_size["whole card"]
            bucket[1] += 1
            if found[k]:
                bucket[0] += 1
                report.found += 1
            else:
                report.misses.append(Miss(img, bx, rank, None, 0.0, False))
    return report


def evaluate_dir(detector: CardDetector, folder: Path, split: str | None = None) -> SourceReport:
    if (folder / "data.yaml").exists():
        return evaluate_yolo(detector, folder, split)
    if (folder / "images" / "test").is_dir():
        return evaluate_edje(detector, folder, split="train" if split == "train" else "test")
    raise SystemExit(f"{folder}: neither a YOLO-labelled folder (data.yaml) nor the edje set (images/test)")


def print_report(r: SourceReport, out: Any = sys.stdout) -> None:
    s = r.summary()
    print(f"{r.name}: {s['photos']} photos, {s['cards']} cards: recall {s['recall']:.3f}, precision "
          f"{s['precision']:.3f} ({s['wrong_reads']} wrong, {s['unlabelled_reads']} on no label), confident reads "
          f"wrong {s['confident_wrong']} of {s['confident_reads']} ({100 * s['confident_error_rate']:.1f} %)"
          + (f"; indices located by stage 1 {s['indices_located_by_stage1']} of {s['indices']}"
             if s["indices"] else ""),
          file=out)
    sizes = ", ".join(f"{k} px {v['recall']:.3f} ({v['cards']})" for k, v in sorted(s["recall_by_index_px"].items()))
    print(f"  recall by the visible index's short side: {sizes}", file=out)
    table = ", ".join(f"{b['confidence']}: {b['wrong']}/{b['reads']} wrong" for b in s["reliability"])
    print(f"  reliability (confidence of reads on a labelled index): {table}", file=out)


def contact_sheet(misses: list[Miss], dest: Path, tile: int = 112, per_row: int = 10,
                  images: Sequence[Image] | None = None) -> None:
    """Each miss's region, enlarged, with what it is and what was read (red: wrong, blue: not read,
    grey: not even located by stage 1). ``images``: the image each miss lies in, one per miss, where that is not the
    file ``miss.photo`` (a photo edited in memory, as ``benchmarks/real_covered.py`` covers them)."""
    if images is not None and len(images) != len(misses):
        raise ValueError(f"{len(images)} images for {len(misses)} misses")
    tiles = []
    for k, m in enumerate(misses):
        img = read_image(m.photo) if images is None else images[k]
        x1, y1, x2, y2 = m.box
        side = 1.6 * max(x2 - x1, y2 - y1)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        a, b = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
        crop = img[b:int(cy + side / 2), a:int(cx + side / 2)]
        if crop.size == 0:
            continue
        t = cv2.resize(crop, (tile, tile), interpolation=cv2.INTER_CUBIC)
        t = np.vstack([t, np.full((28, tile, 3), 255, np.uint8)])
        colour = (0, 0, 200) if m.read else ((200, 0, 0) if m.found_by_stage1 else (120, 120, 120))
        text = f"{m.truth}>{m.read} {m.confidence:.2f}" if m.read else f"{m.truth} unread"
        cv2.putText(t, text, (2, tile + 19), cv2.FONT_HERSHEY_SIMPLEX, 0.42, colour, 1, cv2.LINE_AA)
        tiles.append(t)
    if not tiles:
        return
    while len(tiles) % per_row:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.hstack(tiles[i:i + per_row]) for i in range(0, len(tiles), per_row)]
    cv2.imwrite(str(dest), np.vstack(rows))


def add_held_out_arguments(ap: argparse.ArgumentParser) -> None:
    """The arguments the real-photo benchmarks share (``benchmarks/real_*.py``): the models folders they compare, and
    the cardcounter splits they read (the held-out blocks unless told)."""
    ap.add_argument("--models", type=Path, nargs="+", default=[MODELS], help="models folders (default: models/)")
    ap.add_argument("--splits", nargs="+", default=["val", "test"], choices=("train", "val", "test"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.evaluate_real", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", type=Path, nargs="+")
    ap.add_argument("--split", choices=("train", "val", "test"),
                    help="one capture-time split (cardcounter); edje: train reads its train split (default: test)")
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--sheet", type=Path, help="contact sheet of the misses (PNG), one per source: NAME_<source>.png")
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    args = ap.parse_args(argv)
    detector = CardDetector(args.models)
    out: dict[str, Any] = {}
    for folder in args.dirs:
        r = evaluate_dir(detector, folder, args.split)
        print_report(r)
        out[r.name] = r.summary()
        if args.sheet:
            suffix = args.sheet.suffix or ".png"
            contact_sheet(r.misses, args.sheet.with_name(f"{args.sheet.stem}_{folder.name}{suffix}"))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
