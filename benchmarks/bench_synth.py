"""Scene generator speed: scenes per second at 1600 px, one process and all cores.

    .venv/bin/python benchmarks/bench_synth.py [--n 40] [--size 1600] [--test-deck]

Uses the rendered art cache (python -m datasets.setup_art) unless --test-deck.
The target (issue 4) is >= 2 scenes/s per core at 1600 px, files written included.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datasets.synth import generate


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--size", type=int, default=1600)
    ap.add_argument("--test-deck", action="store_true")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory() as tmp:
        # warm-up: page in the decks and textures
        generate(Path(tmp) / "warm", 4, 99, "train", args.size, 1, use_test_deck=args.test_deck, progress=False)
        for workers in sorted({1, cores}):
            t = time.perf_counter()
            stats = generate(Path(tmp) / f"w{workers}", args.n, 1, "train", args.size, workers,
                             use_test_deck=args.test_deck, progress=False)
            dt = time.perf_counter() - t
            print(f"{workers} process(es): {args.n / dt:.2f} scenes/s at {args.size} px "
                  f"({args.n / dt / workers:.2f} per core, {stats['labels'] / args.n:.0f} labels/scene)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
