"""How real photos look against the generator's, index by index: size, blur, noise, JPEG quality.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/camera_look.py [--scenes DIR ...] [--per-set 60]

Real: ``../shared/realcards/cardcounter``'s train and val blocks (the test blocks are left out: nothing is
tuned on them) and, for the whole photo's noise and JPEG only (its boxes are whole cards), edje's train
photos (phones and a webcam). Synthetic: each ``--scenes`` folder (an output of ``python -m
datasets.synth``; default: the training scenes and the 120 validation tables of the model card, where
present). For every labelled corner
index (synthetic: every visible one) it measures, at the photo's own resolution:

* ``height``: the index box's long side in pixels;
* ``edge``: the blur, as the width in pixels of the index's sharpest edges (contrast / the 99th percentile
  of the gradient: a sharp step is ~1 px, a soft one several), and ``edge/h``, that width over the height;
* ``contrast``: the 2nd-98th percentile spread of the index's grey levels (0-255);
* per photo: ``noise``, the sensor noise's sigma (Immerkaer's estimate on the grey image), and ``jpeg``,
  the JPEG quality its luminance quantisation table implies (libjpeg's scale; PNG: none).

It prints the median and the 10th-90th percentiles of each. The generator's camera look
(``datasets/effects.py``, ``datasets/camera.py``) is compared with these numbers, not guessed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.look_measure import index_look, jpeg_quality, noise_sigma
from training.realsets import CARDCOUNTER, REALCARDS, cardcounter

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENES = (ROOT / "datasets/generated/detector/scenes", ROOT / "datasets/generated/eval_val")
def measure(photos: list[tuple[Path, list[tuple[float, float, float, float]]]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"height": [], "edge": [], "edge/h": [], "edge_y/h": [], "contrast": [],
                                   "noise": [], "jpeg": []}
    for path, boxes in photos:
        data = path.read_bytes()
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
        if img is None:
            continue
        out["noise"].append(noise_sigma(img))
        q = jpeg_quality(data)
        if q is not None:
            out["jpeg"].append(q)
        for box in boxes:
            look = index_look(img, box)
            if look is not None:
                for k, v in look.items():
                    out[k].append(v)
    return out


def real_photos() -> list[tuple[Path, list[tuple[float, float, float, float]]]]:
    return [(p.path, [i.box for i in p.indices]) for s in ("train", "val") for p in cardcounter(s)]


def edje_photos() -> list[tuple[Path, list[tuple[float, float, float, float]]]]:
    folder = REALCARDS / "edje" / "images" / "train"
    return [(p, []) for p in sorted(folder.iterdir()) if p.suffix.lower() == ".jpg"] if folder.is_dir() else []


def scene_photos(folder: Path, n: int) -> list[tuple[Path, list[tuple[float, float, float, float]]]]:
    truths = sorted((folder / "truth").glob("*/*.json"))[:n]
    out = []
    for f in truths:
        t = json.loads(f.read_text())
        boxes = [(b[0], b[1], b[2], b[3]) for c in t["cards"] for ix in c["index"] if ix["visible"]
                 for b in [ix["box"]]]
        out.append((folder / t["image"], boxes))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=Path, nargs="*", default=None, help="synthetic scene folders")
    ap.add_argument("--per-set", type=int, default=60, help="photos of each synthetic folder (default 60)")
    args = ap.parse_args(argv)
    sets: list[tuple[str, list[tuple[Path, list[tuple[float, float, float, float]]]]]] = []
    if (CARDCOUNTER / "images").is_dir():
        sets.append(("cardcounter train+val (real)", real_photos()))
    if edje := edje_photos():
        sets.append(("edje train (real, photos only)", edje))
    for folder in args.scenes if args.scenes is not None else [d for d in DEFAULT_SCENES if d.is_dir()]:
        sets.append((f"{folder.name} (synthetic)", scene_photos(folder, args.per_set)))
    keys = ("height", "edge", "edge/h", "edge_y/h", "contrast", "noise", "jpeg")
    print(f"{'source':34s} {'photos':>6s} {'indices':>7s}  " + "  ".join(f"{k:>17s}" for k in keys))
    for name, photos in sets:
        m = measure(photos)
        cells = []
        for k in keys:
            v = np.array(m[k])
            cells.append(f"{np.median(v):6.3g} [{np.percentile(v, 10):4.3g}-{np.percentile(v, 90):4.3g}]"
                         if len(v) else f"{'-':>17s}")
        print(f"{name:34s} {len(photos):6d} {len(m['height']):7d}  " + "  ".join(f"{c:>17s}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
