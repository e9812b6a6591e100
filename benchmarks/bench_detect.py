"""Per-stage latency of the card detector on a 12 MP photo (4000 x 3000), median of 10.

    .venv/bin/python benchmarks/bench_detect.py [--runs 10] [--image PHOTO]

Without --image, a synthetic test-family scene is generated and upscaled to 12 MP.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.evaluate import stage_times, twelve_mp_photo
from vision.detector import CardDetector
from vision.image_io import read_image


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--image", type=Path)
    args = ap.parse_args()
    data = args.image.read_bytes() if args.image else twelve_mp_photo()
    t0 = time.perf_counter()
    detector = CardDetector()
    load_ms = (time.perf_counter() - t0) * 1e3
    stages, cards = stage_times(detector, data, args.runs)
    h, w = read_image(data).shape[:2]
    print(f"{w} x {h} px, {cards} cards found; model load {load_ms:.0f} ms")
    for name, times in stages.items():
        print(f"  {name:14s} median {statistics.median(times):7.1f} ms   min {min(times):7.1f}   "
              f"max {max(times):7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
