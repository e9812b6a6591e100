"""How the whole detector reads real indices covered down to strips in the photo: tight rows made of real photos.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/real_covered.py [--models DIR ...] [--splits val test]  # needs torch

``benchmarks/real_strips.py`` cuts 64 px reader crops, each at its whole index's box: it shows the readers' blind
spot, but not what the runtime does with a strip, which stage 1 boxes around what shows and the readers then read in
a crop centred there. Here the cut is made in the photo itself. In every photo of
``../shared/realcards/cardcounter``'s held-out blocks (``val`` and ``test``; speckled ones median-filtered first, as
the runtime filters them), each card whose labelled indices stand clear of the others is covered as the next card of
a tight row covers it (``training.realcover``, with ``training.neighbours.cut_one``: the covering card's edge, a
grey line and a soft shadow, and its own index just past the edge, a real index of another held-out photo of a card
not in this one, turned and scaled alike), in the index's own upright frame: from the right leaving 80 / 70 / 60 %
of its labelled width, 70 % with the edge slanted 12 deg (a fan), from below leaving 85 / 75 % of its height (the
next row over the suit). Cards are covered a few at a time, far enough apart that no covering reaches another's
index, and the photo is read whole by the detector. The label of a covered index becomes the box of what shows, as a
person would label it. ``training.realcover`` covers the train blocks the same way for phase ``cls50``'s crops.

Printed per models folder and setting: the covered cards, recall, recall with the faint reads counted too (reads of
boxes stage 1 found only faintly, ``Detections.faint``: a hand one card short takes one where it alone lays the hand
in rows), the labelled indices stage 1 located, and of the
reads lying on a covered card, those at or above the confidence floor (0.85) that are wrong, as
``training.evaluate_real`` counts them, and how many of those took the rank of the covering card's own index (it
lies just past the strip, in the readers' crop too). ``whole`` reads the same cards uncovered. ``--misses`` lists
each covered card not read right, with the cards covering it; ``--sheet PNG`` draws them as covered, one contact sheet
per models folder and setting (``PNG``'s name with theirs, e.g. ``misses_models_right_70.png``: red a read of another
card, blue located and not read, grey not located).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from training.evaluate_real import SourceReport, add_held_out_arguments, contact_sheet, located_boxes, score_photo
from training.realcover import coverable, covered
from training.realsets import RealPhoto, cardcounter
from vision.detector import CardDetector
from vision.tiles import Image
from vision.types import MIN_CONFIDENCE

SETTINGS: tuple[tuple[str, str, float, float], ...] = (  # name, side, keep, slant (deg)
    ("whole", "", 1.0, 0.0),
    ("right 80 %", "right", 0.8, 0.0),
    ("right 70 %", "right", 0.7, 0.0),
    ("right 60 %", "right", 0.6, 0.0),
    ("right 70 %, fan 12 deg", "right", 0.7, 12.0),
    ("below 85 %", "below", 0.85, 0.0),
    ("below 75 %", "below", 0.75, 0.0),
)


def took_covering_rank(truth: str, read: str | None, covering: set[str]) -> bool:
    """Whether a covered card ``truth`` read as ``read`` took its rank from one of the ``covering`` cards (whose own
    index lies just past the strip) instead of its own.

    >>> [took_covering_rank("Ad", read, {"Kc"}) for read in ("Kd", "As", None)], took_covering_rank("Kd", "Ks", {"Kc"})
    ([True, False, False], False)
    """
    return read is not None and read[0] != truth[0] and read[0] in {c[0] for c in covering}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_held_out_arguments(ap)
    ap.add_argument("--settings", nargs="+", default=[name for name, *_ in SETTINGS],
                    choices=[name for name, *_ in SETTINGS], metavar="SETTING", help="some of: %(choices)s")
    ap.add_argument("--misses", action="store_true", help="list each covered card not read right")
    ap.add_argument("--sheet", type=Path, metavar="PNG",
                    help="draw the misses, as covered, on a contact sheet per models folder and setting: PNG's name "
                         "with the folder's and the setting's")
    args = ap.parse_args(argv)
    photos = [p for split in args.splits for p in cardcounter(split)]
    ready = coverable(photos, CardDetector())
    images, plan = ready.images, ready.plan
    print(f"cardcounter {' + '.join(args.splits)}: {len(photos)} photos, "
          f"{sum(len({u.index.card for u in g}) for gs in plan for g in gs)} cards coverable, "
          f"{sum(len(gs) for gs in plan)} photo copies a setting")
    print(f"{'models':<28} {'setting':<24} {'cards':>6} {'recall':>7} {'+faint':>7} {'located':>9} "
          f"{'confident reads wrong':>22}")
    for models in args.models:
        detector = CardDetector(models)
        for k, (name, side, keep, slant) in enumerate(SETTINGS):
            if name not in args.settings:
                continue
            report = SourceReport(name)
            with_faint = SourceReport(name)   # the faint reads counted too (a hand one card short may take one)
            under: dict[tuple[str, str], set[str]] = {}   # (photo, covered card) -> the covering cards
            seen_by_miss: list[Image] = []   # the covered photo each of report.misses lies in (--sheet)
            for i, (photo, image) in enumerate(zip(photos, images, strict=True)):
                donors = ready.donors_for(i)
                for g, group in enumerate(plan[i]):
                    if side:
                        rng = np.random.default_rng(1000 * k + 10 * i + g)
                        picks = [donors[int(j)] for j in rng.choice(len(donors), size=len(group), replace=False)]
                        seen, labels = covered(image, group, picks, side, keep, slant, seed=1000 * k + 10 * i + g)
                        for u, (_, donor) in zip(group, picks, strict=True):
                            under.setdefault((photo.path.name, u.index.card), set()).add(donor.index.card)
                    else:
                        seen, labels = image, [u.index for u in group]
                    found, as_covered = detector.detect(seen), RealPhoto(photo.path, tuple(labels))
                    located = located_boxes(found)
                    score_photo(report, as_covered, found.cards, located)
                    score_photo(with_faint, as_covered, (*found.cards, *found.faint), located)
                    if args.sheet:
                        seen_by_miss += [seen] * (len(report.misses) - len(seen_by_miss))
            sure = sum(c >= MIN_CONFIDENCE for c, _ in report.read_confidences)
            print(f"{str(models)[-28:]:<28} {name:<24} {report.cards:>6} {report.found / max(report.cards, 1):>7.3f} "
                  f"{with_faint.found / max(with_faint.cards, 1):>7.3f} "
                  f"{report.indices_located:>4}/{report.indices:<4} {report.confident_wrong:>9} of {sure:<6}",
                  flush=True)
            borrowed = [m for m in report.misses if m.confidence >= MIN_CONFIDENCE
                        and took_covering_rank(m.truth, m.read, under.get((m.photo.name, m.truth), set()))]
            if side and report.confident_wrong:
                print(f"{'':<28} {'':<24} of the confident reads wrong, {len(borrowed)} read the covering card's rank")
            if args.sheet and report.misses:
                slug = "_".join("".join(c if c.isalnum() else " " for c in f"{models.name} {name}").split())
                contact_sheet(report.misses, args.sheet.with_name(f"{args.sheet.stem}_{slug}{args.sheet.suffix}"),
                              images=seen_by_miss)
            if args.misses:
                for m in report.misses:
                    covering = ", ".join(sorted(under.get((m.photo.name, m.truth), set())))
                    print(f"    {m.photo.name[:40]} {m.truth} read {m.read or '-'} {m.confidence:.2f}"
                          f"{'' if m.found_by_stage1 else ' (not located)'}"
                          f"{f'  covered by {covering}' if covering else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
