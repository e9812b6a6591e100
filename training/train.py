"""Train the two-stage card detector and export it to ONNX in ``models/``.

    python -m training.train                      # the full recipe (see models/MODEL_CARD.md), ~5.1 h here
    python -m training.train --resume             # go on after an interruption
    python -m training.train --stages cls4 --resume   # one stage (phases start from the previous one's best)

Steps (each one skipped when its output exists, so a rerun resumes):

1. ``datasets.synth`` scenes (train families; val families for validation) under
   ``<work>/scenes``.
2. Stage-1 data: ``<work>/tiles`` - square tiles of the scenes at random scales with
   one YOLO box per visible corner index (a single class ``index``).
3. Stage-2 data: ``<work>/crops`` - square crops of every visible index turned to the
   nearest upright quarter turn (52 classes), plus background crops and upside-down
   indices (class ``zz_bg``, the reject class).
4. Train both with ultralytics from the model YAMLs (no downloaded weights), each with
   a time budget; ``--resume`` continues ``last.pt``. Stage 1: ``det`` (700 scenes'
   tiles), then ``det2`` (fine-tuned on 1,400 scenes' tiles), then ``det4`` (2,800 scenes plus
   1,000 scenes of the decks with foreign index letters, ``<work>/scenes_foreign``: they need
   ``python -m datasets.setup_art --tiers B,C``; smaller indices, turned up to 10 deg), then
   ``det6`` (plus 1,500 scenes of procedural font decks, ``<work>/scenes_fonts``, made by
   ``datasets.synth --font-decks``: index designs in the machine's fonts);
   ``det3`` (``det2`` turned up to 40 deg) is available but not in the default recipe (see
   models/MODEL_CARD.md). Stage 2: ``cls`` and ``cls2`` (700 scenes' crops), ``cls3`` (1,400),
   ``cls4`` (2,800, turns up to 30 deg), ``cls5`` (the same, more epochs, harder blur), ``cls8``
   (plus the font-deck scenes' crops), ``cls9`` (``cls8`` continued with twice the font decks);
   ``cls6`` (plus the foreign-letter decks' number cards) and ``cls7`` (plus 2,000 scenes rendered
   at 800-1,400 px, ``<work>/scenes_small``: small indices drawn small) on request; ``det7`` and
   ``cls10`` (``det6`` / ``cls9`` plus 3,000 train-family scenes framed as the generator frames
   tables now, ``<work>/scenes_v2``: the first 2,800 had the camera closer) and ``cls11`` (``cls9``
   plus 3,000 scenes of 300 new font decks, ``<work>/scenes_fonts3``) on request too, and ``cls12``
   (``cls9`` on both font-deck crop sets with motion-blur augmentation; not shipped). ``cls13`` (the second
   reader) continues ``cls9`` on crops of REAL photos (``training.realcrops``: cardcounter's train capture
   blocks) beside 300 train-family and 250 new font-deck scenes' crops; where ``cls9``'s run is not here it
   starts from ``models/index_cls9.pt``. ``cls17`` (the first reader until ``cls44``) continues
   ``cls9`` (else ``models/index_cls9.pt``) on ``cls13``'s synthetic crops beside the crops of 1,500 scenes laid
   in tight rows (``<work>/scenes_tight``, ``scenes_tight_fonts``: ``datasets.synth --tight``), with the strips
   a person reads; ``cls15`` and ``cls16`` (on request) add the real crops. ``cls19`` (the second reader)
   continues ``cls13`` (else ``models/index_cls13.pt``) on ``cls15``'s data with the cards of a tight row pasted
   around half of each batch's index crops (``training.neighbours``); ``cls18`` (on request) does that to
   ``cls17``, and ``cls20`` (on request) continues ``cls17`` on its data with most crops not blurred sharpened
   (real webcams' edges are half as wide); ``cls21`` (on request) repeats ``cls19`` on the real crops cut again
   with the corrected labels, 24 per index, and ``cls22`` (on request) continues ``cls19`` on those and the crops
   of ``--bent-scenes`` scenes of bowed cards with glare bands (``datasets.synth --bent``); ``cls23`` (on
   request) continues ``cls19`` on ``cls21``'s data with the real crops cut as the runtime reads each photo
   (squashed square frames widened back, ``vision.stretch``), and ``cls24`` (on request) with the pasted
   neighbours cutting into the index's ink in half of them (``training.neighbours``, ``cut``). ``cls25`` (on
   request) continues ``cls17`` on its data beside the crops of ``--look-scenes`` and ``--look-font-scenes``
   scenes with the camera look measured on real photos (``datasets.synth --look real``). ``cls26``-``cls31`` (on
   request) continue ``cls19`` (``cls26``, ``cls29``, ``cls31``) and ``cls17`` (``cls27``, ``cls28``, ``cls30``),
   each from the one before it, with a share of each batch cut down to strips of its index
   (``training.neighbours.cut_strips``; measured by ``benchmarks/real_strips.py``). ``cls33``-``cls36`` (on
   request) continue ``cls19`` (``cls33``, ``cls36``) and ``cls17`` (``cls34``, ``cls35``) with index crops
   turned 30-42 deg in the batch (``cls33``, ``cls34``) or beside crops cut turned 25-42 deg among their
   neighbours (``cls35``, ``cls36``: ``training.train_data.build_fanned_crops``), as a fan's cards lie
   (``benchmarks/real_turned.py``). ``cls44`` (the first reader) continues ``cls17`` (else
   ``models/index_cls17.pt``) on its own data beside the crops of ``--fan-scenes`` and ``--fan-font-scenes``
   scenes whose rows are laid as fans (``datasets.synth --fan 1``), their readable strips too; ``cls45`` (on
   request) does that to ``cls19``, and ``cls46`` (on request) continues ``cls44`` beside fans laid mostly tight
   too (``--tight-fan-scenes``: ``--fan 1 --tight 0.8``); ``cls47`` (on request) continues ``cls44`` beside crops of
   the real train blocks, half of them cut from the photos shrunk as a poorer camera leaves them
   (``training.realcrops.poorer``; measured by ``benchmarks/real_scaled.py``), ``cls48`` (on request) beside
   ``cls39``'s font-deck scenes with suits drawn from parameters. ``cls50`` (the first reader) continues ``cls44``
   (else ``models/index_cls44.pt``) on its own data beside crops of the real train blocks whose cards are covered in
   the photo down to strips a person reads, as the next card of a tight row or fan covers them
   (``training.realcover``; measured by ``benchmarks/real_covered.py``); ``cls49`` (on request) is the same with a
   third of those crops, and ``cls51`` (on request) continues ``cls19`` beside them; ``cls52`` continues ``cls50``
   (else ``models/index_cls.pt``) at a lower rate beside the train blocks' cards covered twice as often, and
   ``cls53`` (the second reader) continues ``cls52`` (else ``models/index_cls52.pt``) on the same data beside
   ``--bent-scenes`` scenes of bowed cards with glare bands. The last
   index-finder phase, ``det8``, continues ``det6`` on tiles
   of the same real photos (``training.realtiles``) beside 300 train-family and 250 font-deck scenes' tiles, at
   416 px; where ``det6``'s run is not here it starts from ``models/index_det6.pt``. ``det11`` (on request)
   continues ``det8`` (else ``models/index_det.pt``) on its tiles beside tiles of the real train blocks with their
   cards covered in the photo down to strips (``training.realcover.build_covered_photos``: the strips a person
   reads and the covering cards' own indices labelled). ``cls14`` (on request, not
   shipped) continues ``cls13`` on new crops of the real photos cut around ``det8``'s boxes too.
   The two stages run at the same time, one core each (``--lanes 2``).
5. Export ``best.pt`` of each to ``models/index_det.onnx`` (the last, ``det8``, ships) and
   ``models/index_cls.onnx`` (``cls50``, after ``cls17`` and ``cls44``, ships; ``cls53``, after ``cls50`` and
   ``cls52``: ``models/index_cls2.onnx``, the second reader asked where the first is unsure; ``cls19``, ``cls11``
   too, on request).

Needs the ``train`` extra (torch + ultralytics); the runtime does not.
"""

# This module is the CLI: options, lanes, running a phase. The phases are data (training.train_phases); their
# scenes, tiles and crops come from training.train_data, the training and export from training.train_finder
# (stage 1) and training.train_reader (stage 2).

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .train_data import (
    DET_TILE,
    FOREIGN_TIERS,
    SMALL_SIZE,
    build_crops,
    build_fanned_crops,
    build_tiles,
    class_dirs,
    ensure_bent_scenes,
    ensure_covered_crops,
    ensure_covered_tiles,
    ensure_fan_scenes,
    ensure_font_scenes,
    ensure_foreign_scenes,
    ensure_held_scenes,
    ensure_look_scenes,
    ensure_real_crops,
    ensure_real_tiles,
    ensure_scenes,
    ensure_small_scenes,
    ensure_tight_scenes,
    ensure_v2_scenes,
    scene_items,
)
from .train_env import MODELS, ROOT, THREADS, log, offline_env
from .train_finder import DET_EXPORT, export, train_stage
from .train_phases import (
    CLS_PHASES,
    DET_PHASES,
    READER_BUDGETS,
    SHIPPED_FINDER,
    ClsPhase,
    DetPhase,
    FontScenes,
    all_font_scenes,
    font_scene_count,
)
from .train_reader import _augment, _load_crops, export_classifier, train_classifier

__all__ = [  # what other code imports from here (the CLI's building blocks, re-exported)
    "CLS_PHASES", "DET_PHASES", "DET_TILE", "FOREIGN_TIERS", "MODELS", "READER_BUDGETS", "ROOT", "SMALL_SIZE",
    "ClsPhase", "DetPhase", "FontScenes", "_augment", "_load_crops", "build_crops", "build_tiles", "class_dirs",
    "ensure_scenes", "export", "export_classifier", "main", "scene_items", "train_classifier", "train_stage",
]


TURN_BG = 0.05  # the tight crop sets' share of index crops also written a quarter turn off as background


def _det_weights(runs: Path, name: str) -> Path:
    """A stage-1 run's best weights (its last ones when it stopped before a best was saved)."""
    w = runs / name / "weights"
    return w / "best.pt" if (w / "best.pt").exists() else w / "last.pt"


def _cls_run(runs: Path, name: str, args: argparse.Namespace) -> Path:
    """A stage-2 phase's run folder (the first phase's name is ``--cls-run``)."""
    return runs / (args.cls_run if name == "cls" else name)


def _start(name: str, init_phase: str, init: Path, shipped: str | None) -> Path:
    """Where phase ``name`` starts: ``init_phase``'s run weights, or, when that run is not here, the weights it left in
    models/ (committed): its own ``index_<phase>.pt``, else the file ``shipped`` names."""
    if init.exists():
        return init
    found = next((p for p in (MODELS / f"index_{init_phase}.pt", MODELS / shipped if shipped else None)
                  if p is not None and p.exists()), None)
    if found is None:
        return init
    log(f"{name}: {init_phase} is not trained here: starting from {found}")
    return found


def run_det_phase(name: str, phase: DetPhase, args: argparse.Namespace, scenes: Path, work: Path, runs: Path) -> None:
    """One index-finder phase as its row says: its tiles (and the scene sets it adds), training, export."""
    tiles = work / phase.tiles
    size: dict[str, Any] = dict(scale_range=phase.scale_range, tile=phase.tile)
    n = build_tiles(scenes, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset,
                    getattr(args, phase.scenes), **size)
    if phase.foreign and args.foreign_scenes:
        foreign = ensure_foreign_scenes(args, work)
        n += build_tiles(foreign, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 1,
                         args.foreign_scenes, tag="_foreign", **size)
    if phase.fonts is not None and (n_fonts := font_scene_count(phase, args)):
        fonts = ensure_font_scenes(args, work, n_fonts, phase.fonts.scenes, phase.fonts.seed_offset)
        n += build_tiles(fonts, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 2,
                         n_fonts, tag="_fonts", **size)
    if phase.v2 and args.v2_scenes:
        v2 = ensure_v2_scenes(args, work)
        n += build_tiles(v2, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 3,
                         args.v2_scenes, tag="_v2", **size)
    if phase.tight and args.det_tight_scenes:
        tight, tight_fonts = ensure_tight_scenes(args, work)
        n += build_tiles(tight, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 4,
                         args.det_tight_scenes, tag="_tight", strips=True, **size)
        n += build_tiles(tight_fonts, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 5,
                         args.det_tight_scenes // 2, tag="_tight_fonts", strips=True, **size)
    if phase.held and args.held_scenes:
        held, held_fonts = ensure_held_scenes(args, work)
        n += build_tiles(held, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 6,
                         args.held_scenes, tag="_held", strips=True, **size)
        n += build_tiles(held_fonts, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 7,
                         args.held_font_scenes, tag="_held_fonts", strips=True, **size)
    n_val = build_tiles(scenes, "val", tiles, 2, args.seed + 1, args.val_scenes, tile=phase.tile)
    if phase.real:
        n_real, n_val_real = ensure_real_tiles(tiles, args.seed + phase.seed_offset, phase.tile, args.real_photos)
        n, n_val = n + n_real, n_val + n_val_real
        log(f"{phase.tiles}: {n_real} of the train tiles and {n_val_real} of the val tiles are of real photos")
    if phase.real_covered:
        n_covered = ensure_covered_tiles(tiles, work / phase.real_covered, args.seed + phase.seed_offset + 8,
                                         phase.tile, args.real_photos, phase.real_covered_copies)
        n += n_covered
        log(f"{phase.tiles}: {n_covered} of the train tiles are of real photos with cards covered in them")
    log(f"{phase.tiles}: {n} train, {n_val} val")
    init = None if phase.init is None else _start(  # the shipped finder's own weights are models/index_det.pt
        name, phase.init, _det_weights(runs, phase.init), "index_det.pt" if phase.init == SHIPPED_FINDER else None)
    best = train_stage("det", tiles / "data.yaml", runs, args.det_epochs, getattr(args, f"{name}_hours") or None,
                       phase.tile, 16, args.resume,
                       dict(cache=True, close_mosaic=1, degrees=phase.degrees, fliplr=0.5, scale=0.3, mosaic=1.0,
                            hsv_h=0.02, val=True, max_det=600, optimizer="AdamW", lr0=phase.lr,
                            warmup_epochs=phase.warmup),
                       init=init, name=name, freeze_bn=phase.freeze_bn)
    export(best, "det", DET_EXPORT, args.models)


def _add_crops(more: list[Path], scenes: Path, out: Path, seed: int, n: int, note: str = "",
               ranks: str | None = None, strips: bool = False) -> None:
    """Crops of the first ``n`` scenes of another scene set into ``out``, a folder the phase also trains on;
    ``strips``: the readable strips of partly covered indices too, and a share of sideways indices as background
    (the tight-row and bent scene sets)."""
    more.append(out)
    made = build_crops(scenes, "train", out, seed, n, ranks=ranks, strips=strips, turn_bg=TURN_BG if strips else 0.0)
    log(f"{out.name}: {made} train{' (strips too)' if strips else ''}{note}")


def run_cls_phase(name: str, phase: ClsPhase, args: argparse.Namespace, scenes: Path, work: Path, runs: Path) -> None:
    """One reader phase as its row says: its crops (and the crop sets it adds), training, export."""
    crops = work / phase.crops
    n = build_crops(scenes, "train", crops, args.seed + phase.seed_offset, getattr(args, phase.scenes))
    log(f"{phase.crops}: {n} train, {build_crops(scenes, 'val', crops, args.seed + 1, args.val_scenes)} val")
    more: list[Path] = []
    seed = args.seed + phase.seed_offset
    if phase.foreign and args.foreign_scenes:
        _add_crops(more, ensure_foreign_scenes(args, work), work / "crops_foreign", seed + 1, args.foreign_scenes,
                   " (number cards and background)", ranks="23456789T")
    if phase.small and args.small_scenes:
        _add_crops(more, ensure_small_scenes(args, work), work / "crops_small", seed + 2, args.small_scenes)
    for fonts in all_font_scenes(phase):
        if n_scenes := int(getattr(args, fonts.count)):
            font_scenes = ensure_font_scenes(args, work, n_scenes, fonts.scenes, fonts.seed_offset, fonts.drawn_suits,
                                             fonts.debian_fonts)
            _add_crops(more, font_scenes, work / fonts.crops, seed + 3, n_scenes)
    if phase.v2 and args.v2_scenes:
        _add_crops(more, ensure_v2_scenes(args, work), work / "crops_v2", seed + 4, args.v2_scenes)
    with_strips: list[tuple[Path, str, int, int]] = []  # scene sets whose readable strips are crops too
    if phase.tight and args.tight_scenes:
        tight, tight_fonts = ensure_tight_scenes(args, work)
        with_strips += [(tight, "crops_tight", args.tight_scenes, 5),
                        (tight_fonts, "crops_tight_fonts", args.tight_font_scenes, 6)]
    if phase.bent and args.bent_scenes:
        with_strips.append((ensure_bent_scenes(args, work), "crops_bent", args.bent_scenes, 7))
    if phase.look and args.look_scenes:
        look, look_fonts = ensure_look_scenes(args, work)
        with_strips += [(look, "crops_look", args.look_scenes, 8),
                        (look_fonts, "crops_look_fonts", args.look_font_scenes, 9)]
    if phase.held and args.held_scenes:
        held, held_fonts = ensure_held_scenes(args, work)
        with_strips += [(held, "crops_held", args.held_scenes, 12),
                        (held_fonts, "crops_held_fonts", args.held_font_scenes, 13)]
    if phase.fan_rows and args.fan_scenes:
        fan, fan_fonts = ensure_fan_scenes(args, work)
        with_strips += [(fan, "crops_fan", args.fan_scenes, 14),
                        (fan_fonts, "crops_fan_fonts", args.fan_font_scenes, 15)]
    if phase.tight_fans and args.tight_fan_scenes:
        fan, fan_fonts = ensure_fan_scenes(args, work, tight=True)
        with_strips += [(fan, "crops_fan_tight", args.tight_fan_scenes, 16),
                        (fan_fonts, "crops_fan_tight_fonts", args.tight_fan_font_scenes, 17)]
    for scenes_k, out_k, n_k, off in with_strips:
        if n_k:
            _add_crops(more, scenes_k, work / out_k, seed + off, n_k, strips=True)
    if phase.fanned:
        fan_sets = [(scenes, "crops_fanned", getattr(args, phase.scenes), 10)]
        if args.tight_scenes:
            fan_sets.append((ensure_tight_scenes(args, work)[0], "crops_fanned_tight", args.tight_scenes, 11))
        for scenes_k, out_k, n_k, off in fan_sets:
            more.append(work / out_k)
            log(f"{out_k}: {build_fanned_crops(scenes_k, 'train', work / out_k, seed + off, n_k)} train (fanned)")
    val_more: list[Path] = []
    if phase.real:
        val_more.append(ensure_real_crops(work / phase.real_crops, 0, args.real_photos, phase.real_variants,
                                          phase.real_as_read, phase.real_filtered, phase.real_shrunk))
        more.append(work / phase.real_crops)
    if phase.real_covered:
        more.append(ensure_covered_crops(work / phase.real_covered, seed + 18, args.real_photos,
                                         phase.real_covered_copies))
    init = args.cls_init if phase.init is None else _start(  # or the weights of its export (training.recover)
        name, phase.init, _cls_run(runs, phase.init, args) / "best.pt", Path(CLS_PHASES[phase.init].exports_as).stem
        + ".pt")
    epochs, hours = getattr(args, f"{name}_epochs"), getattr(args, f"{name}_hours")
    best = train_classifier(crops, _cls_run(runs, name, args), epochs, hours or None, args.resume,
                            lr=phase.lr if phase.lr is not None else args.cls_lr, init=init, max_deg=phase.max_deg,
                            blur_p=phase.blur_p, blur_min=phase.blur_min, more=more, motion_p=phase.motion_p,
                            stretch_p=phase.stretch_p, freeze_bn=phase.freeze_bn, val_more=val_more,
                            neighbour_p=phase.neighbour_p, sharpen_p=phase.sharpen_p, cut_p=phase.cut_p,
                            strip_p=phase.strip_p, wide_p=phase.wide_p)
    export_classifier(best, args.models, phase.exports_as)


# --------------------------------------------------------------------------- main

def _without(argv: list[str], option: str) -> list[str]:
    """``argv`` without ``option`` and its value (``--option V`` or ``--option=V``)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == option:
            skip = True
        elif not a.startswith(option + "="):
            out.append(a)
    return out


def run_lanes(argv: list[str], lanes: list[list[str]], work: Path) -> None:
    """Run the index-finder stages and the reader stages as two processes at once (each one
    torch thread: on 2 cores that halves the recipe's wall time). The first lane's progress
    shows here; the second lane writes ``<work>/train_lane2.log``."""
    base = [sys.executable, "-m", "training.train", *_without(_without(argv, "--stages"), "--lanes"), "--lanes", "1"]
    log2 = work / "train_lane2.log"
    log(f"lanes: {','.join(lanes[0])} here, {','.join(lanes[1])} in the background (log: {log2})")
    with log2.open("w") as fh:
        second = subprocess.Popen([*base, "--stages", ",".join(lanes[1])], cwd=ROOT, stdout=fh, stderr=fh)
        first = subprocess.run([*base, "--stages", ",".join(lanes[0])], cwd=ROOT, check=False)
        second.wait()
    if first.returncode or second.returncode:
        raise SystemExit(f"training failed: lane 1 exit {first.returncode}, lane 2 exit {second.returncode} "
                         f"(see {log2})")


def train_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m training.train`` (its defaults are the recipe)."""
    ap = argparse.ArgumentParser(prog="python -m training.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "datasets" / "generated" / "detector",
                    help="work folder: scenes, tiles, crops, runs (git-ignored)")
    ap.add_argument("--scenes", type=int, default=700, help="training scenes (train families)")
    ap.add_argument("--val-scenes", type=int, default=60, help="validation scenes (val families)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", type=int, default=1600, help="scene long side in px (datasets.synth --size)")
    ap.add_argument("--tiles-per-scene", type=int, default=4)
    ap.add_argument("--det-epochs", type=int, default=12)
    ap.add_argument("--det-hours", type=float, default=1.3, help="time budget for stage 1 (0 = use epochs)")
    ap.add_argument("--cls-epochs", type=int, default=12)
    ap.add_argument("--cls-hours", type=float, default=0.6, help="time budget for stage 2 (0 = use epochs)")
    ap.add_argument("--cls-lr", type=float, default=2e-3, help="stage-2 peak learning rate")
    ap.add_argument("--cls-init", type=Path, default=None, help="stage-2 weights to start from (a second phase)")
    ap.add_argument("--cls-run", default="cls", help="stage-2 run folder name under <out>/runs")
    ap.add_argument("--cls2-epochs", type=int, default=10, help="epochs of stage 2's second phase")
    ap.add_argument("--cls2-hours", type=float, default=0.5, help="time budget for stage 2's second phase")
    ap.add_argument("--ft-scenes", type=int, default=1400,
                    help="training scenes for the fine-tuning phases det2 and cls3 (the first --scenes plus new ones)")
    ap.add_argument("--det2-hours", type=float, default=1.5, help="time budget for stage 1's fine-tuning phase")
    ap.add_argument("--det3-hours", type=float, default=0.6,
                    help="time budget for stage 1's third phase (tiles turned up to 40 deg)")
    ap.add_argument("--ft2-scenes", type=int, default=2800, help="training scenes for stage 2's fourth phase cls4")
    ap.add_argument("--det4-hours", type=float, default=1.2,
                    help="time budget for stage 1's fourth phase (all --ft2-scenes, smaller indices)")
    ap.add_argument("--det5-hours", type=float, default=0.9,
                    help="time budget for stage 1's fifth phase (det4 continued at a lower rate; on request)")
    ap.add_argument("--det6-hours", type=float, default=0.9,
                    help="time budget for stage 1's sixth phase (det4 + the font decks' tiles)")
    ap.add_argument("--det7-hours", type=float, default=0.8,
                    help="time budget for stage 1's phase det7 (det6 plus today's framing of the train families)")
    ap.add_argument("--det8-hours", type=float, default=1.0,
                    help="time budget for stage 1's phase det8 (det6 continued on real photos' tiles too)")
    ap.add_argument("--det9-hours", type=float, default=0.7,
                    help="time budget for stage 1's phase det9 (det8 continued on tight rows' tiles too)")
    ap.add_argument("--det10-hours", type=float, default=0.7,
                    help="time budget for stage 1's phase det10 (det8 continued on phone-held tables' tiles too)")
    ap.add_argument("--det11-hours", type=float, default=0.7,
                    help="time budget for stage 1's phase det11 (det8 continued on real photos' cards covered too)")
    ap.add_argument("--det-tight-scenes", type=int, default=300,
                    help="det9: tiles of this many of the --tight-scenes scenes and half as many of the "
                         "--tight-font-scenes ones, their readable strips labelled")
    ap.add_argument("--foreign-scenes", type=int, default=1000,
                    help="scenes of the tier B/C train decks (foreign index letters) for det4's tiles and "
                         "cls6's crops; needs python -m datasets.setup_art --tiers B,C")
    ap.add_argument("--small-scenes", type=int, default=2000,
                    help=f"scenes of the train families rendered at {SMALL_SIZE} px for cls7's crops")
    ap.add_argument("--font-scenes", type=int, default=1500,
                    help="scenes of procedural font decks (datasets.font_decks) for cls8's crops")
    ap.add_argument("--font-scenes3", type=int, default=3000,
                    help="scenes of new procedural font decks for cls11 (<work>/scenes_fonts3, another seed)")
    ap.add_argument("--v2-scenes", type=int, default=3000,
                    help="train-family scenes framed as the generator frames tables now (det7, cls10)")
    ap.add_argument("--real-scenes", type=int, default=300,
                    help="train-family scenes whose crops cls13 trains on beside the real photos' crops")
    ap.add_argument("--real-photos", type=int, default=None,
                    help="cls13, det8: only the first N photos of each real split (default: all; the smoke test's few)")
    ap.add_argument("--font-scenes-r", type=int, default=250,
                    help="scenes of new procedural font decks for cls13 (<work>/scenes_fonts_r, another seed)")
    ap.add_argument("--tight-scenes", type=int, default=1000,
                    help="train-family scenes laid mostly in tight rows (datasets.synth --tight) for the crops of "
                         "cls15-cls17")
    ap.add_argument("--tight-font-scenes", type=int, default=500,
                    help="font-deck scenes laid mostly in tight rows for the crops of cls15-cls17")
    ap.add_argument("--bent-scenes", type=int, default=300,
                    help="train-family scenes of bowed cards with glare bands, half in tight rows, for cls22's crops")
    ap.add_argument("--look-scenes", type=int, default=1000,
                    help="train-family scenes with the camera look measured on real photos (datasets.synth --look "
                         "real), half in tight rows, for cls25's crops")
    ap.add_argument("--look-font-scenes", type=int, default=500,
                    help="font-deck scenes with that look, half in tight rows, for cls25's crops")
    for name, how, phases in (  # a scene set's train-family (500) and font-deck (250) scene counts
            ("held", "laid and photographed as a phone held over the table sees them (datasets.synth --held --bent "
                     "0.6, 1600-4000 px)", "cls37 and cls38"),
            ("fan", "whose hands lay every row as a fan (datasets.synth --fan 1)",
             "cls44, cls45, cls47, cls48, cls49 and cls50"),
            ("tight-fan", "whose rows are laid as fans, mostly tight too (datasets.synth --fan 1 --tight 0.8)",
             "cls46")):
        ap.add_argument(f"--{name}-scenes", type=int, default=500,
                        help=f"train-family scenes {how}, for the crops of {phases}")
        ap.add_argument(f"--{name}-font-scenes", type=int, default=250,
                        help=f"font-deck scenes laid so, for the crops of {phases}")
    ap.add_argument("--drawn-suit-scenes", type=int, default=1000,
                    help="scenes of procedural font decks whose suits are drawn from parameters (datasets.synth "
                         "--font-decks --drawn-suits: 100 decks of clubs, spades, hearts and diamonds of many shapes) "
                         "for the crops of cls39, cls40 and cls48")
    ap.add_argument("--debian-font-scenes", type=int, default=1000,
                    help="scenes of procedural font decks whose fonts are chosen among the Debian font packages' too "
                         "(datasets.synth --font-decks --debian-fonts: 100 decks; python -m datasets.debian_fonts "
                         "first) for the crops of cls42 and cls43")
    ap.add_argument("--font-scenes2", type=int, default=3000,
                    help="scenes of procedural font decks for cls9's crops (the first --font-scenes and more)")
    for n, (hours, epochs) in READER_BUDGETS.items():   # the reader's later phases: a budget, and epochs within it
        ap.add_argument(f"--{n}-hours", type=float, default=hours, help=f"time budget for stage 2's phase {n}")
        ap.add_argument(f"--{n}-epochs", type=int, default=epochs,
                        help=f"epochs of stage 2's phase {n} (within its budget)")
    ap.add_argument("--models", type=Path, default=MODELS, help="where the ONNX files go")
    ap.add_argument("--stages",
                    default="cls,cls2,det,det2,cls3,cls4,det4,cls5,det6,cls8,det8,cls9,cls13,cls17,cls19,cls44,cls50,"
                            "cls52,cls53",
                    help="which stages to train, in order: cls (classifier), cls2..cls5, cls8, cls9, cls13, cls17, "
                         "cls19, cls44, cls50, cls52, cls53 (its later phases; cls13, cls19 on real photos too; cls44 "
                         "on rows laid as fans too; cls50 on real photos' cards covered too; cls52 on them twice "
                         "as often; cls53, the second reader, beside bowed cards too), det (index finder), det2, "
                         "det4, det6, det8 (its fine-tuning phases; det8 on real photos too); det3 (turned tiles), "
                         "det5, det7, cls6 (with the foreign-letter decks' number cards), cls7 (with small scenes), "
                         "cls10, cls11 (the former second reader), cls12, cls14, cls15, cls16, cls18, cls20, cls21, "
                         "cls22, cls23, cls24, cls25, cls26-cls31, cls33-cls43, cls45-cls49, cls51, det9, "
                         "det10, det11 on request")
    ap.add_argument("--resume", action="store_true", help="continue an interrupted run")
    ap.add_argument("--test-deck", action="store_true", help="procedural deck (no art cache needed)")
    ap.add_argument("--workers", type=int, default=2, help="processes for scene generation")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (measured here: 1 is 2-6x faster than 2 on a shared 2-core machine)")
    ap.add_argument("--export-only", action="store_true", help="export the current best.pt files and stop")
    ap.add_argument("--lanes", type=int, choices=(1, 2), default=2,
                    help="2: train the index finder (det, det2, det4, det6) and the reader (cls..cls5, cls8, cls9) at "
                         "the same time, one core each (the recipe's ~5.1 h); 1: one stage after the other")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = train_parser()
    args = ap.parse_args(argv)

    work: Path = args.out
    THREADS[0] = args.threads
    work.mkdir(parents=True, exist_ok=True)
    offline_env(work)
    scenes, runs = work / "scenes", work / "runs"
    stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    t0 = time.time()
    if args.export_only:
        for kind in stages:
            if kind in CLS_PHASES:
                export_classifier(_cls_run(runs, kind, args) / "best.pt", args.models, CLS_PHASES[kind].exports_as)
            else:
                export(_det_weights(runs, kind), "det", DET_EXPORT, args.models)
        return 0

    phases: dict[str, DetPhase | ClsPhase] = {**DET_PHASES, **CLS_PHASES}
    n_train = max([args.scenes] + [getattr(args, phases[k].scenes) for k in stages if k in phases])
    ensure_scenes(scenes, "train", n_train, args.seed, args.test_deck, args.workers, args.size)
    ensure_scenes(scenes, "val", args.val_scenes, args.seed + 1, args.test_deck, args.workers, args.size)
    # the font-deck scenes are shared by both lanes (det6, cls8, cls9; cls11 has its own): made here, before they split
    font_sets: dict[tuple[str, int, bool, bool], int] = {}  # folder, seed, drawn suits, Debian fonts -> scenes needed
    for fonts in (f for k in stages if k in phases for f in all_font_scenes(phases[k])):
        key = (fonts.scenes, fonts.seed_offset, fonts.drawn_suits, fonts.debian_fonts)
        font_sets[key] = max(font_sets.get(key, 0), int(getattr(args, fonts.count)))
    for (folder, seed_offset, drawn_suits, debian_fonts), n_fonts in font_sets.items():
        if n_fonts:
            ensure_font_scenes(args, work, n_fonts, folder, seed_offset, drawn_suits, debian_fonts)
    if any(getattr(phases[k], "v2", False) for k in stages if k in phases) and args.v2_scenes:
        ensure_v2_scenes(args, work)
    lanes = [[k for k in stages if k.startswith("det")], [k for k in stages if not k.startswith("det")]]
    if args.lanes == 2 and all(lanes):
        run_lanes(list(sys.argv[1:] if argv is None else argv), lanes, work)
        log(f"done in {(time.time() - t0) / 60:.1f} min")
        return 0
    for kind in stages:
        if kind in DET_PHASES:
            run_det_phase(kind, DET_PHASES[kind], args, scenes, work, runs)
        elif kind in CLS_PHASES:
            run_cls_phase(kind, CLS_PHASES[kind], args, scenes, work, runs)
        else:
            raise SystemExit(f"unknown stage {kind!r}")
    log(f"done in {(time.time() - t0) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
