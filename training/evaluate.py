"""Measure the card detector: synthetic test families, real photos, latency.

    python -m training.evaluate                       # everything below, printed
    python -m training.evaluate --synthetic 100 --no-real --no-latency

* Synthetic scenes from the TEST design families (never used in training), generated
  on demand under ``datasets/generated/detector/scenes_test``: card-level precision and
  recall, overall, per player count and per camera-tilt bucket. A detection is a true
  positive when the photo holds that card and the detection's index box lies on it.
* Real photos ``shared/realcards/edje`` (test split only): whole-card recall (a card is
  found when a detection's index box centre lies inside its labelled box), rank
  accuracy on 9..A (the best detection inside the box has the labelled rank) and card
  accuracy (rank and suit: the published labels carry ranks only; the suits in
  ``datasets/edje_test_cards.csv`` were added by eye in this project).
* Latency for a 12 MP photo (a test scene upscaled to 4000 x 3000), per stage,
  median of 10.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detector import MODELS, CardDetector
from vision.image_io import read_image
from vision.types import Detections

from .realsets import LABEL_FIXES, label_fixes

ROOT = Path(__file__).resolve().parent.parent
SYN = ROOT / "datasets" / "generated" / "detector" / "scenes_test"
EDJE = ROOT.parent / "shared" / "realcards" / "edje"
EDJE_CARDS = ROOT / "datasets" / "edje_test_cards.csv"   # image, object, rank, card (suits added by eye)
RANKS = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
TILT_BUCKETS = ((0, 10), (10, 20), (20, 30), (30, 90))


def inside_polygon(pt: tuple[float, float], poly: np.ndarray) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32), (float(pt[0]), float(pt[1])), False) >= 0


VAL = ROOT / "datasets" / "generated" / "detector" / "scenes"


def ensure_test_scenes(n: int, seed: int, out: Path = SYN, split: str = "test") -> list[Path]:
    """The first ``n`` scenes of a split (generated when missing; ``split='val'`` only reads)."""
    truth = out / "truth" / split
    if split != "test":
        return sorted(truth.glob("*.json"))[:n]
    have = len(list(truth.glob("*.json"))) if truth.exists() else 0
    if have < n:
        subprocess.run([sys.executable, "-m", "datasets.synth", "--n", str(n - have), "--start", str(have),
                        "--out", str(out), "--seed", str(seed), "--split", "test"], check=True, cwd=ROOT)
    return sorted(truth.glob("*.json"))[:n]


def score_scene(truth: dict[str, Any], found: Detections) -> tuple[int, int, int, int, list[str]]:
    """(true positives, detections, cards with a visible index, cards found among them), mistakes."""
    cards = {c["card"]: c for c in truth["cards"]}
    tp = 0
    mistakes = []
    hit: set[str] = set()
    for det in found.cards:
        name = str(det.card)
        c = cards.get(name)
        ok = False
        if c is not None:
            poly = np.asarray(c["corners"])
            ok = any(inside_polygon(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), poly) for b in det.index_boxes)
        if ok and name not in hit:
            tp += 1
            hit.add(name)
        else:
            mistakes.append(f"false {name} at {[round(v) for v in det.box]}")
    visible = [c for c in truth["cards"] if any(ix["visible"] for ix in c["index"])]
    found_visible = sum(1 for c in visible if c["card"] in hit)
    for c in visible:
        if c["card"] not in hit:
            mistakes.append(f"missed {c['card']}")
    return tp, len(found.cards), len(visible), found_visible, mistakes


def evaluate_synthetic(detector: CardDetector, n: int, seed: int, verbose: bool = False,
                       split: str = "test") -> dict[str, Any]:
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    all_cards = 0
    files = ensure_test_scenes(n, seed) if split == "test" else ensure_test_scenes(n, seed, VAL, split)
    for f in files:
        truth = json.loads(f.read_text())
        found = detector.detect(read_image(f.parent.parent.parent / truth["image"]))
        tp, nd, nv, fv, mistakes = score_scene(truth, found)
        all_cards += len(truth["cards"])
        players = len(truth["round"]["players"])
        tilt = truth["camera"]["tilt_deg"]
        bucket = next(f"tilt {a}-{b}" for a, b in TILT_BUCKETS if a <= tilt < b)
        for key in ("all", f"{players} players", bucket):
            g = groups[key]
            g[0] += tp
            g[1] += nd
            g[2] += nv
            g[3] += fv
        if verbose and mistakes:
            print(f"  {f.stem}: {', '.join(mistakes[:8])}", file=sys.stderr)
    table = {}
    for key, (tp, nd, nv, fv) in sorted(groups.items()):
        table[key] = {"precision": tp / nd if nd else 1.0, "recall": fv / nv if nv else 1.0, "detections": nd,
                      "cards": nv}
    return {"scenes": len(files), "split": split, "cards_total": all_cards, "groups": table}


def edje_items(split: str = "test", folder: Path = EDJE, fixes: Path | None = LABEL_FIXES,
               ) -> list[tuple[Path, list[tuple[str, tuple[float, float, float, float]]]]]:
    """Each photo of an edje split and its labelled cards: (rank, whole-card box). The corrections in ``fixes``
    for the set ``edje`` (photo stem, the object's number in its XML from 1, the published rank, the rank the
    card shows) replace the ranks they name; one that no longer matches stops the reading."""
    corrections = label_fixes(fixes) if fixes is not None else {}
    items = []
    for xml in sorted((folder / "images" / split).glob("*.xml")):
        root = ET.parse(xml).getroot()
        fn = root.findtext("filename") or ""
        img = xml.with_name(fn) if (xml.with_name(fn)).exists() else next(
            p for p in xml.parent.glob(xml.stem + ".*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        boxes: list[tuple[str, tuple[float, float, float, float]]] = []
        for number, obj in enumerate(root.iter("object"), 1):
            b = obj.find("bndbox")
            assert b is not None
            x1, y1, x2, y2 = (float(b.findtext(k) or 0) for k in ("xmin", "ymin", "xmax", "ymax"))
            rank = RANKS[obj.findtext("name") or ""]
            fix = corrections.get(("edje", xml.stem, number))
            if fix is not None:
                if rank != fix.was:
                    raise ValueError(f"{xml}: object {number} is labelled {rank}, the correction expects {fix.was}")
                rank = fix.card
            boxes.append((rank, (x1, y1, x2, y2)))
        items.append((img, boxes))
    return items


def edje_cards(path: Path = EDJE_CARDS) -> dict[tuple[str, int], str]:
    """(image file, object number in its XML) -> the whole card (``As``) for the edje test split."""
    if not path.exists():
        return {}
    lines = path.read_text().splitlines()[1:]
    return {(name, int(k)): card for name, k, _rank, card in (line.split(",") for line in lines if line)}


def evaluate_edje(detector: CardDetector, verbose: bool = False) -> dict[str, Any]:
    cards = found = rank_ok = card_ok = extra = 0
    full = edje_cards()
    items = edje_items()
    for img, boxes in items:
        det = detector.detect(read_image(img))
        used: set[int] = set()
        for k, (rank, (x1, y1, x2, y2)) in enumerate(boxes):
            cards += 1
            inside = [d for d in det.cards
                      if any(x1 <= (b[0] + b[2]) / 2 <= x2 and y1 <= (b[1] + b[3]) / 2 <= y2 for b in d.index_boxes)]
            if not inside:
                if verbose:
                    print(f"  {img.name}: missed {rank}", file=sys.stderr)
                continue
            found += 1
            best = max(inside, key=lambda d: d.confidence)
            used.update(id(d) for d in inside)
            if str(best.card)[:-1] == rank:
                rank_ok += 1
            elif verbose:
                print(f"  {img.name}: {rank} read as {best.card}", file=sys.stderr)
            if full.get((img.name, k)) == str(best.card):
                card_ok += 1
            elif verbose and full:
                print(f"  {img.name}: {full.get((img.name, k))} read as {best.card}", file=sys.stderr)
        extra += sum(1 for d in det.cards if id(d) not in used)
    out: dict[str, Any] = {
        "images": len(items), "cards": cards, "recall": found / cards if cards else 0.0,
        "rank_accuracy": rank_ok / found if found else 0.0, "rank_accuracy_of_all": rank_ok / cards if cards else 0,
        "detections_outside_cards": extra}
    if full:
        out["card_accuracy"] = card_ok / found if found else 0.0  # rank and suit, of the cards found
    return out


def twelve_mp_photo() -> bytes:
    """A synthetic test-family scene upscaled to 12 MP (4000 x 3000), as JPEG bytes."""
    files = ensure_test_scenes(1, 13)
    truth = json.loads(files[0].read_text())
    image = read_image(files[0].parent.parent.parent / truth["image"])
    big = cv2.resize(image, (4000, 3000) if image.shape[1] >= image.shape[0] else (3000, 4000),
                     interpolation=cv2.INTER_CUBIC)
    _ok, jpg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return jpg.tobytes()


def stage_times(detector: CardDetector, data: bytes, runs: int = 10) -> tuple[dict[str, list[float]], int]:
    """Per-stage times (ms) of decoding and detecting ``data``, ``runs`` times after a warm-up,
    and the number of cards found."""
    detector.detect(read_image(data))  # warm-up
    stages: dict[str, list[float]] = defaultdict(list)
    cards = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        img = read_image(data)
        stages["decode"].append((time.perf_counter() - t0) * 1e3)
        d = detector.detect(img)
        for k, v in d.timing_ms.items():
            stages[k].append(v)
        stages["end_to_end"].append((time.perf_counter() - t0) * 1e3)
        cards = len(d.cards)
    return stages, cards


def latency(detector: CardDetector, runs: int = 10) -> dict[str, float]:
    stages, _cards = stage_times(detector, twelve_mp_photo(), runs)
    return {k: statistics.median(v) for k, v in stages.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, default=MODELS)
    ap.add_argument("--synthetic", type=int, default=80, help="test-family scenes (0 = skip)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--val", action="store_true",
                    help="score the VALIDATION-family scenes of the training run instead (for tuning thresholds)")
    ap.add_argument("--det-conf", type=float, default=None, help="override the stage-1 score threshold")
    ap.add_argument("--cls-conf", type=float, default=None, help="override the stage-2 probability threshold")
    ap.add_argument("--work-side", type=int, default=None, help="override the stage-1 working resolution")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--real", type=Path, action="append", default=[], metavar="DIR",
                    help="also measure on this folder of real labelled photos (training.evaluate_real; repeatable)")
    ap.add_argument("--real-split", choices=("train", "val", "test"), default=None,
                    help="with --real: one capture-time split (cardcounter)")
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every mistake")
    args = ap.parse_args(argv)
    detector = CardDetector(args.models)
    if args.det_conf is not None:
        detector.det_conf = args.det_conf
    if args.cls_conf is not None:
        detector.cls_conf = args.cls_conf
    if args.work_side is not None:
        detector.work_side = args.work_side
    report: dict[str, Any] = {"det_conf": detector.det_conf, "cls_conf": detector.cls_conf,
                              "work_side": detector.work_side}
    if args.synthetic:
        t0 = time.perf_counter()
        syn = evaluate_synthetic(detector, args.synthetic, args.seed, args.verbose, "val" if args.val else "test")
        report["synthetic"] = syn
        print(f"synthetic {'VALIDATION' if args.val else 'test'} families: {syn['scenes']} scenes "
              f"({time.perf_counter() - t0:.0f} s)")
        print(f"  {'group':14s} {'precision':>9s} {'recall':>8s} {'dets':>6s} {'cards':>6s}")
        for key, g in syn["groups"].items():
            print(f"  {key:14s} {g['precision']:9.4f} {g['recall']:8.4f} {g['detections']:6d} {g['cards']:6d}")
    if not args.no_real:
        if (EDJE / "images" / "test").exists():
            real = evaluate_edje(detector, args.verbose)
            report["edje_test"] = real
            print(f"real photos (edje test): {real['images']} images, {real['cards']} cards: "
                  f"whole-card recall {real['recall']:.4f}, rank accuracy 9..A {real['rank_accuracy']:.4f} "
                  f"(of all cards {real['rank_accuracy_of_all']:.4f}), "
                  + (f"card (rank+suit) accuracy {real['card_accuracy']:.4f}, " if "card_accuracy" in real else "")
                  + f"{real['detections_outside_cards']} detections outside labelled cards")
        else:
            print(f"real photos: {EDJE} not found, skipped")
    for folder in args.real:
        from .evaluate_real import evaluate_dir, print_report

        r = evaluate_dir(detector, folder, args.real_split)
        print_report(r)
        report.setdefault("real", {})[r.name] = r.summary()
    if not args.no_latency:
        lat = latency(detector)
        report["latency_ms_12mp"] = lat
        print("latency, 12 MP photo, median of 10 (ms): " + ", ".join(f"{k} {v:.0f}" for k, v in lat.items()))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
