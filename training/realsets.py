"""Real labelled photos: the two sets in ``shared/realcards`` as (photo, labelled corner indices).

* ``cardcounter`` (YOLO boxes of every visible corner index, rank and suit; 86 webcam photos,
  640 x 640 stretched from 16:9): split **by capture time** — the stems keep it
  (``WIN_YYYYMMDD_HH_MM_SS_Pro``) — into blocks separated by pauses of at least 5 minutes, so
  that near-duplicate frames never straddle two splits:

  ============  ============================================  ======  =====  =======
  split         capture blocks                                photos  cards  indices
  ============  ============================================  ======  =====  =======
  ``train``     06-27 11:36-12:32, 06-27 17:12-17:20          56      375    663
  ``val``       06-27 12:48-12:54 (calibration, choices)      13      104    175
  ``test``      06-27 17:00-17:06, 06-30 19:34-19:37          17      245    311
  ============  ============================================  ======  =====  =======

  The test blocks are one on another day and one of tight overlapped rows: reported, never trained
  or tuned on.

  Label errors found by eye are corrected as the photos are read: ``training/label_fixes.csv`` names
  each (photo, label line, the published card, the card the index shows, why); 12 of the 1,149 card
  labels (most a 3 labelled as a 4), found by looking at every labelled index the readers read as
  another card, in all three splits.
* ``edje``: whole-card boxes labelled by rank (VOC XML), the published ``test`` split.

>>> split_of("WIN_20240630_19_35_12_Pro")
'test'
>>> split_of("WIN_20240627_12_50_01_Pro")
'val'
>>> parse_class("10S"), parse_class("QH"), parse_class("BACK")
('Ts', 'Qh', None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REALCARDS = ROOT.parent / "shared" / "realcards"
CARDCOUNTER = REALCARDS / "cardcounter"
LABEL_FIXES = ROOT / "training" / "label_fixes.csv"

Box = tuple[float, float, float, float]

# capture blocks (date, first minute, last minute) -> split; times as HHMM
_BLOCKS: tuple[tuple[str, int, int, str], ...] = (
    ("20240627", 1136, 1232, "train"),
    ("20240627", 1248, 1254, "val"),
    ("20240627", 1700, 1706, "test"),
    ("20240627", 1712, 1720, "train"),
    ("20240630", 1934, 1937, "test"),
)
_STEM = re.compile(r"WIN_(\d{8})_(\d\d)_(\d\d)_(\d\d)")


@dataclass(frozen=True)
class LabelledIndex:
    """One labelled corner index: the card (``As``) and its box in image pixels."""

    card: str
    box: Box

    @property
    def size(self) -> float:
        """The labelled box's short side in pixels: how much of the index shows (a covered index shows
        a strip as long as the index and as wide as what the next card leaves)."""
        return min(self.box[2] - self.box[0], self.box[3] - self.box[1])


@dataclass(frozen=True)
class RealPhoto:
    path: Path
    indices: tuple[LabelledIndex, ...]

    @property
    def cards(self) -> set[str]:
        return {i.card for i in self.indices}


def split_of(stem: str) -> str:
    """The split of a cardcounter photo, from the capture time in its name."""
    m = _STEM.search(stem)
    if m is None:
        raise ValueError(f"{stem}: no capture time in the name (WIN_YYYYMMDD_HH_MM_SS_Pro)")
    date, hhmm = m.group(1), int(m.group(2) + m.group(3))
    for d, first, last, split in _BLOCKS:
        if d == date and first <= hhmm <= last:
            return split
    raise ValueError(f"{stem}: capture time outside the known blocks")


def parse_class(name: str) -> str | None:
    """A cardcounter class name (``10C``, ``QH``) as a card (``Tc``, ``Qh``); None for backs and jokers."""
    m = re.fullmatch(r"(10|[2-9AJQK])([CDHS])", name.strip().upper())
    if m is None:
        return None
    rank = "T" if m.group(1) == "10" else m.group(1)
    return rank + m.group(2).lower()


def _class_names(folder: Path) -> list[str]:
    text = (folder / "data.yaml").read_text()
    m = re.search(r"^names:\s*\[(.*?)\]", text, re.M | re.S)
    if m is None:
        raise ValueError(f"{folder / 'data.yaml'}: no names list")
    return [s.strip().strip("'\"") for s in m.group(1).split(",")]


def _image_size(path: Path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as im:
        return im.size


@dataclass(frozen=True)
class LabelFix:
    """A published label corrected by eye: line ``line`` (1-based) of ``photo``'s label file in the set
    ``set`` says ``was``; the index shows ``card``."""

    set: str
    photo: str
    line: int
    was: str
    card: str
    why: str


def label_fixes(path: Path = LABEL_FIXES) -> dict[tuple[str, str, int], LabelFix]:
    """The corrections of ``path`` keyed by (set, photo stem, line)."""
    import csv

    with path.open(newline="") as f:
        fixes = [LabelFix(r["set"], r["photo"], int(r["line"]), r["was"], r["card"], r["why"])
                 for r in csv.DictReader(f)]
    return {(x.set, x.photo, x.line): x for x in fixes}


def yolo_photos(folder: Path, split: str | None = None, fixes: Path | None = LABEL_FIXES) -> list[RealPhoto]:
    """The photos of a YOLO-labelled folder (``images/``, ``labels/``, ``data.yaml``), optionally one
    capture-time split (cardcounter's naming); backs and jokers are not cards and are left out. The
    corrections in ``fixes`` for this folder's set (its name) replace the labels they name; one that
    no longer matches its label line stops the reading (the published labels changed)."""
    names = _class_names(folder)
    corrections = label_fixes(fixes) if fixes is not None else {}
    out: list[RealPhoto] = []
    for img in sorted((folder / "images").glob("*")):
        if img.suffix.lower() not in (".jpg", ".jpeg", ".png"):
            continue
        if split is not None and split_of(img.stem) != split:
            continue
        w, h = _image_size(img)
        label = folder / "labels" / (img.stem + ".txt")
        indices = []
        for number, line in enumerate(label.read_text().splitlines() if label.exists() else [], 1):
            parts = line.split()
            if len(parts) != 5:
                continue
            card = parse_class(names[int(parts[0])])
            fix = corrections.get((folder.name, img.stem, number))
            if fix is not None:
                if card != fix.was:
                    raise ValueError(f"{label}:{number}: the label is {card}, the correction expects {fix.was}")
                card = fix.card
            if card is None:
                continue
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            indices.append(LabelledIndex(card, ((cx - bw / 2) * w, (cy - bh / 2) * h,
                                                (cx + bw / 2) * w, (cy + bh / 2) * h)))
        out.append(RealPhoto(img, tuple(indices)))
    return out


def cardcounter(split: str | None = None) -> list[RealPhoto]:
    """``shared/realcards/cardcounter``, one capture-time split (``train``, ``val``, ``test``) or all."""
    return yolo_photos(CARDCOUNTER, split)
