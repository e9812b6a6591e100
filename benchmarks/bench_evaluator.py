"""Rows evaluated per second: our batch API and scalar API against eval7, in one run.

Run: python benchmarks/bench_evaluator.py   (one core: the evaluator is single-threaded numpy)
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from referee.cards import DECK
from referee.evaluate import rank3_batch, rank5, rank5_batch


def best_of(repeats: int, fn: object) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(1)
    n = 1_000_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.int64)
    heads = hands[:, :3].copy()
    rank5_batch(hands[:1000])  # build tables

    t5 = best_of(5, lambda: rank5_batch(hands, "lowest"))
    t3 = best_of(5, lambda: rank3_batch(heads))
    print(f"batch 5-card rows: {n / t5:>12,.0f} rows/s  ({t5 * 1e3:.0f} ms for {n:,})")
    print(f"batch 3-card rows: {n / t3:>12,.0f} rows/s  ({t3 * 1e3:.0f} ms for {n:,})")

    sample = [[DECK[i] for i in h] for h in hands[:100_000].tolist()]
    ts = best_of(3, lambda: [rank5(h) for h in sample])
    print(f"scalar rank5:      {len(sample) / ts:>12,.0f} rows/s")

    try:
        import eval7
    except ImportError:
        print("eval7 not installed: pip install eval7 to compare")
        return
    deck = [eval7.Card(str(c)) for c in DECK]
    e7 = [[deck[i] for i in h] for h in hands[:100_000].tolist()]
    te = best_of(3, lambda: [eval7.evaluate(h) for h in e7])
    print(f"eval7.evaluate:    {len(e7) / te:>12,.0f} rows/s  (per-row calls, same machine, same run)")
    print("target: >= 1,000,000 five-card rows/s in batch on one core")


if __name__ == "__main__":
    main()
