"""Per-stage latency of the card detector on a 12 MP photo (4000 x 3000), median of 10.

    .venv/bin/python benchmarks/bench_detect.py [--runs 10] [--image PHOTO]

Without --image, a synthetic test-family scene is generated and upscaled to 12 MP.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.detector import CardDetector
from vision.evaluate import ensure_test_scenes
from vision.image_io import read_image


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--image", type=Path)
    args = ap.parse_args()
    if args.image:
        data = args.image.read_bytes()
    else:
        scene = ensure_test_scenes(1, 13)[0]
        img = read_image(scene.parent.parent.parent / "images" / "test" / (scene.stem + ".jpg"))
        size = (4000, 3000) if img.shape[1] >= img.shape[0] else (3000, 4000)
        _ok, jpg = cv2.imencode(".jpg", cv2.resize(img, size, interpolation=cv2.INTER_CUBIC),
                               [cv2.IMWRITE_JPEG_QUALITY, 90])
        data = jpg.tobytes()
    t0 = time.perf_counter()
    detector = CardDetector()
    load_ms = (time.perf_counter() - t0) * 1e3
    detector.detect(read_image(data))  # warm-up
    stages: dict[str, list[float]] = defaultdict(list)
    cards = 0
    for _ in range(args.runs):
        t0 = time.perf_counter()
        image = read_image(data)
        stages["decode"].append((time.perf_counter() - t0) * 1e3)
        found = detector.detect(image)
        for k, v in found.timing_ms.items():
            stages[k].append(v)
        stages["end_to_end"].append((time.perf_counter() - t0) * 1e3)
        cards = len(found.cards)
    h, w = image.shape[:2]
    print(f"{w} x {h} px, {cards} cards found; model load {load_ms:.0f} ms")
    for name, times in stages.items():
        print(f"  {name:14s} median {statistics.median(times):7.1f} ms   min {min(times):7.1f}   "
              f"max {max(times):7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
