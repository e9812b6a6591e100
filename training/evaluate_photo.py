"""Photo → settlement, measured on synthetic test-family tables whose settlement is known.

    python -m datasets.synth --n 200 --out datasets/generated/eval --seed 77 --split test
    python -m training.evaluate_photo datasets/generated/eval [--truth-detector] [--rules classic]

Thresholds are chosen on validation-family tables, never on these:

    python -m datasets.synth --n 120 --out datasets/generated/eval_val --seed 78 --split val
    python -m training.evaluate_photo datasets/generated/eval_val

Prints the share of tables settled exactly right, the share settled WRONG with no
problem reported (must be 0), the share stopped by a reported problem, per player
count and per design family, and per-stage timing. ``--truth-detector`` replaces the detector by the
scene's ground truth, to measure the geometry alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from referee.round import Round
from referee.ruleset import load_ruleset
from referee.settle import settle
from vision.pipeline import Detector, read_photo
from vision.truth import detections_from_truth
from vision.types import Detections


def truth_detector(truth: dict[str, Any]) -> Detector:
    cards = tuple(detections_from_truth(truth))
    return lambda image: Detections(width=truth["width"], height=truth["height"], cards=cards)


def evaluate(root: Path, rules_name: str, use_truth: bool, limit: int | None,
             verbose: bool = False, models: Path | None = None) -> dict[str, Any]:
    rules = load_ruleset(rules_name)
    files = sorted(root.glob("truth/*/*.json"))[:limit]
    if not files:
        raise SystemExit(f"no scenes under {root}/truth: generate them with python -m datasets.synth")
    detector = None
    if not use_truth:
        from vision.detector import MODELS, CardDetector

        detector = CardDetector(models or MODELS).detect
    outcome: Counter[str] = Counter()
    by_players: dict[int, Counter[str]] = defaultdict(Counter)
    by_family: dict[str, Counter[str]] = defaultdict(Counter)
    timings: dict[str, list[float]] = defaultdict(list)
    wrong: list[str] = []
    for i, path in enumerate(files):
        truth = json.loads(path.read_text())
        expected = {p.name: p.score for p in settle(Round.from_json(truth["round"]), rules).players}
        reading = read_photo(root / truth["image"], rules, banker=truth["round"].get("banker"),
                             detector=truth_detector(truth) if use_truth else detector)
        for stage, ms in reading.timing_ms.items():
            timings[stage].append(ms)
        blocking = [p.message for p in reading.problems if p.blocking]
        if verbose and blocking:
            print(f"\n  {path.stem}: " + "; ".join(blocking)[:300], file=sys.stderr)
        if reading.settlement is None:
            result = "stopped by a reported problem"
        elif {p.name: p.score for p in reading.settlement.players} == expected:
            result = "right"
        elif any(p.blocking for p in reading.problems):
            result = "stopped by a reported problem"
        else:
            result = "WRONG, no problem reported"
            wrong.append(path.name)
        outcome[result] += 1
        by_players[len(truth["round"]["players"])][result] += 1
        by_family[str(truth.get("family", "?"))][result] += 1
        print(f"\r{i + 1}/{len(files)} scenes", end="", file=sys.stderr)
    print(file=sys.stderr)
    return {"scenes": len(files), "outcome": outcome, "by_players": by_players, "by_family": by_family,
            "timings": timings, "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenes", type=Path, help="output folder of python -m datasets.synth (test split)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--truth-detector", action="store_true", help="use ground truth instead of the detector")
    parser.add_argument("--limit", type=int, help="only the first N scenes")
    parser.add_argument("--models", type=Path, default=None, help="folder of the ONNX models (default: models/)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each table's blocking problems")
    args = parser.parse_args(argv)
    report = evaluate(args.scenes, args.rules, args.truth_detector, args.limit, args.verbose, args.models)
    n = report["scenes"]
    source = "ground truth" if args.truth_detector else f"models in {args.models or 'models/'}"
    print(f"detector: {source}; rules {args.rules}; {n} tables")
    for result in ("right", "WRONG, no problem reported", "stopped by a reported problem"):
        count = report["outcome"][result]
        print(f"  {result:<32} {count:>4}  {100 * count / n:6.2f}%")
    for players, counts in sorted(report["by_players"].items()):
        total = sum(counts.values())
        print(f"  {players} players: {counts['right']}/{total} right, {counts['WRONG, no problem reported']} wrong")
    for family, counts in sorted(report["by_family"].items()):
        total = sum(counts.values())
        print(f"  {family}: {counts['right']}/{total} right, {counts['WRONG, no problem reported']} wrong")
    print("timing per photo, median ms: " + ", ".join(
        f"{stage} {statistics.median(values):.0f}" for stage, values in report["timings"].items()))
    if report["wrong"]:
        print("wrong settlements: " + " ".join(report["wrong"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
