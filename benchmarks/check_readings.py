"""What follows the detector, measured on the detector's readings cached once (photo tables and perturbations).

    python benchmarks/check_readings.py cache  DIR [DIR ...]   # run the detector once per photo: DIR/readings/*.json
    python benchmarks/check_readings.py tables DIR [DIR ...]   # settle every table from its cached readings
    python benchmarks/check_readings.py perturb DIR [DIR ...] --out OUT.json   # ~19,000 perturbed tables
    python benchmarks/check_readings.py compare BEFORE.json AFTER.json         # which outcomes changed
    python benchmarks/check_readings.py reliability DIR [DIR ...]  # the cached reads' confidence -> share wrong
    python benchmarks/check_readings.py misses DIR [DIR ...] [--sheet misses.png]  # what the cached reads miss
    python benchmarks/check_readings.py suits DIR [DIR ...]        # clubs taken for spades and back, by rank

``DIR`` is an output folder of ``python -m datasets.synth`` (the tables of ``models/MODEL_CARD.md``:
``eval_val`` seed 78 val, ``eval_val2`` seed 79 val, ``eval`` seed 77 test). ``cache`` also scores each photo
from the detector's readings in memory (the full run) and from the cache (which should agree). A table is
right when its settlement's scores are the deal's, WRONG when it is scored otherwise with no blocking
problem, else stopped. ``perturb`` changes the real readings of every table the model card's ways (seeded by
table, check and repetition, so two runs perturb alike) and records each outcome with a digest of the
``referee photo`` JSON, so that ``compare`` tells whether a refactor changed any reading's result.
``reliability`` buckets every cached read card by its confidence and counts it wrong when none of the cards laid
under its index boxes' centres (the truth's card outlines) is the identity read; a read on no card is left out.
``misses`` counts, over the same cached reads, the cards whose index shows that no read found, the reads of another
card, the reads on no card and the cards read twice, lists them per table, and with ``--sheet`` draws them on a
contact sheet (``training.evaluate_real.contact_sheet``: red a read of another card or on no card, "-" its truth;
grey a card no read lies on, since the cache keeps no unread boxes; blue one a read of another card lies on).
``suits`` counts, per set, the reads of clubs' and spades' indices taken for the other black suit, for aces, number
cards and courts apart (``black_suit_lean``).

Run from the repository root with ``PYTHONPATH=$PWD`` (the code measured is the one on the path).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from referee.cards import DECK, Card
from referee.round import Round
from referee.ruleset import Ruleset, load_ruleset
from referee.settle import settle
from training.evaluate import inside_polygon
from training.evaluate_real import Miss, contact_sheet, lies_on, reliability
from vision.detector import MODELS, reader_temperature
from vision.pipeline import PhotoReading, read_photo
from vision.truth import card_of_index_at
from vision.types import MIN_CONFIDENCE, CardDetection, Detections

BLANK = np.zeros((1, 1, 3), np.uint8)  # the cached runs need no pixels
RIGHT, STOPPED, WRONG = "right", "stopped", "WRONG"


# --- the cache: Detections as JSON, losslessly (floats round-trip through repr) ---

def card_to_json(c: CardDetection) -> dict[str, Any]:
    return {"card": str(c.card), "confidence": float(c.confidence), "box": [float(v) for v in c.box],
            "index_boxes": [[float(v) for v in b] for b in c.index_boxes],
            "outline": None if c.outline is None else [[float(x), float(y)] for x, y in c.outline],
            "up": None if c.up is None else float(c.up), "up_either_way": c.up_either_way,
            "alternatives": [[str(a), float(p)] for a, p in c.alternatives],
            "turn": None if c.turn is None else float(c.turn)}


def _box(v: list[float]) -> tuple[float, float, float, float]:
    return (v[0], v[1], v[2], v[3])


def card_from_json(d: dict[str, Any]) -> CardDetection:
    o = d["outline"]
    return CardDetection(card=Card.parse(d["card"]), confidence=d["confidence"], box=_box(d["box"]),
                         index_boxes=tuple(_box(b) for b in d["index_boxes"]),
                         outline=None if o is None else ((o[0][0], o[0][1]), (o[1][0], o[1][1]), (o[2][0], o[2][1]),
                                                         (o[3][0], o[3][1])),
                         up=d["up"], up_either_way=d["up_either_way"],
                         alternatives=tuple((Card.parse(a), p) for a, p in d["alternatives"]),
                         turn=d.get("turn"))  # readings cached before session 40 have none


def detections_to_json(d: Detections) -> dict[str, Any]:
    return {"width": d.width, "height": d.height, "cards": [card_to_json(c) for c in d.cards],
            "unread": [[float(v) for v in b] for b in d.unread], "widened": list(d.widened),
            "faint": [card_to_json(c) for c in d.faint]}


def detections_from_json(d: dict[str, Any]) -> Detections:
    sx, sy = d.get("widened", (1.0, 1.0))  # caches written before the layout measured in the camera's frame
    return Detections(width=d["width"], height=d["height"], cards=tuple(card_from_json(c) for c in d["cards"]),
                      unread=tuple(_box(b) for b in d["unread"]), widened=(float(sx), float(sy)),
                      faint=tuple(card_from_json(c) for c in d.get("faint", ())))  # none cached before session 51


# --- judging a reading ---

def expected_scores(truth: dict[str, Any], rules: Ruleset) -> dict[str, int]:
    return {p.name: p.score for p in settle(Round.from_json(truth["round"]), rules).players}


def judged(reading: PhotoReading, expected: dict[str, int]) -> str:
    if reading.settlement is None:
        return STOPPED
    if {p.name: p.score for p in reading.settlement.players} == expected:
        return RIGHT
    return STOPPED if any(p.blocking for p in reading.problems) else WRONG


def digest(reading: PhotoReading) -> str:
    data = reading.to_json()
    data.pop("timing_ms")
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def scored(cards: tuple[CardDetection, ...], base: Detections, truth: dict[str, Any], rules: Ruleset
           ) -> tuple[str, str]:
    dets = replace(base, cards=cards)
    reading = read_photo(BLANK, rules, banker=truth["round"].get("banker"), detector=lambda _image: dets)
    return judged(reading, expected_scores(truth, rules)), digest(reading)


def tables(dirs: list[Path]) -> Iterator[tuple[str, Path, dict[str, Any]]]:
    for root in dirs:
        for path in sorted(root.glob("truth/*/*.json")):
            yield root.name, path, json.loads(path.read_text())


MODELS_FILE = "models.json"  # in a set's readings folder: which models the cached readings were made with
MODEL_FILES = ("index_det.onnx", "index_cls.onnx", "index_cls2.onnx")


def models_digest(models: Path) -> str:
    """A digest of what reads a photo in a models folder: the ONNX files and the temperature the runtime applies
    (``vision.detector.reader_temperature``; not the calibration file's fit statistics, which read nothing)."""
    h = hashlib.sha1()
    for name in MODEL_FILES:
        if (models / name).exists():
            h.update(name.encode() + b"\0" + (models / name).read_bytes())
    h.update(f"temperature {reader_temperature(models):.6g}".encode())
    return h.hexdigest()[:16]


def record_models(root: Path, models: Path) -> None:
    """Note beside a set's cached readings which models made them."""
    (root / "readings" / MODELS_FILE).write_text(json.dumps({"models": str(models), "digest": models_digest(models)}))


def stale_caches(dirs: list[Path], models: Path) -> list[str]:
    """A line for each set whose cached readings were not made with ``models`` as they are now (or say not which
    models made them): measuring them would measure other models than the ones named."""
    now = models_digest(models)
    out = []
    for root in dirs:
        note = root / "readings" / MODELS_FILE
        made = json.loads(note.read_text()) if note.exists() else None
        if made is None:
            out.append(f"{root}: its cached readings do not say which models made them (cache them again: "
                       f"python benchmarks/check_readings.py cache {root})")
        elif made["digest"] != now:
            out.append(f"{root}: its cached readings were made with other models ({made['models']}, "
                       f"{made['digest']}) than {models} ({now}); cache them again to measure these")
    return out


def cached(root: Path, path: Path, truth: dict[str, Any] | None = None) -> Detections:
    """The cached readings of a table, or with ``truth`` its ground truth as the detector (no readings needed)."""
    if truth is not None:
        from vision.truth import detections_from_truth

        return Detections(width=truth["width"], height=truth["height"], cards=tuple(detections_from_truth(truth)))
    return detections_from_json(json.loads((root / "readings" / f"{path.stem}.json").read_text()))


# --- how far a card's confidence is to be trusted on the synthetic tables ---

def cards_under(card: CardDetection, truth: dict[str, Any]) -> list[int]:
    """The truth's cards (their places in ``truth["cards"]``) laid under the read's index boxes' centres, once for
    each index box that lies on them."""
    return [k for b in card.index_boxes for k, c in enumerate(truth["cards"])
            if inside_polygon(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), np.asarray(c["corners"]))]


def read_right(card: CardDetection, truth: dict[str, Any]) -> bool | None:
    """True when a card laid under one of the read's index boxes' centres is the identity read, False when cards
    lie there and none is, None when the read lies on no card of the table."""
    under = {truth["cards"][k]["card"] for k in cards_under(card, truth)}
    return str(card.card) in under if under else None


def cached_reads(dirs: list[Path]) -> list[tuple[float, bool]]:
    """(confidence, read right) of every cached read card of the tables in ``dirs`` that lies on a card."""
    reads = []
    for root in dirs:
        for _family, path, truth in tables([root]):
            for card in cached(root, path).cards:
                right = read_right(card, truth)
                if right is not None:
                    reads.append((card.confidence, right))
    return reads


def table_misses(root: Path, path: Path, truth: dict[str, Any]) -> tuple[Counter[str], list[Miss]]:
    """What one table's cached reads miss: counts of ``right``, ``not read`` (a card whose index shows that no read
    of its identity lies on), ``another card``, ``on no card`` and ``read twice`` (a card two reads found), and a
    ``Miss`` for each but the right ones and the cards read twice."""
    counts: Counter[str] = Counter()
    misses: list[Miss] = []
    photo = root / truth["image"]
    found: Counter[int] = Counter()
    reads = cached(root, path).cards
    for card in reads:
        under = cards_under(card, truth)
        mine = [k for k in under if truth["cards"][k]["card"] == str(card.card)]
        if mine:
            counts["right"] += 1
            found[mine[0]] += 1
            continue
        kind = "another card" if under else "on no card"
        counts[kind] += 1
        shown = "/".join(sorted({truth["cards"][k]["card"] for k in under})) or "-"
        misses.append(Miss(photo, card.index_boxes[0] if card.index_boxes else card.box, shown, str(card.card),
                           card.confidence, True))
    for k, c in enumerate(truth["cards"]):
        shows = [ix["box"] for ix in c.get("index", []) if ix.get("visible")]
        counts["read twice"] += found[k] > 1
        if shows and not found[k]:
            counts["not read"] += 1
            located = any(lies_on(b, tuple(box)) for r in reads for b in r.index_boxes for box in shows)
            misses.append(Miss(photo, tuple(shows[0]), c["card"], None, 0.0, located))
    return counts, misses


# --- how the readers split the black suits, by rank ---

SUIT_GROUPS = ("aces", "number cards", "courts")


def black_suit_lean(dirs: list[Path]) -> dict[tuple[str, str], list[int]]:
    """(suit, group) -> [reads, taken for the other black suit]: every cached read of a club or a spade's index (its
    first index box's, ``vision.truth.card_of_index_at``) whose club and spade of that rank hold at least half of its
    probabilities as read (``CardDetection.alternatives``), taken for the other suit when the other's share of the two
    is the larger; grouped as aces, number cards and courts. A reader's lean toward one black suit on a design it
    never saw shows here long before it costs a table (session 42: none on the train families, the courts of clubs on
    the validation families, the aces and number cards of clubs on the test families)."""
    out: dict[tuple[str, str], list[int]] = {(s, g): [0, 0] for s in "cs" for g in SUIT_GROUPS}
    for root in dirs:
        for _family, path, truth in tables([root]):
            for card in cached(root, path).cards:
                shown = card_of_index_at(truth, card.index_boxes[0]) if card.index_boxes else None
                if shown is None or shown[1] not in "cs":
                    continue
                other = shown[0] + ("s" if shown[1] == "c" else "c")
                p = {str(c): q for c, q in card.alternatives}
                mine, theirs = p.get(shown, 0.0), p.get(other, 0.0)
                if mine + theirs < 0.5:
                    continue
                group = "aces" if shown[0] == "A" else "courts" if shown[0] in "JQK" else "number cards"
                counts = out[(shown[1], group)]
                counts[0] += 1
                counts[1] += theirs > mine
    return out


# --- perturbations of the real readings (the model card's checks) ---

def _height(c: CardDetection) -> float:
    if c.outline is not None:
        pts = np.array(c.outline)
        return float(np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1).max())
    x1, y1, x2, y2 = c.index_boxes[0] if c.index_boxes else c.box
    return max(x2 - x1, y2 - y1) * (4.6 if c.index_boxes else 1.0)


def _moved(c: CardDetection, dx: float, dy: float) -> CardDetection:
    def box(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)

    o = c.outline
    return replace(c, box=box(c.box), index_boxes=tuple(box(b) for b in c.index_boxes),
                   outline=None if o is None else ((o[0][0] + dx, o[0][1] + dy), (o[1][0] + dx, o[1][1] + dy),
                                                   (o[2][0] + dx, o[2][1] + dy), (o[3][0] + dx, o[3][1] + dy)))


def _turned(c: CardDetection, degrees: int) -> CardDetection:
    """``c`` turned about its centre (outline, index boxes' centres, facing)."""
    cx, cy = c.center
    a = math.radians(degrees)
    cos, sin = round(math.cos(a)), round(math.sin(a))

    def point(x: float, y: float) -> tuple[float, float]:
        return (cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos)

    def box(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        (x1, y1), (x2, y2) = point(b[0], b[1]), point(b[2], b[3])
        return (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))

    o = c.outline
    return replace(c, box=box(c.box), index_boxes=tuple(box(b) for b in c.index_boxes),
                   outline=None if o is None else (point(*o[0]), point(*o[1]), point(*o[2]), point(*o[3])),
                   up=None if c.up is None else (c.up + degrees) % 360)


def _phantom(rng: random.Random, cards: list[CardDetection], identity: Card, confidence: float) -> CardDetection:
    """A read of ``identity`` beside a random card (0.3-0.7 of its height away), as that card lies."""
    near = rng.choice(cards)
    a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.3, 0.7) * _height(near)
    return replace(_moved(near, r * math.cos(a), r * math.sin(a)), card=identity, confidence=confidence,
                   alternatives=((identity, confidence),))


Perturb = Callable[[random.Random, list[CardDetection]], list[CardDetection]]


def _take(k: int) -> Perturb:
    def go(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
        gone = set(rng.sample(range(len(cards)), k))
        return [c for i, c in enumerate(cards) if i not in gone]
    return go


def _add_phantom(sure: bool) -> Perturb:
    def go(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
        confidence = rng.uniform(0.9, 1.0) if sure else rng.uniform(0.3, 0.84)
        return [*cards, _phantom(rng, cards, rng.choice(DECK), confidence)]
    return go


def _shift(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
    """One card moved 0.3-0.9 of its height toward or away from its player (along its facing)."""
    i = rng.randrange(len(cards))
    c = cards[i]
    up = math.radians(c.up if c.up is not None else 0.0)
    d = rng.uniform(0.3, 0.9) * _height(c) * rng.choice((-1, 1))
    out = list(cards)
    out[i] = _moved(c, d * math.sin(up), -d * math.cos(up))
    return out


def _turn(degrees: int) -> Perturb:
    def go(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
        i = rng.randrange(len(cards))
        out = list(cards)
        out[i] = _turned(cards[i], degrees)
        return out
    return go


def _misread(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
    """One card read as another card on the table (a duplicate identity)."""
    i, j = rng.sample(range(len(cards)), 2)
    out = list(cards)
    out[i] = replace(cards[i], card=cards[j].card)
    return out


def _phantom_duplicate(rng: random.Random, cards: list[CardDetection]) -> list[CardDetection]:
    """A confident phantom read of a card on the table beside a random card, and a real card taken away."""
    phantom = _phantom(rng, cards, rng.choice(cards).card, rng.uniform(0.9, 1.0))
    gone = rng.randrange(len(cards))
    return [c for i, c in enumerate(cards) if i != gone] + [phantom]


CHECKS: dict[str, tuple[Perturb, int]] = {  # each check and its repetitions per table
    "take 1 card away": (_take(1), 5),
    "take 2 cards away": (_take(2), 5),
    "phantom read, sure": (_add_phantom(True), 3),
    "phantom read, weak": (_add_phantom(False), 3),
    "card moved toward/away from its player": (_shift, 3),
    "card turned 90": (_turn(90), 3),
    "card turned 180": (_turn(180), 3),
    "card turned 270": (_turn(270), 3),
    "card misread as another on the table": (_misread, 3),
    "sure phantom duplicate + a card taken away": (_phantom_duplicate, 6),
}


Job = tuple[str, Path, dict[str, Any], str, list[str], bool, int]


def _perturbed_table(job: Job) -> dict[str, dict[str, list[str]]]:
    family, path, truth, rules_name, names, use_truth, most = job
    rules = load_ruleset(rules_name)
    base = cached(path.parents[2], path, truth if use_truth else None)
    out: dict[str, dict[str, list[str]]] = {name: {} for name in names}
    for name in names:
        change, reps = CHECKS[name]
        for rep in range(min(reps, most)):
            rng = random.Random(f"{path.stem}/{name}/{rep}")
            cards = change(rng, list(base.cards))
            out[name][f"{family}/{path.stem}#{rep}"] = list(scored(tuple(cards), base, truth, rules))
    return out


def perturbed(dirs: list[Path], rules_name: str, only: str | None, workers: int, use_truth: bool = False,
              most: int = 99) -> dict[str, dict[str, list[str]]]:
    """Per check, per table and repetition (``family/stem#rep``): [outcome, digest]. ``use_truth``: perturb the
    ground truth instead of the cached readings; ``most``: repetitions per check at most."""
    names = [name for name in CHECKS if only is None or only in name]
    out: dict[str, dict[str, list[str]]] = {name: {} for name in names}
    jobs: list[Job] = [(family, path, truth, rules_name, names, use_truth, most)
                       for family, path, truth in tables(dirs)]
    with multiprocessing.Pool(workers) as pool:
        for k, done in enumerate(pool.imap_unordered(_perturbed_table, jobs)):
            for name, outcomes in done.items():
                out[name].update(outcomes)
            print(f"\r{k + 1}/{len(jobs)} tables", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def _counts(outcomes: dict[str, list[str]]) -> str:
    n = Counter(o for o, _ in outcomes.values())
    return f"{len(outcomes):>6} tables: {n[RIGHT]:>5} right, {n[STOPPED]:>5} stopped, {n[WRONG]} WRONG"


def _warn_stale(dirs: list[Path], models: Path | None) -> None:
    for line in stale_caches(dirs, models or MODELS):
        print(f"warning: {line}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("cache", "tables", "perturb", "compare", "reliability", "misses",
                                            "suits"))
    parser.add_argument("paths", type=Path, nargs="+")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--out", type=Path, help="perturb/tables: where to write every outcome (JSON)")
    parser.add_argument("--only", help="perturb: only the checks whose name holds this")
    parser.add_argument("--workers", type=int, default=1, help="perturb: processes")
    parser.add_argument("--truth", action="store_true", help="tables/perturb: the ground truth as the detector")
    parser.add_argument("--reps", type=int, default=99, help="perturb: repetitions per check at most")
    parser.add_argument("--models", type=Path, default=None,
                        help="cache: the ONNX models folder to read with (default: models/); the other commands "
                             "warn when a set's cached readings were made with other models than this one's")
    parser.add_argument("--sheet", type=Path, help="misses: a contact sheet of them (PNG)")
    args = parser.parse_args(argv)
    if args.command == "compare":
        if len(args.paths) != 2 or not all(p.is_file() for p in args.paths):
            print("compare: give two perturb --out JSON files that exist", file=sys.stderr)
            return 2
        before, after = (json.loads(p.read_text()) for p in args.paths)
        changed = 0
        for name in (n for n in before if n in after):
            diff = {k: (v, after[name].get(k)) for k, v in before[name].items() if after[name].get(k) != v}
            changed += len(diff)
            print(f"{name}: {len(diff)} of {len(before[name])} changed")
            for k, (was, now) in sorted(diff.items())[:20]:
                print(f"    {k}: {was} -> {now}")
        return 1 if changed else 0
    if args.command in ("reliability", "misses", "suits"):
        _warn_stale(args.paths, args.models)
    if args.command == "suits":
        names = {"c": ("clubs", "spades"), "s": ("spades", "clubs")}
        for root in args.paths:
            lean = black_suit_lean([root])
            print(f"{root.name}: " + "; ".join(
                f"{names[suit][0]} taken for {names[suit][1]}: " + ", ".join(
                    f"{group} {lean[(suit, group)][1]} of {lean[(suit, group)][0]}" for group in SUIT_GROUPS)
                for suit in "cs"))
        return 0
    if args.command == "reliability":
        reads = cached_reads(args.paths)
        for row in reliability(reads):
            print(f"confidence {row['confidence']}: {row['reads']:>6} reads, {row['wrong']:>4} wrong "
                  f"({row['share_wrong']:.1%})")
        sure = [right for confidence, right in reads if confidence >= MIN_CONFIDENCE]
        print(f"at or above {MIN_CONFIDENCE}: {len(sure)} reads, {sure.count(False)} wrong "
              f"({sure.count(False) / max(len(sure), 1):.2%})")
        return 0
    if args.command == "misses":
        total: Counter[str] = Counter()
        every: list[Miss] = []
        for family, path, truth in tables(args.paths):
            counts, misses = table_misses(path.parents[2], path, truth)
            total += counts
            every += misses
            if misses:
                print(f"{family}/{path.stem}: " + "; ".join(
                    f"{m.truth} -> {m.read} {m.confidence:.2f}" if m.read else f"{m.truth} not read" for m in misses))
        print(", ".join(f"{kind} {total[kind]}" for kind in
                        ("right", "not read", "another card", "on no card", "read twice")))
        if args.sheet:
            contact_sheet(every, args.sheet)
        return 0
    rules = load_ruleset(args.rules)
    if args.command in ("tables", "perturb") and not args.truth:
        _warn_stale(args.paths, args.models)
    if args.command == "perturb":
        start = time.perf_counter()
        result = perturbed(args.paths, args.rules, args.only, args.workers, args.truth, args.reps)
        for name, outcomes in result.items():
            print(f"{name:<44} {_counts(outcomes)}")
        print(f"{'all':<44} {_counts({f'{n}/{k}': v for n, o in result.items() for k, v in o.items()})}")
        print(f"{time.perf_counter() - start:.0f} s")
        if args.out:
            args.out.write_text(json.dumps(result, indent=0, sort_keys=True))
        return 0
    detector = None
    if args.command == "cache":
        from vision.detector import CardDetector

        detector = (CardDetector() if args.models is None else CardDetector(args.models)).detect
    results: dict[str, dict[str, list[str]]] = {}
    for root in args.paths:
        full: dict[str, list[str]] = {}
        from_cache: dict[str, list[str]] = {}
        for _family, path, truth in tables([root]):
            key = f"{root.name}/{path.stem}"
            if detector is not None:
                from vision.image_io import read_image

                dets = detector(read_image(root / truth["image"]))
                if not full:   # the set's first table: its old readings no longer say which models made them
                    (root / "readings").mkdir(exist_ok=True)
                    (root / "readings" / MODELS_FILE).unlink(missing_ok=True)
                (root / "readings" / f"{path.stem}.json").write_text(json.dumps(detections_to_json(dets)))
                full[key] = list(scored(dets.cards, dets, truth, rules))
                print(f"\r{root.name}: {len(full)}", end="", file=sys.stderr)
            base = cached(root, path, truth if args.truth else None)
            from_cache[key] = list(scored(base.cards, base, truth, rules))
        if full:
            record_models(root, args.models or MODELS)
            print(f"\n{root.name}, full run:      {_counts(full)}")
            results[f"{root.name} full run"] = full
        print(f"{root.name}, cached readings: {_counts(from_cache)}")
        results[f"{root.name} cached"] = from_cache
        for k in sorted(set(full) & set(from_cache)):
            if full[k] != from_cache[k]:
                print(f"    {k}: full run {full[k]}, cached {from_cache[k]}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=0, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
