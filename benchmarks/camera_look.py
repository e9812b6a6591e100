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
import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.realsets import CARDCOUNTER, REALCARDS, cardcounter

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SCENES = (ROOT / "datasets/generated/detector/scenes", ROOT / "datasets/generated/eval_val")
# libjpeg's luminance table at quality 50 (ITU-T T.81 K.1), in zig-zag order as a JPEG file stores it
_STD_LUMA = np.array([16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35,
                      37, 29, 40, 58, 51, 61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109,
                      81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99], float)


def jpeg_quality(data: bytes) -> float | None:
    """The quality (1-100) of a JPEG file's first quantisation table, as libjpeg scales it; None if not a JPEG."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker == 0xDB:
            precision = data[i + 4] >> 4
            n = 128 if precision else 64
            raw = data[i + 5:i + 5 + n]
            table = (np.frombuffer(raw, ">u2") if precision else np.frombuffer(raw, np.uint8)).astype(float)
            scale = float(np.mean(table * 100 / _STD_LUMA))
            return max(1.0, min(100.0, (200 - scale) / 2 if scale <= 100 else 5000 / scale))
        if marker == 0xDA:
            return None
        i += 2 + length
    return None


def noise_sigma(grey: np.ndarray) -> float:
    """Immerkaer (1996): the noise's sigma from a Laplacian-difference mask over the whole grey image."""
    mask = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
    h, w = grey.shape
    conv = cv2.filter2D(grey.astype(np.float32), -1, mask)[1:-1, 1:-1]
    return float(math.sqrt(math.pi / 2) * np.abs(conv).sum() / (6 * (w - 2) * (h - 2)))


def index_look(grey: np.ndarray, box: tuple[float, float, float, float]) -> dict[str, float] | None:
    """Height, edge width and contrast of the index in ``box`` (None when it is too small to measure)."""
    x1, y1, x2, y2 = (round(v) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(grey.shape[1], x2), min(grey.shape[0], y2)
    if x2 - x1 < 4 or y2 - y1 < 4:
        return None
    patch = grey[y1:y2, x1:x2].astype(np.float32)
    lo, hi = np.percentile(patch, (2, 98))
    contrast = float(hi - lo)
    if contrast < 20:
        return None
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3) / 8
    g = float(np.percentile(np.hypot(gx, gy)[1:-1, 1:-1], 99))
    height = float(max(box[2] - box[0], box[3] - box[1]))
    edge = contrast / max(g, 1e-6)
    return {"height": height, "edge": edge, "edge/h": edge / height, "contrast": contrast}


def measure(photos: list[tuple[Path, list[tuple[float, float, float, float]]]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"height": [], "edge": [], "edge/h": [], "contrast": [], "noise": [], "jpeg": []}
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
    keys = ("height", "edge", "edge/h", "contrast", "noise", "jpeg")
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
