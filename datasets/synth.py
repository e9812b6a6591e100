"""Generate synthetic table photos with labels and ground truth.

    python -m datasets.synth --n 2000 --out datasets/generated/cards --seed 1 --split train
    python -m datasets.synth --n 300 --out datasets/generated/cards --seed 2 --split val --preview

Writes, under ``--out`` (ultralytics layout)::

    data.yaml                        52 classes, class i = str(referee.cards.DECK[i])
    images/<split>/s<seed>_<i>.jpg   the photo
    labels/<split>/s<seed>_<i>.txt   one line per visible corner index
    truth/<split>/s<seed>_<i>.json   every card's identity, player, row, corners, index boxes; the deal
    preview_<split>.png              with --preview: a contact sheet with the labels drawn

Scene ``i`` depends only on (seed, i, split, size): the same command gives the same bytes, and
the same seed in two splits still gives different tables.
``--size 1000-4000`` draws each scene's long side from that range (1-12 MP phones).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .art_cache import CardArt, cache_root, cards_dir, load_deck, read_meta, textures_dir
from .backgrounds import texture_files
from .decks import DEFAULT_TIERS, Split, decks_for_split
from .effects import REAL_LOOK
from .labels import write_data_yaml, yolo_lines
from .scene import make_scene, scene_rng
from .testdeck import procedural_deck

_WORKER: dict[str, Any] = {}
Size = int | tuple[int, int]   # a fixed long side, or a range drawn per scene


def parse_size(text: str) -> Size:
    """``"1600"`` or ``"1000-4000"`` (long side in px; a range is drawn per scene).

    >>> parse_size("1600"), parse_size("1000-4000")
    (1600, (1000, 4000))
    """
    if "-" in text:
        lo, hi = (int(v) for v in text.split("-", 1))
        if not 64 <= lo <= hi:
            raise argparse.ArgumentTypeError(f"bad size range {text!r}")
        return lo, hi
    return int(text)


def scene_size(size: Size, seed: int, index: int, split: str = "train") -> int:
    if isinstance(size, int):
        return size
    return int(scene_rng(seed, index, stream=2, split=split).integers(size[0], size[1] + 1))


def split_decks(split: Split, root: Path | None = None, tiers: tuple[str, ...] = DEFAULT_TIERS) -> list[CardArt]:
    """The rendered decks of a split's families; raises if none are in the cache."""
    base = cards_dir(root)
    decks = [load_deck(base / d.name) for d in decks_for_split(split, tiers) if read_meta(base / d.name) is not None]
    if not decks:
        hint = "" if tiers == DEFAULT_TIERS else f" --tiers {','.join(tiers)}"
        raise FileNotFoundError(f"no rendered decks for split {split!r} (tiers {','.join(tiers)}) in {base}: "
                                f"run python -m datasets.setup_art{hint}")
    return decks


def scene_name(seed: int, index: int) -> str:
    return f"s{seed}_{index:06d}"


# --look: the camera's full look; without its softening; none at all; the look measured on real photos
LOOKS = ("camera", "sharp", "none", "real")


def write_scene(out: Path, split: str, seed: int, index: int, decks: list[CardArt], textures: list[str],
                size: Size, look: str = "camera", tight: float = 0.0, bent: float = 0.0, held: bool = False,
                fan: float = 0.0) -> int:
    """Generate and write one scene; returns its number of labels."""
    scene = make_scene(seed, index, decks, textures, scene_size(size, seed, index, split), split,
                       effects=look != "none", soften=look == "camera", tight=tight, bent=bent,
                       real_look=look == "real", held=held, fan=fan)
    name = scene_name(seed, index)
    lo, hi = REAL_LOOK.jpeg_quality if look == "real" else (55, 96)
    quality = int(scene_rng(seed, index, stream=1, split=split).integers(lo, hi))
    ok, jpg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    scene.truth["image"] = f"images/{split}/{name}.jpg"
    scene.truth["jpeg_quality"] = quality
    (out / "images" / split / f"{name}.jpg").write_bytes(jpg.tobytes())
    lines = yolo_lines(scene.truth)
    (out / "labels" / split / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
    (out / "truth" / split / f"{name}.json").write_text(json.dumps(scene.truth, separators=(",", ":")))
    return len(lines)


SCENES_PER_FONT_DECK = 10  # --font-decks: each run of this many scenes draws one new procedural deck


def _init_worker(out: str, split: str, seed: int, size: Size, use_test_deck: bool,
                 tiers: tuple[str, ...] = DEFAULT_TIERS, font_decks: bool = False, look: str = "camera",
                 tight: float = 0.0, bent: float = 0.0, held: bool = False, drawn_suits: bool = False,
                 debian_fonts: bool = False, fan: float = 0.0) -> None:
    cv2.setNumThreads(1)
    if font_decks:
        decks: list[CardArt] = []
    elif use_test_deck:
        decks = [procedural_deck()]
    else:
        decks = split_decks(split, tiers=tiers)  # type: ignore[arg-type]
    _WORKER.update(out=Path(out), split=split, seed=seed, size=size, decks=decks, font_decks=font_decks, look=look,
                   drawn_suits=drawn_suits, debian_fonts=debian_fonts, tight=tight, bent=bent, held=held, fan=fan,
                   textures=[] if use_test_deck else texture_files(textures_dir()))


def _work(index: int) -> int:
    w = _WORKER
    if w["font_decks"]:
        k = index // SCENES_PER_FONT_DECK
        if w.get("font_k") != k:
            from .font_decks import font_deck
            w["decks"], w["font_k"] = [font_deck(w["seed"] * 100_003 + k, drawn_suits=w["drawn_suits"],
                                                debian_fonts=w["debian_fonts"])], k
    return write_scene(w["out"], w["split"], w["seed"], index, w["decks"], w["textures"], w["size"], w["look"],
                       w["tight"], w["bent"], w["held"], w["fan"])


def generate(out: Path, n: int, seed: int, split: Split, size: Size = 1600, workers: int | None = None,
             start: int = 0, use_test_deck: bool = False, progress: bool = True,
             tiers: tuple[str, ...] = DEFAULT_TIERS, font_decks: bool = False,
             look: str = "camera", tight: float = 0.0, bent: float = 0.0, held: bool = False,
             drawn_suits: bool = False, debian_fonts: bool = False, fan: float = 0.0) -> dict[str, float]:
    for sub in ("images", "labels", "truth"):
        (out / sub / split).mkdir(parents=True, exist_ok=True)
    write_data_yaml(out)
    workers = max(1, min(workers or os.cpu_count() or 1, n))
    args = (str(out), split, seed, size, use_test_deck, tiers, font_decks, look, tight, bent, held, drawn_suits,
            debian_fonts, fan)
    t0 = time.perf_counter()
    labels = 0
    indices = range(start, start + n)
    if workers == 1:
        _init_worker(*args)
        results = map(_work, indices)
        labels = _consume(results, n, t0, progress)
    else:
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ctx.Pool(workers, initializer=_init_worker, initargs=args) as pool:
            labels = _consume(pool.imap(_work, indices, chunksize=2), n, t0, progress)
    dt = time.perf_counter() - t0
    return {"scenes": n, "labels": labels, "seconds": dt, "scenes_per_s": n / dt if dt else 0.0}


def _consume(results: Any, n: int, t0: float, progress: bool) -> int:
    total = 0
    for done, count in enumerate(results, 1):
        total += count
        if progress and (done == n or done % 5 == 0):
            rate = done / (time.perf_counter() - t0)
            bar = "#" * int(30 * done / n)
            print(f"\r[{bar:30s}] {done}/{n} scenes  {rate:.2f}/s  eta {(n - done) / rate:5.0f}s",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.synth", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, required=True, help="number of scenes")
    ap.add_argument("--out", type=Path, required=True, help="dataset folder (ultralytics layout)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", choices=["train", "val", "test"], default="train",
                    help="which design families to draw decks from (and the sub-folder)")
    ap.add_argument("--size", type=parse_size, default=1600,
                    help="long side of the images in px (default 1600), or a range like 1000-4000 drawn per scene")
    ap.add_argument("--start", type=int, default=0, help="index of the first scene (to extend a run)")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    ap.add_argument("--preview", action="store_true", help="also write preview_<split>.png with labels drawn")
    ap.add_argument("--test-deck", action="store_true", help="use the procedural test deck (no art cache needed)")
    ap.add_argument("--cache", type=Path, default=None, help="art cache root (default ~/.cache/shisanshui)")
    ap.add_argument("--font-decks", action="store_true",
                    help="draw the cards from procedural decks in the machine's fonts (datasets.font_decks; a new "
                         f"deck every {SCENES_PER_FONT_DECK} scenes) instead of the art cache: more index designs "
                         "for the reader")
    ap.add_argument("--drawn-suits", action="store_true",
                    help="with --font-decks: each deck's suits drawn from parameters (datasets.suit_shapes: lobes, "
                         "points, stems and feet of many shapes) instead of a font's glyphs")
    ap.add_argument("--debian-fonts", action="store_true",
                    help="with --font-decks: each deck's fonts chosen among the Debian font packages unpacked into "
                         "the art cache too (python -m datasets.debian_fonts: ~35 more typeface families)")
    ap.add_argument("--tiers", default=",".join(DEFAULT_TIERS),
                    help="deck tiers to draw from (default A,A-dup; B/C only if setup_art rendered them)")
    ap.add_argument("--look", choices=LOOKS, default="camera",
                    help="the photo's look: camera (default: light, glare, blur, noise, JPEG), sharp (the same "
                         "without resolution loss, depth of field and blur), none (the clean composite); the "
                         "tables and labels are the same: to measure what the look costs the detector), real "
                         "(light and glare as camera, then the softening, grain and JPEG measured on real "
                         "photos: benchmarks/camera_look.py)")
    ap.add_argument("--tight", type=float, default=0.0,
                    help="share of the hands laid in tight rows, where each next card covers all but a strip of the "
                         "index (the reader's strips; default 0: the tables are as without the option)")
    ap.add_argument("--bent", type=float, default=0.0,
                    help="share of the cards bowed a little: their shading runs across them and a glossy band of "
                         "glare along them (default 0: the tables are as without the option)")
    ap.add_argument("--held", action="store_true",
                    help="tables as a phone held over them sees them: 2-3 players, every row overlapped with "
                         "0.95-1.55 index extents of each covered card showing (15-25 %% of a real deck's card), "
                         "the camera tilted 15-35 degrees (other tables than without)")
    ap.add_argument("--fan", type=float, default=0.0,
                    help="share of the hands whose rows are laid as fans, each next card turned 3-10 degrees further "
                         "than the one before it about a point toward the player (default 0: the tables are as "
                         "without the option)")
    args = ap.parse_args(argv)
    for name in ("tight", "bent", "fan"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            print(f"error: --{name} must lie in 0..1 (got {getattr(args, name)})", file=sys.stderr)
            return 2
    if args.drawn_suits and not args.font_decks:
        print("error: --drawn-suits draws the suits of --font-decks decks: give both", file=sys.stderr)
        return 2
    if args.debian_fonts and not args.font_decks:
        print("error: --debian-fonts chooses the fonts of --font-decks decks: give both", file=sys.stderr)
        return 2
    tiers = tuple(t.strip() for t in args.tiers.split(",") if t.strip())
    if args.cache:
        os.environ["SHISANSHUI_CACHE"] = str(args.cache)
    if not (args.test_deck or args.font_decks):
        try:
            split_decks(args.split, tiers=tiers)
        except FileNotFoundError as err:
            print(f"error: {err} (cache root {cache_root()})", file=sys.stderr)
            return 2
    stats = generate(args.out, args.n, args.seed, args.split, args.size, args.workers, args.start, args.test_deck,
                     tiers=tiers, font_decks=args.font_decks, look=args.look, tight=args.tight, bent=args.bent,
                     held=args.held, drawn_suits=args.drawn_suits, debian_fonts=args.debian_fonts, fan=args.fan)
    print(f"{stats['scenes']:.0f} scenes, {stats['labels']:.0f} index labels in {stats['seconds']:.1f}s "
          f"({stats['scenes_per_s']:.2f} scenes/s) -> {args.out}", file=sys.stderr)
    if args.preview:
        from .preview import write_preview
        path = write_preview(args.out, args.split, [f"s{args.seed}_{i:06d}" for i in
                                                    range(args.start, args.start + min(args.n, 12))])
        print(f"preview: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
