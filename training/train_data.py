"""The training data, made from ``datasets.synth`` scenes: the scene sets the phases draw on, stage 1's
tiles (one YOLO box per visible corner index), stage 2's crops (52 card classes and ``zz_bg``), and the
hook that adds crops of real photos (``training.realcrops``). Each builder skips what is already made."""

from __future__ import annotations

import argparse
import json
import math
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from datasets.scene import MIN_INSIDE
from referee.cards import DECK
from vision.tiles import BG_CLASS, CROP_SIZE, crop_square, glyph_up_from_quad, upright_turns

from .train_env import ROOT, log

DET_TILE = 256
FOREIGN_TIERS = "B,C"  # decks with foreign index letters (datasets.decks): det4 tiles, cls6 number cards only
SMALL_SIZE = "800-1400"  # long side of the --small-scenes scenes (datasets.synth --size)


# --------------------------------------------------------------------------- scenes

def ensure_scenes(scenes: Path, split: str, n: int, seed: int, test_deck: bool, workers: int,
                  size: int | str = 1600, tiers: str | None = None, fonts: bool = False, tight: float = 0.0,
                  bent: float = 0.0, look: str = "camera", held: bool = False, drawn_suits: bool = False,
                  debian_fonts: bool = False, fan: float = 0.0) -> None:
    have = len(list((scenes / "truth" / split).glob("*.json"))) if (scenes / "truth" / split).exists() else 0
    if have >= n:
        log(f"scenes/{split}: {have} present")
        return
    log(f"scenes/{split}: generating {n - have} (from {have})")
    cmd = [sys.executable, "-m", "datasets.synth", "--n", str(n - have), "--start", str(have), "--out", str(scenes),
           "--seed", str(seed), "--split", split, "--workers", str(workers), "--size", str(size)]
    if test_deck:
        cmd.append("--test-deck")
    if tiers:
        cmd += ["--tiers", tiers]
    if fonts:
        cmd.append("--font-decks")
    if drawn_suits:
        cmd.append("--drawn-suits")
    if debian_fonts:
        cmd.append("--debian-fonts")
    if tight:
        cmd += ["--tight", str(tight)]
    if bent:
        cmd += ["--bent", str(bent)]
    if look != "camera":
        cmd += ["--look", look]
    if held:
        cmd.append("--held")
    if fan:
        cmd += ["--fan", str(fan)]
    if subprocess.run(cmd, cwd=ROOT).returncode:
        raise SystemExit(f"scene generation for {scenes} failed (its message is above)")


def scene_items(scenes: Path, split: str, limit: int | None = None) -> list[tuple[Path, dict[str, Any]]]:
    files = sorted((scenes / "truth" / split).glob("*.json"))[:limit]
    out = []
    for f in files:
        truth = json.loads(f.read_text())
        out.append((scenes / truth["image"], truth))
    return out


# --------------------------------------------------------------------------- stage 1 data

def tile_label(box: np.ndarray, tile: int) -> str | None:
    """The YOLO label line (class 0) of an index box given in a tile's pixels, clipped to the tile; None when less
    than 55 % of it is in the tile or what is left is under 3 px wide."""
    cb = np.clip(box, 0, tile)
    area = (box[2] - box[0]) * (box[3] - box[1])
    carea = max(cb[2] - cb[0], 0) * max(cb[3] - cb[1], 0)
    if area <= 0 or carea < 0.55 * area or min(cb[2] - cb[0], cb[3] - cb[1]) < 3:
        return None
    return (f"0 {(cb[0] + cb[2]) / 2 / tile:.6f} {(cb[1] + cb[3]) / 2 / tile:.6f} "
            f"{(cb[2] - cb[0]) / tile:.6f} {(cb[3] - cb[1]) / tile:.6f}")


def tile_boxes(truth: dict[str, Any], strips: bool = False) -> NDArray[np.float64]:
    """The index boxes a tile of a scene is labelled with: every visible index's; with ``strips``, also the
    strips a person reads (``readable_strip``), boxed around what shows of them as a person would box them."""
    boxes = [ix["box"] for c in truth["cards"] for ix in c["index"] if ix["visible"]]
    if strips:
        boxes += [ix["shown"] for c in truth["cards"] for ix in c["index"] if not ix["visible"] and readable_strip(ix)]
    return np.array(boxes, dtype=np.float64).reshape(-1, 4)


def build_tiles(scenes: Path, split: str, out: Path, per_scene: int, seed: int, limit: int | None = None,
                tile: int = DET_TILE, scale_range: tuple[float, float] = (0.5, 2.5), tag: str = "",
                strips: bool = False) -> int:
    """Tiles of the scenes at random scales, labelled with the visible index boxes (1 class; ``strips``: the
    readable strips too, ``tile_boxes``).

    ``tag`` names a second set of scenes added to the same tiles (its own done-marker)."""
    img_dir, lab_dir = out / "images" / split, out / "labels" / split
    done = out / f".done_{split}{tag}"
    if done.exists():
        return int(done.read_text())
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    count = 0
    items = scene_items(scenes, split, limit)
    for n, (path, truth) in enumerate(items):
        image = cv2.imread(str(path))
        if image is None:
            continue
        boxes = tile_boxes(truth, strips)
        h, w = image.shape[:2]
        for k in range(per_scene):
            s = math.exp(rng.uniform(math.log(scale_range[0]), math.log(scale_range[1])))
            side = tile / s
            if len(boxes) and rng.random() < 0.8:
                b = boxes[rng.integers(len(boxes))]
                cx = (b[0] + b[2]) / 2 + rng.uniform(-0.45, 0.45) * side
                cy = (b[1] + b[3]) / 2 + rng.uniform(-0.45, 0.45) * side
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            x0, y0 = cx - side / 2, cy - side / 2
            m = np.array([[s, 0, -s * x0], [0, s, -s * y0]])
            interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
            crop = cv2.warpAffine(image, m, (tile, tile), flags=interp, borderMode=cv2.BORDER_CONSTANT,
                                  borderValue=(114, 114, 114))
            lines = [line for b in boxes if (line := tile_label((b - [x0, y0, x0, y0]) * s, tile)) is not None]
            name = f"{path.stem}_t{k}"
            cv2.imwrite(str(img_dir / f"{name}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
            (lab_dir / f"{name}.txt").write_text("".join(x + "\n" for x in lines))
            count += 1
        if (n + 1) % 50 == 0 or n + 1 == len(items):
            log(f"tiles/{split}: {n + 1}/{len(items)} scenes, {count} tiles")
    (out / "data.yaml").write_text(f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")
    done.write_text(str(count))
    return count


# --------------------------------------------------------------------------- stage 2 data

def class_dirs(out: Path, split: str) -> dict[str, Path]:
    names = [str(c) for c in DECK] + [BG_CLASS]
    dirs = {n: out / split / n for n in names}
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    return dirs


STRIP_RANK = 0.9   # a strip (an index less than datasets.scene.MIN_VISIBLE shown) is a reader target when this
STRIP_SUIT = 0.25  # much of its rank's printed marks and this much of its suit's show: a person reads it


def readable_strip(ix: dict[str, Any]) -> bool:
    """Whether a covered index's truth says a person reads it from what shows: its rank whole, part of its suit."""
    return (ix.get("shown") is not None and ix["inside"] >= MIN_INSIDE and ix.get("rank_unoccluded", 0.0) >= STRIP_RANK
            and ix.get("suit_unoccluded", 0.0) >= STRIP_SUIT)


def scene_images(scenes: Path, split: str, limit: int | None = None
                 ) -> Iterator[tuple[int, int, Path, dict[str, Any], NDArray[np.uint8]]]:
    """The scenes of a split that can be read: (position, how many, image path, truth, image)."""
    items = scene_items(scenes, split, limit)
    for n, (path, truth) in enumerate(items):
        raw = cv2.imread(str(path))
        if raw is not None:
            yield n, len(items), path, truth, np.asarray(raw, np.uint8)


def box_under(box: Sequence[float] | NDArray[Any], m: NDArray[Any]) -> tuple[float, float, float, float]:
    """The upright box (x1, y1, x2, y2) around the corners of ``box`` moved by the 2 x 3 affine ``m``."""
    x1, y1, x2, y2 = box
    pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64) @ m.T
    return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


FAN_DEG = (25.0, 42.0)  # how far from a quarter turn a fanned crop's index lies, either way


def turned_in_place(image: NDArray[np.uint8], quad: NDArray[np.float64], box: tuple[float, float, float, float],
                    degrees: float) -> tuple[NDArray[np.uint8], NDArray[np.float64], tuple[float, float, float, float]]:
    """The neighbourhood of an index (3 of its sizes around the quad's centre) turned ``degrees`` about that
    centre, with everything around it (a fan's card lies turned among its neighbours), and the quad and the
    upright box around ``box``'s turned corners in that patch's pixels."""
    c = quad.mean(axis=0)
    side = int(3 * max(np.ptp(quad[:, 0]), np.ptp(quad[:, 1]), 8.0))
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), degrees, 1.0)
    m[:, 2] += side / 2 - c
    patch = np.asarray(cv2.warpAffine(image, m, (side, side), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE), np.uint8)
    return patch, np.c_[quad, np.ones(4)] @ m.T, box_under(box, m)


def build_fanned_crops(scenes: Path, split: str, out: Path, seed: int, limit: int | None = None,
                       share: float = 0.35, strips: bool = True) -> int:
    """Crops of indices turned ``FAN_DEG`` from a quarter turn in their scene, as the cards of a fan lie: a share
    ``share`` of the visible indices (and, with ``strips``, the readable strips, cut around what shows) are cut
    from their neighbourhood turned about them (``turned_in_place``: the next card's edge and index turned
    alike), around the upright box of the turned index as the index finder boxes it, then turned upright by the
    nearest quarter turn, as the runtime reads them."""
    done = out / f".done_{split}"
    if done.exists():
        return int(done.read_text())
    dirs = class_dirs(out, split)
    rng = np.random.default_rng(seed)
    count = 0
    for n, total, path, truth, image in scene_images(scenes, split, limit):
        for c in truth["cards"]:
            for j, ix in enumerate(c["index"]):
                strip = strips and not ix["visible"] and readable_strip(ix)
                if not (ix["visible"] or strip) or rng.random() >= share:
                    continue
                degrees = float(rng.uniform(*FAN_DEG)) * (1 if rng.random() < 0.5 else -1)
                box = tuple(ix["shown"]) if strip else tuple(ix["box"])
                patch, q, turned_box = turned_in_place(image, np.asarray(ix["quad"], np.float64), box, degrees)
                jit = (rng.normal(0, 0.04), rng.normal(0, 0.04), rng.uniform(0.9, 1.15))
                crop = crop_square(patch, turned_box, jitter=jit)
                up = np.ascontiguousarray(np.rot90(crop, upright_turns(glyph_up_from_quad(q.tolist(), ix["corner"]))))
                cv2.imwrite(str(dirs[c["card"]] / f"f{path.stem}_{c['card']}{j}.jpg"), up,
                            [cv2.IMWRITE_JPEG_QUALITY, 95])
                count += 1
        if (n + 1) % 100 == 0 or n + 1 == total:
            log(f"fanned crops/{split}: {n + 1}/{total} scenes, {count} crops")
    done.write_text(str(count))  # (no background class here: train_reader._load_crops takes empty folders)
    return count


def build_crops(scenes: Path, split: str, out: Path, seed: int, limit: int | None = None, bg_per_scene: int = 12,
                flip_bg: float = 0.08, ranks: str | None = None, strips: bool = False, turn_bg: float = 0.0) -> int:
    """Upright-turned crops of every visible index (52 classes) and background crops (``zz_bg``).

    ``ranks``: only the indices of cards of these ranks (``"23456789T"``: the foreign-letter
    decks' number cards, whose indices read as ours; their courts and aces are left out,
    neither cards nor background). ``strips``: also the covered indices a person reads
    (``readable_strip``), cut around what shows of them (as the index finder boxes a strip) or, a
    third of them, around the whole index. ``turn_bg``: the share of index crops also written a
    quarter turn off as background (a sideways index is not a card: the reader's turn choice)."""
    done = out / f".done_{split}"
    if done.exists():
        return int(done.read_text())
    dirs = class_dirs(out, split)
    rng = np.random.default_rng(seed)
    count = 0
    for n, total, path, truth, image in scene_images(scenes, split, limit):
        h, w = image.shape[:2]
        centres, sizes = [], []
        for c in truth["cards"]:
            for j, ix in enumerate(c["index"]):
                x1, y1, x2, y2 = ix["box"]
                q = np.asarray(ix["quad"])
                centres.append(q.mean(axis=0))
                sizes.append(max(q[:, 0].max() - q[:, 0].min(), q[:, 1].max() - q[:, 1].min()))
                strip = strips and not ix["visible"] and readable_strip(ix)
                if not (ix["visible"] or strip) or (ranks is not None and c["card"][0] not in ranks):
                    continue
                jit = (rng.normal(0, 0.04), rng.normal(0, 0.04), rng.uniform(0.9, 1.15))
                sx1, sy1, sx2, sy2 = ix["shown"] if strip and rng.random() < 2 / 3 else (x1, y1, x2, y2)
                crop = crop_square(image, (sx1, sy1, sx2, sy2), jitter=jit)
                k = upright_turns(glyph_up_from_quad(ix["quad"], ix["corner"]))
                up = np.ascontiguousarray(np.rot90(crop, k))
                name = f"{path.stem}_{c['card']}{j}.jpg"
                cv2.imwrite(str(dirs[c["card"]] / name), up, [cv2.IMWRITE_JPEG_QUALITY, 95])
                count += 1
                if rng.random() < flip_bg:  # upside down is not a card: teaches 6/9 and the turn choice
                    cv2.imwrite(str(dirs[BG_CLASS] / f"r{name}"), np.ascontiguousarray(np.rot90(up, 2)))
                    count += 1
                if turn_bg and rng.random() < turn_bg:  # (no draw without it: earlier crop sets stay)
                    turned = np.rot90(up, 1 if rng.random() < 0.5 else 3)
                    cv2.imwrite(str(dirs[BG_CLASS] / f"q{name}"), np.ascontiguousarray(turned))
                    count += 1
        if not sizes:
            continue
        cen = np.array(centres)
        card_quads = [np.asarray(c["corners"]) for c in truth["cards"]]
        others = [np.asarray(d["corners"]) for d in truth.get("distractors", []) if "corners" in d]
        made = tries = 0
        while made < bg_per_scene and tries < bg_per_scene * 20:
            tries += 1
            size = float(sizes[rng.integers(len(sizes))]) * rng.uniform(0.7, 1.6)
            r = rng.random()
            if r < 0.45 and card_quads:      # somewhere on a card face (pips, court art, edges)
                q = card_quads[rng.integers(len(card_quads))]
                a, b = rng.random(2)
                p = (1 - a) * ((1 - b) * q[0] + b * q[3]) + a * ((1 - b) * q[1] + b * q[2])
            elif r < 0.65 and others:        # chips, backs, coins, phones
                q = others[rng.integers(len(others))]
                p = q.mean(axis=0) + rng.normal(0, 0.25, 2) * (q.max(axis=0) - q.min(axis=0))
            else:
                p = np.array([rng.uniform(0, w), rng.uniform(0, h)])
            d = np.linalg.norm(cen - p, axis=1)
            if np.any(d < 0.8 * (np.array(sizes) + size) / 2 + 2):
                continue
            box = (p[0] - size / 2, p[1] - size / 3, p[0] + size / 2, p[1] + size / 3)
            crop = np.ascontiguousarray(np.rot90(crop_square(image, box), int(rng.integers(4))))
            cv2.imwrite(str(dirs[BG_CLASS] / f"{path.stem}_bg{made}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
            made += 1
            count += 1
        if (n + 1) % 50 == 0 or n + 1 == total:
            log(f"crops/{split}: {n + 1}/{total} scenes, {count} crops")
    for name, d in dirs.items():  # tiny runs: the image-folder loader refuses an empty class
        if ranks is None and not any(d.iterdir()):
            twin = next((out / "train" / name).glob("*.jpg"), None)
            if twin is not None:
                shutil.copy(twin, d / twin.name)
            else:
                cv2.imwrite(str(d / "blank.jpg"), np.full((CROP_SIZE, CROP_SIZE, 3), 128, np.uint8))
    done.write_text(str(count))
    return count


def ensure_foreign_scenes(args: argparse.Namespace, work: Path) -> Path:
    """The scenes of the tier B/C decks (foreign index letters), for det4's tiles and cls6's crops."""
    foreign = work / "scenes_foreign"
    ensure_scenes(foreign, "train", args.foreign_scenes, args.seed + 20, args.test_deck, args.workers, args.size,
                  tiers=FOREIGN_TIERS)
    return foreign


def ensure_small_scenes(args: argparse.Namespace, work: Path) -> Path:
    """Train-family scenes rendered small (``SMALL_SIZE``), for cls7's crops."""
    small = work / "scenes_small"
    ensure_scenes(small, "train", args.small_scenes, args.seed + 40, args.test_deck, args.workers, SMALL_SIZE)
    return small


def ensure_v2_scenes(args: argparse.Namespace, work: Path) -> Path:
    """``--v2-scenes`` train-family scenes from the generator as it frames tables now, for det7's tiles
    and cls10's crops (the first 2,800 scenes came from an earlier framing with the camera closer)."""
    v2 = work / "scenes_v2"
    ensure_scenes(v2, "train", args.v2_scenes, args.seed + 80, args.test_deck, args.workers, args.size)
    return v2


TIGHT_SHARE = 0.8  # the tight scenes' share of hands laid in tight rows (datasets.synth --tight)


def ensure_tight_scenes(args: argparse.Namespace, work: Path) -> tuple[Path, Path]:
    """``--tight-scenes`` train-family scenes and ``--tight-font-scenes`` font-deck scenes whose hands are mostly
    laid in tight rows (only a strip of each covered index shows), for the crops of cls15-cls17."""
    tight, fonts = work / "scenes_tight", work / "scenes_tight_fonts"
    ensure_scenes(tight, "train", args.tight_scenes, args.seed + 100, args.test_deck, args.workers, args.size,
                  tight=TIGHT_SHARE)
    if args.tight_font_scenes:
        ensure_scenes(fonts, "train", args.tight_font_scenes, args.seed + 101, False, args.workers, args.size,
                      fonts=True, tight=TIGHT_SHARE)
    return tight, fonts


BENT_SHARE = 0.6  # the bent scenes' share of bowed cards (datasets.synth --bent), half their hands in tight rows


def ensure_bent_scenes(args: argparse.Namespace, work: Path) -> Path:
    """``--bent-scenes`` train-family scenes whose cards are mostly bowed (shading across them, a glossy glare
    band along them) and half of whose hands lie in tight rows, for the crops of cls22."""
    bent = work / "scenes_bent"
    ensure_scenes(bent, "train", args.bent_scenes, args.seed + 110, args.test_deck, args.workers, args.size,
                  tight=0.5, bent=BENT_SHARE)
    return bent


LOOK_TIGHT_SHARE = 0.5  # the real-look scenes' share of hands laid in tight rows


def ensure_look_scenes(args: argparse.Namespace, work: Path) -> tuple[Path, Path]:
    """``--look-scenes`` train-family and ``--look-font-scenes`` font-deck scenes with the camera look measured on
    real photos (``datasets.synth --look real``: lighter softening, fine grain, JPEG 70-95), half their hands in
    tight rows, for the crops of cls25."""
    look, fonts = work / "scenes_look", work / "scenes_look_fonts"
    ensure_scenes(look, "train", args.look_scenes, args.seed + 120, args.test_deck, args.workers, args.size,
                  tight=LOOK_TIGHT_SHARE, look="real")
    if args.look_font_scenes:
        ensure_scenes(fonts, "train", args.look_font_scenes, args.seed + 121, False, args.workers, args.size,
                      fonts=True, tight=LOOK_TIGHT_SHARE, look="real")
    return look, fonts


HELD_BENT_SHARE = 0.6  # the phone-held scenes' share of bowed cards, as the phone-held evaluation tables have
HELD_SIZE = "1600-4000"  # their long sides, drawn per scene, as the evaluation tables' (model card)


def ensure_held_scenes(args: argparse.Namespace, work: Path) -> tuple[Path, Path]:
    """``--held-scenes`` train-family and ``--held-font-scenes`` font-deck scenes laid and photographed as a phone
    held over a table sees them (``datasets.synth --held``: 2-3 players, every row overlapped with 15-25 % of each
    covered card showing, the camera tilted 15-35 degrees, most cards bowed with a glare band; 1,600-4,000 px), for
    the crops of cls37 and cls38."""
    held, fonts = work / "scenes_held", work / "scenes_held_fonts"
    ensure_scenes(held, "train", args.held_scenes, args.seed + 130, args.test_deck, args.workers, HELD_SIZE,
                  bent=HELD_BENT_SHARE, held=True)
    if args.held_font_scenes:
        ensure_scenes(fonts, "train", args.held_font_scenes, args.seed + 131, False, args.workers, HELD_SIZE,
                      fonts=True, bent=HELD_BENT_SHARE, held=True)
    return held, fonts


FAN_SHARE = 1.0  # the fan scenes' share of hands laid with every row fanned (datasets.synth --fan), as eval_fan's


def ensure_fan_scenes(args: argparse.Namespace, work: Path, tight: bool = False) -> tuple[Path, Path]:
    """``--fan-scenes`` train-family and ``--fan-font-scenes`` font-deck scenes whose hands lay every row as a fan
    (``datasets.synth --fan 1``: each next card turned 3-10 degrees further about a point toward the player), for
    the crops of cls44 and cls45; ``tight``: the ``--tight-fan-scenes`` / ``--tight-fan-font-scenes`` ones laid
    mostly tight too (``--tight 0.8``), for cls46."""
    if tight:
        fan, fonts = work / "scenes_fan_tight", work / "scenes_fan_tight_fonts"
        n, n_fonts, seed, share = args.tight_fan_scenes, args.tight_fan_font_scenes, args.seed + 152, TIGHT_SHARE
    else:
        fan, fonts = work / "scenes_fan", work / "scenes_fan_fonts"
        n, n_fonts, seed, share = args.fan_scenes, args.fan_font_scenes, args.seed + 150, 0.0
    ensure_scenes(fan, "train", n, seed, args.test_deck, args.workers, args.size, fan=FAN_SHARE, tight=share)
    if n_fonts:
        ensure_scenes(fonts, "train", n_fonts, seed + 1, False, args.workers, args.size, fonts=True, fan=FAN_SHARE,
                      tight=share)
    return fan, fonts


def ensure_font_scenes(args: argparse.Namespace, work: Path, n: int, folder: str = "scenes_fonts",
                       seed_offset: int = 60, drawn_suits: bool = False, debian_fonts: bool = False) -> Path:
    """``n`` scenes of procedural font decks (``datasets.synth --font-decks``) in the folder and seed of
    ``folder`` under ``work`` with seed ``--seed`` + ``seed_offset`` (default: ``scenes_fonts``, for det6's
    tiles and cls8/cls9's crops); ``drawn_suits``: decks whose suits are drawn from parameters (``--drawn-suits``);
    ``debian_fonts``: decks whose fonts are chosen among the Debian font packages' too (``--debian-fonts``)."""
    scenes = work / folder
    ensure_scenes(scenes, "train", n, args.seed + seed_offset, False, args.workers, args.size, fonts=True,
                  drawn_suits=drawn_suits, debian_fonts=debian_fonts)
    return scenes


def ensure_real_tiles(out: Path, seed: int, tile: int, photos: int | None = None, per_photo: int = 16
                      ) -> tuple[int, int]:
    """Index-finder tiles of the real photos (``training.realtiles``) into the phase's tiles ``out``: cardcounter's
    train split (``per_photo`` each) and its val split (4 each, for choosing the epoch); ``photos``: the first so
    many of each. Returns (train, val) counts."""
    from .realsets import cardcounter
    from .realtiles import real_tiles

    train, val = cardcounter("train")[:photos], cardcounter("val")[:photos]
    return (real_tiles(train, out, "train", per_photo, seed, tile),
            real_tiles(val, out, "val", 4, seed + 1, tile, scale_range=(0.8, 1.6)))


def ensure_covered_tiles(out: Path, photos_dir: Path, seed: int, tile: int, photos: int | None = None,
                         copies: int = 2, per_photo: int = 3) -> int:
    """Index-finder tiles into the phase's tiles ``out`` of cardcounter's train split with its cards covered in the
    photo as a tight row's or a fan's next card covers them (``training.realcover.build_covered_photos``, each group
    of cards ``copies`` times, the covered photos made once into ``photos_dir``), ``per_photo`` tiles each, centred
    mostly on what the covering changed; ``photos``: only the first so many real photos. Returns the count."""
    from .realcover import build_covered_photos, covered_photos
    from .realsets import CARDCOUNTER, cardcounter
    from .realtiles import real_tiles

    if not (CARDCOUNTER / "images").is_dir():
        raise SystemExit(f"the real photos {CARDCOUNTER} are not beside the checkout: this phase trains on them")
    if not (photos_dir / "photos.json").exists():
        build_covered_photos(cardcounter("train")[:photos], photos_dir, copies, seed=seed)
    made = covered_photos(photos_dir)
    return real_tiles([p for p, _ in made], out, "train", per_photo, seed + 1, tile, focus=[f for _, f in made],
                      tag="covered")


def ensure_covered_crops(out: Path, seed: int, photos: int | None = None, copies: int = 3) -> Path:
    """Reader crops of cardcounter's train split with its cards covered in the photo as a tight row's or a fan's next
    card covers them (``training.realcover.build_covered_crops``, each group of cards ``copies`` times), made once;
    ``photos``: only the first so many."""
    from .realcover import build_covered_crops
    from .realsets import CARDCOUNTER, cardcounter

    if not (CARDCOUNTER / "images").is_dir():
        raise SystemExit(f"the real photos {CARDCOUNTER} are not beside the checkout: this phase trains on them")
    done = out / ".done_train"
    if not done.exists():
        done.write_text(str(build_covered_crops(cardcounter("train")[:photos], out, "train", copies, seed=seed)))
    log(f"{out.name}/train: {done.read_text()} crops of real photos, cards covered in them")
    return out


def ensure_real_crops(out: Path, seed: int, photos: int | None = None, variants: int = 12,
                      as_read: bool = False, filtered: bool = False, shrunk: float = 0.0) -> Path:
    """Reader crops of the real photos (``training.realcrops``): cardcounter's train split for training
    (``variants`` around each labelled index), its val split (one crop per index) for choosing the epoch;
    ``photos``: only the first so many of each; ``as_read``: cut as the runtime reads each photo (squashed
    frames widened back, ``vision.stretch``); ``filtered``: from the photos median-filtered where speckled
    (``vision.specks``); ``shrunk``: the share of the training crops cut from the photos shrunk as a poorer camera
    leaves them (``training.realcrops.poorer``; the val crops never)."""
    from .realcrops import build_real_crops
    from .realsets import CARDCOUNTER, cardcounter

    if not (CARDCOUNTER / "images").is_dir():
        raise SystemExit(f"the real photos {CARDCOUNTER} are not beside the checkout: phase cls13 trains on them "
                         "(leave cls13 out of --stages to train without them)")
    for split, per_index in (("train", variants), ("val", 1)):
        done = out / f".done_{split}"
        if not done.exists():
            n = build_real_crops(cardcounter(split)[:photos], out, split, per_index, seed=seed, as_read=as_read,
                                 filtered=filtered, shrunk=shrunk if split == "train" else 0.0)
            done.write_text(str(n))
        log(f"{out.name}/{split}: {done.read_text()} crops of real photos")
    return out
