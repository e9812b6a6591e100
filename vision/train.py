"""Train the two-stage card detector and export it to ONNX in ``models/``.

    python -m vision.train                      # the full recipe (see models/MODEL_CARD.md), ~5.1 h here
    python -m vision.train --resume             # go on after an interruption
    python -m vision.train --stages cls4 --resume   # one stage (phases start from the previous one's best)

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
   (``cls9`` on both font-deck crop sets with motion-blur augmentation; not shipped). The last reader
   phase, ``cls13`` (shipped), continues ``cls9`` on crops of REAL photos (``vision.realcrops``:
   cardcounter's train capture blocks) beside 300 train-family and 250 new font-deck scenes' crops;
   where ``cls9``'s run is not here it starts from ``models/index_cls.pt``.
   The two stages run at the same time, one core each (``--lanes 2``).
5. Export ``best.pt`` of each to ``models/index_det.onnx`` and ``models/index_cls.onnx`` (``cls11``, on
   request: ``models/index_cls2.onnx``, a second reader asked where the first is unsure).

Needs the ``train`` extra (torch + ultralytics); the runtime does not.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import DECK

from .tiles import BG_CLASS, CROP_SIZE, crop_square, glyph_up_from_quad, upright_turns

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
DET_TILE = 256
FOREIGN_TIERS = "B,C"  # decks with foreign index letters (datasets.decks): det4 tiles, cls6 number cards only
DET_EXPORT = 640


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def offline_env(work: Path) -> None:
    """The settings that keep ultralytics and onnxruntime off the network (shared/reference/ML-STACK.md)."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["ORT_DISABLE_TELEMETRY"] = "1"
    cfg = Path(os.environ.setdefault("YOLO_CONFIG_DIR", str(work / "yolo-config")))
    font = cfg / "Ultralytics" / "Arial.ttf"
    if not font.exists():
        font.parent.mkdir(parents=True, exist_ok=True)
        for cand in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",):
            if Path(cand).exists():
                shutil.copy(cand, font)


# --------------------------------------------------------------------------- scenes

def ensure_scenes(scenes: Path, split: str, n: int, seed: int, test_deck: bool, workers: int,
                  size: int | str = 1600, tiers: str | None = None, fonts: bool = False) -> None:
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

def build_tiles(scenes: Path, split: str, out: Path, per_scene: int, seed: int, limit: int | None = None,
                tile: int = DET_TILE, scale_range: tuple[float, float] = (0.5, 2.5), tag: str = "") -> int:
    """Tiles of the scenes at random scales, labelled with the visible index boxes (1 class).

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
        boxes = np.array([ix["box"] for c in truth["cards"] for ix in c["index"] if ix["visible"]],
                         dtype=np.float64).reshape(-1, 4)
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
            lines = []
            for b in boxes:
                tb = (b - [x0, y0, x0, y0]) * s
                cb = np.clip(tb, 0, tile)
                area = (tb[2] - tb[0]) * (tb[3] - tb[1])
                carea = max(cb[2] - cb[0], 0) * max(cb[3] - cb[1], 0)
                if area <= 0 or carea < 0.55 * area or min(cb[2] - cb[0], cb[3] - cb[1]) < 3:
                    continue
                lines.append(f"0 {(cb[0] + cb[2]) / 2 / tile:.6f} {(cb[1] + cb[3]) / 2 / tile:.6f} "
                             f"{(cb[2] - cb[0]) / tile:.6f} {(cb[3] - cb[1]) / tile:.6f}")
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


def build_crops(scenes: Path, split: str, out: Path, seed: int, limit: int | None = None, bg_per_scene: int = 12,
                flip_bg: float = 0.08, ranks: str | None = None) -> int:
    """Upright-turned crops of every visible index (52 classes) and background crops (``zz_bg``).

    ``ranks``: only the indices of cards of these ranks (``"23456789T"``: the foreign-letter
    decks' number cards, whose indices read as ours; their courts and aces are left out,
    neither cards nor background)."""
    done = out / f".done_{split}"
    if done.exists():
        return int(done.read_text())
    dirs = class_dirs(out, split)
    rng = np.random.default_rng(seed)
    count = 0
    items = scene_items(scenes, split, limit)
    for n, (path, truth) in enumerate(items):
        raw = cv2.imread(str(path))
        if raw is None:
            continue
        image = np.asarray(raw, np.uint8)
        h, w = image.shape[:2]
        centres, sizes = [], []
        for c in truth["cards"]:
            for j, ix in enumerate(c["index"]):
                x1, y1, x2, y2 = ix["box"]
                q = np.asarray(ix["quad"])
                centres.append(q.mean(axis=0))
                sizes.append(max(q[:, 0].max() - q[:, 0].min(), q[:, 1].max() - q[:, 1].min()))
                if not ix["visible"] or (ranks is not None and c["card"][0] not in ranks):
                    continue
                jit = (rng.normal(0, 0.04), rng.normal(0, 0.04), rng.uniform(0.9, 1.15))
                crop = crop_square(image, (x1, y1, x2, y2), jitter=jit)
                k = upright_turns(glyph_up_from_quad(ix["quad"], ix["corner"]))
                up = np.ascontiguousarray(np.rot90(crop, k))
                name = f"{path.stem}_{c['card']}{j}.jpg"
                cv2.imwrite(str(dirs[c["card"]] / name), up, [cv2.IMWRITE_JPEG_QUALITY, 95])
                count += 1
                if rng.random() < flip_bg:  # upside down is not a card: teaches 6/9 and the turn choice
                    cv2.imwrite(str(dirs[BG_CLASS] / f"r{name}"), np.ascontiguousarray(np.rot90(up, 2)))
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
        if (n + 1) % 50 == 0 or n + 1 == len(items):
            log(f"crops/{split}: {n + 1}/{len(items)} scenes, {count} crops")
    for name, d in dirs.items():  # tiny runs: the image-folder loader refuses an empty class
        if ranks is None and not any(d.iterdir()):
            twin = next((out / "train" / name).glob("*.jpg"), None)
            if twin is not None:
                shutil.copy(twin, d / twin.name)
            else:
                cv2.imwrite(str(d / "blank.jpg"), np.full((CROP_SIZE, CROP_SIZE, 3), 128, np.uint8))
    done.write_text(str(count))
    return count


# --------------------------------------------------------------------------- training

THREADS = [2]


def _yolo() -> Any:
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO  # type: ignore[attr-defined]

    tu.NUM_THREADS = THREADS[0]  # type: ignore[attr-defined]
    import torch

    torch.set_num_threads(THREADS[0])
    return YOLO


def train_stage(kind: str, data: Path, project: Path, epochs: int, hours: float | None, imgsz: int, batch: int,
                resume: bool, extra: dict[str, Any], init: Path | None = None, name: str | None = None) -> Path:
    """Train one stage; returns best.pt (or last.pt). Resumes from ``last.pt`` when asked.

    ``init``: start from these weights (a fine-tuning phase) instead of the model YAML.
    """
    YOLO = _yolo()
    name = name or kind
    run = project / name
    last = run / "weights" / "last.pt"
    best = run / "weights" / "best.pt"
    finished = run / ".finished"
    if finished.exists():
        log(f"{name}: already trained ({best})")
        return best if best.exists() else last
    if resume and last.exists():
        log(f"{name}: resuming {last}")
        try:
            YOLO(str(last)).train(resume=True)
        except Exception as err:  # e.g. "nothing to resume": training had finished
            log(f"{name}: resume ended with {err!r}")
    else:
        if run.exists():
            shutil.rmtree(run)
        yaml = "yolo11n.yaml" if kind == "det" else "yolo11n-cls.yaml"
        model = YOLO(str(init) if init is not None else yaml)
        args: dict[str, Any] = dict(data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu",
                                    workers=1, project=str(project), name=name, exist_ok=True,
                                    pretrained=init is not None,
                                    amp=False, plots=False, verbose=False, patience=100, seed=0, deterministic=False)
        if hours:
            args["time"] = hours
        args.update(extra)
        model.train(**args)
    finished.write_text("ok")
    return best if best.exists() else last


def _load_crops(roots: list[Path], names: list[str]) -> tuple[Any, Any]:
    import torch

    xs, ys = [], []
    for i, name in enumerate(names):
        for f in sorted(f for r in roots for f in (r / name).glob("*.jpg")):
            img = cv2.imread(str(f))
            if img is None:
                continue
            if img.shape[:2] != (CROP_SIZE, CROP_SIZE):
                img = cv2.resize(img, (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)
            xs.append(img[..., ::-1].transpose(2, 0, 1))  # RGB, CHW: what the ONNX model takes
            ys.append(i)
    return torch.from_numpy(np.ascontiguousarray(np.stack(xs))), torch.tensor(ys)


def _motion_kernel(length: float, angle: float) -> Any:
    """A normalised line kernel (odd side) of ``length`` pixels at ``angle`` radians: a camera's shake."""
    import torch

    side = math.ceil(length) | 1
    c = (side - 1) / 2
    yy, xx = torch.meshgrid(torch.arange(side, dtype=torch.float32) - c, torch.arange(side, dtype=torch.float32) - c,
                            indexing="ij")
    along = xx * math.cos(angle) + yy * math.sin(angle)
    across = -xx * math.sin(angle) + yy * math.cos(angle)
    k = (1 - across.abs()).clamp(min=0) * (along.abs() <= length / 2)
    return k / k.sum()


def _motion_blur(x: Any, gen: Any, share: float) -> Any:
    """A share of the batch streaked like a shaken photo: 3-14 px at 64 px (the generator's motion blur
    of 3-11 px at 1,600 px, on indices of 15-35 px), a few directions per batch."""
    import torch
    import torch.nn.functional as F

    chosen = torch.nonzero(torch.rand(x.shape[0], generator=gen) < share).flatten()
    for part in chosen.chunk(4):
        if len(part) == 0:
            continue
        length = float(3 + 11 * torch.rand(1, generator=gen))
        k = _motion_kernel(length, float(math.pi * torch.rand(1, generator=gen)))
        weight = k[None, None].expand(x.shape[1], 1, -1, -1)
        pad = k.shape[-1] // 2
        x[part] = F.conv2d(F.pad(x[part], (pad, pad, pad, pad), mode="replicate"), weight, groups=x.shape[1])
    return x


def _augment(x: Any, gen: Any, max_deg: float = 12.0, blur_p: float = 0.3, blur_min: float = 0.35,
             motion_p: float = 0.0, stretch_p: float = 0.0) -> Any:
    """Batch augmentation on tensors (float 0..1, NCHW): affine (turns up to ``max_deg``; a share
    ``stretch_p`` also stretched along one axis by up to 1.8 x, as a webcam's 16:9 frame stored square
    stretches it), blur (a share ``blur_p`` of the batch shrunk to ``blur_min``..``blur_min + 0.4`` and
    back), motion blur (a share ``motion_p``), colour, noise."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * math.radians(2 * max_deg)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.25
    tx, ty = ((torch.rand(2, n, generator=gen) - 0.5) * 0.16)
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    if stretch_p > 0:  # aspect 1/1.8..1.8 (log-uniform) on a share of the batch: x or y squeezed
        aspect = torch.exp((torch.rand(n, generator=gen) * 2 - 1) * math.log(1.8))
        aspect = torch.where(torch.rand(n, generator=gen) < stretch_p, aspect, torch.ones(n))
        theta = theta * torch.stack([aspect.sqrt(), 1 / aspect.sqrt()], 1)[:, :, None]
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
    blur = torch.rand(n, generator=gen) < blur_p
    if blur.any():
        f = float(blur_min + 0.4 * torch.rand(1, generator=gen))
        small = F.interpolate(x[blur], scale_factor=f, mode="bilinear", align_corners=False)
        x[blur] = F.interpolate(small, size=x.shape[-2:], mode="bilinear", align_corners=False)
    if motion_p > 0:
        x = _motion_blur(x, gen, motion_p)
    gain = 1 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 0.3          # white balance
    contrast = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.8
    bright = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.4
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean + bright
    x = x * gain
    gray = torch.rand(n, generator=gen) < 0.1
    if gray.any():
        x[gray] = x[gray].mean(dim=1, keepdim=True).expand(-1, 3, -1, -1)
    x = x + torch.randn(x.shape, generator=gen) * float(0.03 * torch.rand(1, generator=gen))
    return x.clamp(0, 1)


def train_classifier(crops: Path, run: Path, epochs: int, hours: float | None, resume: bool,
                     batch: int = 256, lr: float = 2e-3, init: Path | None = None, max_deg: float = 12.0,
                     blur_p: float = 0.3, blur_min: float = 0.35, more: list[Path] | None = None,
                     motion_p: float = 0.0, stretch_p: float = 0.0, freeze_bn: bool = False,
                     val_more: list[Path] | None = None) -> Path:
    """Stage 2: ultralytics' yolo11n-cls (from its YAML) trained with a plain torch loop on in-memory crops.

    ``freeze_bn``: the batch norms keep their running statistics (eval mode) while the rest trains: a phase
    that starts from weights recovered from an ONNX export (``vision.recover``, batch norms folded in)
    starts exactly where that model is. ``val_more``: further validation crop folders (their ``val``
    split); the best epoch is the one with the highest mean of the validation sets' top-1.

    Measured here: ultralytics' own classify loader (PIL transforms, 0 workers on CPU) spent
    ~10 s per batch of 128 at 64 px while the model's forward+backward took 0.5 s.
    """
    import torch
    import torch.nn.functional as F

    _yolo()
    from ultralytics.nn.tasks import ClassificationModel

    names = sorted(p.name for p in (crops / "train").iterdir() if p.is_dir())
    run.mkdir(parents=True, exist_ok=True)
    last, best, finished = run / "last.pt", run / "best.pt", run / ".finished"
    if finished.exists():
        log(f"cls: already trained ({best})")
        return best
    t_load = time.time()
    xtr, ytr = _load_crops([crops / "train"] + [m / "train" for m in more or []], names)
    vals = [_load_crops([root / "val"], names) for root in [crops, *(val_more or [])]]
    log(f"cls: {len(xtr)} train / {' + '.join(str(len(v[0])) for v in vals)} val crops, {len(names)} classes, "
        f"loaded in {time.time() - t_load:.0f}s")
    torch.manual_seed(0)
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)  # type: ignore[no-untyped-call]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    steps_per_epoch = max(1, len(xtr) // batch)
    state: dict[str, Any] = {"epoch": 0, "best": -1.0, "elapsed": 0.0, "history": []}
    if resume and last.exists():
        ck = torch.load(last, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        state = ck["state"]
        log(f"cls: resuming after epoch {state['epoch']}")
    elif init is not None:
        model.load_state_dict(torch.load(init, weights_only=False)["model"])
        log(f"cls: starting from {init}")
    budget = hours * 3600 if hours else None
    total_epochs = epochs
    gen = torch.Generator().manual_seed(1234 + state["epoch"])
    while state["epoch"] < total_epochs:
        t0 = time.time()
        model.train()
        if freeze_bn:
            for mod in model.modules():
                if isinstance(mod, torch.nn.BatchNorm2d):
                    mod.eval()
        perm = torch.randperm(len(xtr), generator=gen)
        seen = correct = 0
        loss_sum = 0.0
        for step in range(steps_per_epoch):
            done = (state["epoch"] * steps_per_epoch + step) / (total_epochs * steps_per_epoch)
            for g in opt.param_groups:  # linear warm-up over 3% then cosine
                g["lr"] = lr * min(1.0, done / 0.03 + 0.02) * (0.5 * (1 + math.cos(math.pi * min(done, 1.0))) + 0.02)
            idx = perm[step * batch:(step + 1) * batch]
            x = _augment(xtr[idx].float() / 255.0, gen, max_deg, blur_p, blur_min, motion_p, stretch_p)
            y = ytr[idx]
            out = model(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            seen += len(y)
            correct += int((out.argmax(1) == y).sum())
            loss_sum += float(loss.detach()) * len(y)
            if step % 20 == 0 or step == steps_per_epoch - 1:
                el = state["elapsed"] + time.time() - t0
                print(f"\r  cls epoch {state['epoch'] + 1}/{total_epochs} step {step + 1}/{steps_per_epoch} "
                      f"loss {loss_sum / seen:.3f} acc {correct / seen:.3f} elapsed {el / 60:.1f} min",
                      end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        model.eval()
        tops = []
        with torch.no_grad():
            for xva, yva in vals:
                pred = torch.cat([model(xva[i:i + 512].float() / 255.0)[0].argmax(1) for i in range(0, len(xva), 512)])
                tops.append(float((pred == yva).float().mean()))
        acc = sum(tops) / len(tops)
        state["epoch"] += 1
        state["elapsed"] += time.time() - t0
        state["history"].append({"epoch": state["epoch"], "train_loss": loss_sum / seen, "val_top1": acc,
                                 "val_top1_each": tops, "minutes": state["elapsed"] / 60})
        log(f"cls: epoch {state['epoch']}: val top1 {acc:.4f} ({' / '.join(f'{t:.4f}' for t in tops)}; "
            f"{state['elapsed'] / 60:.1f} min)")
        if acc > state["best"]:
            state["best"] = acc
            torch.save({"model": model.state_dict(), "names": names, "state": state}, best)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "names": names, "state": state}, last)
        if budget and state["epoch"] == 1 and total_epochs > 1:
            per_epoch = state["elapsed"]
            fit = max(1, int(budget // per_epoch))
            if fit < total_epochs:
                total_epochs = fit
                log(f"cls: {per_epoch / 60:.1f} min per epoch; {fit} epochs fit the {hours} h budget")
                ck = torch.load(last, weights_only=False)
                ck["state"] = state
                torch.save(ck, last)
        if budget and state["elapsed"] > budget:
            break
    (run / "history.json").write_text(json.dumps(state["history"], indent=1))
    finished.write_text("ok")
    return best


def export_classifier(weights: Path, models: Path, name: str = "index_cls.onnx") -> Path:
    """ONNX: input ``images`` (N, 3, 64, 64) RGB 0..1, output softmax (N, classes); names in the metadata.
    ``name``: the reader (``index_cls.onnx``) or the second reader (``index_cls2.onnx``, see vision.detector)."""
    import onnx
    import torch

    _yolo()
    from ultralytics.nn.tasks import ClassificationModel

    ck = torch.load(weights, weights_only=False)
    names = ck["names"]
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)  # type: ignore[no-untyped-call]
    model.load_state_dict(ck["model"])
    model.eval()
    model.model[-1].export = True  # Classify head: softmax probabilities only
    models.mkdir(parents=True, exist_ok=True)
    dest = models / name
    tmp = dest.with_suffix(".tmp.onnx")
    torch.onnx.export(model, (torch.zeros(1, 3, CROP_SIZE, CROP_SIZE),), str(tmp), input_names=["images"],
                      output_names=["output0"], dynamic_axes={"images": {0: "batch"}, "output0": {0: "batch"}},
                      opset_version=17, dynamo=False)
    m = onnx.load(str(tmp))
    meta = m.metadata_props.add()
    meta.key, meta.value = "names", repr(dict(enumerate(names)))
    meta = m.metadata_props.add()
    meta.key, meta.value = "imgsz", repr([CROP_SIZE, CROP_SIZE])
    onnx.save(m, str(dest))
    tmp.unlink()
    log(f"exported {weights} -> {dest} ({dest.stat().st_size / 1e6:.1f} MB)")
    return dest


def export(weights: Path, kind: str, imgsz: int, models: Path) -> Path:
    YOLO = _yolo()
    out = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True, opset=17))
    models.mkdir(parents=True, exist_ok=True)
    dest = models / ("index_det.onnx" if kind == "det" else "index_cls.onnx")
    shutil.copy(out, dest)
    log(f"exported {weights} -> {dest} ({dest.stat().st_size / 1e6:.1f} MB)")
    return dest


# --------------------------------------------------------------------------- phases

@dataclass(frozen=True)
class DetPhase:
    """One stage-1 phase: its tiles (folder, how many scenes, tile seed offset), time budget
    (the ``--<name>-hours`` option), learning rate, rotation augmentation and starting run."""

    tiles: str
    scenes: str           # the option giving how many training scenes: "scenes" or "ft_scenes"
    seed_offset: int
    lr: float
    warmup: float
    degrees: float
    init: str | None      # the run whose best weights it starts from (None: the model YAML)
    scale_range: tuple[float, float] = (0.5, 2.5)   # tile zoom range (index sizes seen)
    foreign: bool = False  # also tiles of --foreign-scenes scenes drawn from the tier B/C decks (see below)
    fonts: bool = False    # also tiles of the --font-scenes scenes (procedural font decks)
    v2: bool = False       # also tiles of the --v2-scenes scenes (train families, today's camera framing)


@dataclass(frozen=True)
class FontScenes:
    """A set of procedural font-deck scenes a reader phase adds crops of: the crops folder, the option
    giving how many scenes, the scenes folder and its seed (offset from ``--seed``; another seed, other decks)."""

    crops: str
    count: str
    scenes: str = "scenes_fonts"
    seed_offset: int = 60


@dataclass(frozen=True)
class ClsPhase:
    """One stage-2 phase: its crops, epochs/budget options, learning rate, start, turn augmentation."""

    crops: str
    scenes: str           # "scenes", "ft_scenes" or "ft2_scenes"
    seed_offset: int
    lr: float | None      # None: --cls-lr
    init: str | None      # the run it starts from; None: --cls-init (usually nothing)
    max_deg: float = 12.0
    blur_p: float = 0.3   # share of each batch blurred (shrunk and enlarged back)
    blur_min: float = 0.35  # the strongest shrink
    foreign: bool = False  # also the number cards of the --foreign-scenes scenes (crops_foreign)
    small: bool = False    # also the crops of the --small-scenes scenes (crops_small): photos of fewer pixels
    fonts: FontScenes | None = None  # also crops of procedural font decks' scenes
    more_fonts: tuple[FontScenes, ...] = ()  # and of these further font-deck scene sets
    motion_p: float = 0.0  # share of each batch streaked by motion blur
    v2: bool = False       # also the crops of the --v2-scenes scenes (crops_v2)
    exports_as: str = "index_cls.onnx"  # or "index_cls2.onnx": the second reader (vision.detector)
    real: bool = False     # also crops of real photos (vision.realcrops: cardcounter's train split; its val
    #                        split joins the validation crops and chooses the best epoch)
    stretch_p: float = 0.0  # share of each batch stretched along one axis (webcam frames stored square)
    freeze_bn: bool = False  # batch norms held (a start recovered from an ONNX export: vision.recover)


DET_PHASES = {
    "det": DetPhase("tiles", "scenes", 0, 0.002, 0.5, 0.0, None),
    "det2": DetPhase("tiles2", "ft_scenes", 100, 0.001, 0.2, 0.0, "det"),        # more scenes
    "det3": DetPhase("tiles2", "ft_scenes", 100, 0.0007, 0.2, 40.0, "det2"),     # turned up to 40 deg (not shipped)
    # all 2,800 scenes plus scenes of the decks with foreign index letters (German, French,
    # Italian, Cyrillic: an index is an index to stage 1), new tiles, smaller indices too, turned a little
    "det4": DetPhase("tiles3", "ft2_scenes", 300, 0.0007, 0.2, 10.0, "det2", scale_range=(0.4, 2.5),
                     foreign=True),
    # det4 went on improving to its last (budget-cut) epoch: the same tiles again, at a lower rate (on request)
    "det5": DetPhase("tiles3", "ft2_scenes", 300, 0.0004, 0.1, 10.0, "det4", scale_range=(0.4, 2.5),
                     foreign=True),
    # det4 on new tiles that add the procedural font decks' scenes: more index designs
    "det6": DetPhase("tiles4", "ft2_scenes", 400, 0.0005, 0.1, 10.0, "det4", scale_range=(0.4, 2.5),
                     foreign=True, fonts=True),
    # det6 on new tiles that add train-family scenes framed as the generator frames tables now (cameras
    # further back than for the first 2,800 scenes: cards ~25 % smaller, like the evaluation tables')
    "det7": DetPhase("tiles5", "ft2_scenes", 500, 0.0004, 0.1, 10.0, "det6", scale_range=(0.4, 2.5),
                     foreign=True, fonts=True, v2=True),
}
CLS_PHASES = {
    "cls": ClsPhase("crops", "scenes", 0, None, None),
    "cls2": ClsPhase("crops", "scenes", 0, 1e-3, "cls"),          # the cosine schedule again, half the rate
    "cls3": ClsPhase("crops2", "ft_scenes", 100, 7e-4, "cls2"),   # twice the scenes
    "cls4": ClsPhase("crops3", "ft2_scenes", 200, 5e-4, "cls3", max_deg=30.0),  # 4x; cards between quarter turns
    # the same crops, more epochs, half of each batch blurred harder (small, soft indices)
    "cls5": ClsPhase("crops3", "ft2_scenes", 200, 4e-4, "cls4", max_deg=30.0, blur_p=0.5, blur_min=0.22),
    # plus the foreign-letter decks' number cards: more designs of 2-10 and of the suits
    # (on request only: better on validation families, not on the held-out ones; see the model card)
    "cls6": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     foreign=True),
    # plus crops of scenes rendered at 800-1400 px (indices of 15-45 px drawn at that size, with the
    # JPEG and resampling of a small photo, not blurred after the fact): the reader's misses are small
    # indices (on request only: no better than cls5 on the validation-family tables; see the model card)
    "cls7": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.4, blur_min=0.25,
                     small=True),
    # plus crops of scenes whose cards are procedural decks drawn in the machine's fonts
    # (datasets.font_decks: a new index design every 10 scenes): the reader's misses are designs it never saw
    "cls8": ClsPhase("crops3", "ft2_scenes", 200, 3e-4, "cls5", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     fonts=FontScenes("crops_fonts", "font_scenes")),
    # cls8 continued, with twice the font decks (their first 1,500 scenes and 1,500 new ones; new crops)
    "cls9": ClsPhase("crops3", "ft2_scenes", 200, 2e-4, "cls8", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                     fonts=FontScenes("crops_fonts2", "font_scenes2")),
    # cls9 continued with the crops of train-family scenes framed as the generator frames tables now
    # (cameras further back than for the first 2,800 scenes: smaller indices, like the evaluation tables')
    "cls10": ClsPhase("crops3", "ft2_scenes", 200, 2e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      v2=True),
    # cls9 continued with 3,000 scenes of 300 new font decks (another seed; new crops): the second reader,
    # asked where cls9 is unsure (alone it reads no better than cls9; the two together do: model card)
    "cls11": ClsPhase("crops3", "ft2_scenes", 200, 1.5e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts3", "font_scenes3", "scenes_fonts3", 61),
                      exports_as="index_cls2.onnx"),
    # cls9 continued on both font-deck crop sets (cls9's and cls11's) with a quarter of each batch streaked by
    # motion blur: a shaken photo's indices, which no earlier phase saw except where a scene had them
    # (on request only: worse than cls9 on the validation tables after 1 and 2 epochs; see the model card)
    "cls12": ClsPhase("crops3", "ft2_scenes", 200, 1.5e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts2", "font_scenes2"),
                      more_fonts=(FontScenes("crops_fonts3", "font_scenes3", "scenes_fonts3", 61),), motion_p=0.25),
    # cls9 (the shipped reader; models/index_cls.pt when its run is not here) continued on crops of REAL photos
    # (cardcounter's train split, 12 crops per index) beside 300 train-family scenes and 250 new font-deck
    # scenes, a share stretched as webcam frames stored square are; the best epoch by the mean of the
    # synthetic and the real validation top-1 (the real photos' misreads were suits: clubs read as spades)
    "cls13": ClsPhase("crops_r", "real_scenes", 900, 1e-4, "cls9", max_deg=30.0, blur_p=0.5, blur_min=0.22,
                      fonts=FontScenes("crops_fonts_r", "font_scenes_r", "scenes_fonts_r", 80), real=True,
                      stretch_p=0.5, freeze_bn=True),
}
READER_BUDGETS = {  # --clsN-hours and --clsN-epochs defaults of the reader's later phases
    "cls3": (1.0, 8),
    "cls4": (0.8, 5),
    "cls5": (1.2, 8),
    "cls6": (0.55, 6),
    "cls7": (1.1, 6),
    "cls8": (1.0, 6),
    "cls9": (0.75, 5),
    "cls10": (0.8, 4),
    "cls11": (0.75, 4),
    "cls12": (0.85, 3),
    "cls13": (1.0, 4),
}
SMALL_SIZE = "800-1400"  # long side of the --small-scenes scenes (datasets.synth --size)


def _det_weights(runs: Path, name: str) -> Path:
    """A stage-1 run's best weights (its last ones when it stopped before a best was saved)."""
    w = runs / name / "weights"
    return w / "best.pt" if (w / "best.pt").exists() else w / "last.pt"


def _cls_run(runs: Path, name: str, args: argparse.Namespace) -> Path:
    """A stage-2 phase's run folder (the first phase's name is ``--cls-run``)."""
    return runs / (args.cls_run if name == "cls" else name)


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


def font_scenes_of(phase: DetPhase | ClsPhase) -> FontScenes | None:
    """The font-deck scenes a phase uses, if any (an index-finder phase: the first set)."""
    if isinstance(phase, DetPhase):
        return FontScenes("", "font_scenes") if phase.fonts else None
    return phase.fonts


def font_scene_count(phase: DetPhase | ClsPhase, args: argparse.Namespace) -> int:
    """How many font-deck scenes a phase uses (0: none): det6 and cls8 ``--font-scenes``, cls9
    ``--font-scenes2``, cls11 ``--font-scenes3``."""
    fonts = font_scenes_of(phase)
    return int(getattr(args, fonts.count)) if fonts is not None else 0


def ensure_font_scenes(args: argparse.Namespace, work: Path, n: int, folder: str = "scenes_fonts",
                       seed_offset: int = 60) -> Path:
    """``n`` scenes of procedural font decks (``datasets.synth --font-decks``) in the folder and seed of
    ``folder`` under ``work`` with seed ``--seed`` + ``seed_offset`` (default: ``scenes_fonts``, for det6's
    tiles and cls8/cls9's crops)."""
    scenes = work / folder
    ensure_scenes(scenes, "train", n, args.seed + seed_offset, False, args.workers, args.size, fonts=True)
    return scenes


def run_det_phase(name: str, phase: DetPhase, args: argparse.Namespace, scenes: Path, work: Path, runs: Path) -> None:
    tiles = work / phase.tiles
    n = build_tiles(scenes, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset,
                    getattr(args, phase.scenes), scale_range=phase.scale_range)
    if phase.foreign and args.foreign_scenes:
        foreign = ensure_foreign_scenes(args, work)
        n += build_tiles(foreign, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 1,
                         args.foreign_scenes, scale_range=phase.scale_range, tag="_foreign")
    if n_fonts := font_scene_count(phase, args):
        fonts = ensure_font_scenes(args, work, n_fonts)
        n += build_tiles(fonts, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 2,
                         n_fonts, scale_range=phase.scale_range, tag="_fonts")
    if phase.v2 and args.v2_scenes:
        v2 = ensure_v2_scenes(args, work)
        n += build_tiles(v2, "train", tiles, args.tiles_per_scene, args.seed + phase.seed_offset + 3,
                         args.v2_scenes, scale_range=phase.scale_range, tag="_v2")
    log(f"{phase.tiles}: {n} train, {build_tiles(scenes, 'val', tiles, 2, args.seed + 1, args.val_scenes)} val")
    init = None if phase.init is None else _det_weights(runs, phase.init)
    best = train_stage("det", tiles / "data.yaml", runs, args.det_epochs, getattr(args, f"{name}_hours") or None,
                       DET_TILE, 16, args.resume,
                       dict(cache=True, close_mosaic=1, degrees=phase.degrees, fliplr=0.5, scale=0.3, mosaic=1.0,
                            hsv_h=0.02, val=True, max_det=600, optimizer="AdamW", lr0=phase.lr,
                            warmup_epochs=phase.warmup),
                       init=init, name=name)
    export(best, "det", DET_EXPORT, args.models)


CLS_MODEL_STEM = "index_cls"


def ensure_real_crops(out: Path, seed: int) -> Path:
    """Reader crops of the real photos (``vision.realcrops``): cardcounter's train split for training,
    its val split (one crop per index) for choosing the epoch."""
    from .realcrops import build_real_crops
    from .realsets import cardcounter

    for split, variants in (("train", 12), ("val", 1)):
        done = out / f".done_{split}"
        if not done.exists():
            n = build_real_crops(cardcounter(split), out, split, variants, seed=seed)
            done.write_text(str(n))
        log(f"{out.name}/{split}: {done.read_text()} crops of real photos")
    return out


def _add_crops(more: list[Path], scenes: Path, out: Path, seed: int, n: int, note: str = "",
               ranks: str | None = None) -> None:
    """Crops of the first ``n`` scenes of another scene set into ``out``, a folder the phase also trains on."""
    more.append(out)
    log(f"{out.name}: {build_crops(scenes, 'train', out, seed, n, ranks=ranks)} train{note}")


def run_cls_phase(name: str, phase: ClsPhase, args: argparse.Namespace, scenes: Path, work: Path, runs: Path) -> None:
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
    for fonts in (phase.fonts, *phase.more_fonts):
        if fonts is not None and (n_scenes := int(getattr(args, fonts.count))):
            font_scenes = ensure_font_scenes(args, work, n_scenes, fonts.scenes, fonts.seed_offset)
            _add_crops(more, font_scenes, work / fonts.crops, seed + 3, n_scenes)
    if phase.v2 and args.v2_scenes:
        _add_crops(more, ensure_v2_scenes(args, work), work / "crops_v2", seed + 4, args.v2_scenes)
    val_more: list[Path] = []
    if phase.real:
        val_more.append(ensure_real_crops(work / "crops_real", 0))
        more.append(work / "crops_real")
    init = args.cls_init if phase.init is None else _cls_run(runs, phase.init, args) / "best.pt"
    if init is not None and not init.exists() and (MODELS / f"{CLS_MODEL_STEM}.pt").exists():
        init = MODELS / f"{CLS_MODEL_STEM}.pt"  # the shipped reader's weights (vision.recover), committed
        log(f"{name}: {phase.init} is not trained here: starting from {init}")
    epochs, hours = getattr(args, f"{name}_epochs"), getattr(args, f"{name}_hours")
    best = train_classifier(crops, _cls_run(runs, name, args), epochs, hours or None, args.resume,
                            lr=phase.lr if phase.lr is not None else args.cls_lr, init=init, max_deg=phase.max_deg,
                            blur_p=phase.blur_p, blur_min=phase.blur_min, more=more, motion_p=phase.motion_p,
                            stretch_p=phase.stretch_p, freeze_bn=phase.freeze_bn, val_more=val_more)
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
    base = [sys.executable, "-m", "vision.train", *_without(_without(argv, "--stages"), "--lanes"), "--lanes", "1"]
    log2 = work / "train_lane2.log"
    log(f"lanes: {','.join(lanes[0])} here, {','.join(lanes[1])} in the background (log: {log2})")
    with log2.open("w") as fh:
        second = subprocess.Popen([*base, "--stages", ",".join(lanes[1])], cwd=ROOT, stdout=fh, stderr=fh)
        first = subprocess.run([*base, "--stages", ",".join(lanes[0])], cwd=ROOT, check=False)
        second.wait()
    if first.returncode or second.returncode:
        raise SystemExit(f"training failed: lane 1 exit {first.returncode}, lane 2 exit {second.returncode} "
                         f"(see {log2})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__,
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
    ap.add_argument("--font-scenes-r", type=int, default=250,
                    help="scenes of new procedural font decks for cls13 (<work>/scenes_fonts_r, another seed)")
    ap.add_argument("--font-scenes2", type=int, default=3000,
                    help="scenes of procedural font decks for cls9's crops (the first --font-scenes and more)")
    for n, (hours, epochs) in READER_BUDGETS.items():   # the reader's later phases: a budget, and epochs within it
        ap.add_argument(f"--{n}-hours", type=float, default=hours, help=f"time budget for stage 2's phase {n}")
        ap.add_argument(f"--{n}-epochs", type=int, default=epochs,
                        help=f"epochs of stage 2's phase {n} (within its budget)")
    ap.add_argument("--models", type=Path, default=MODELS, help="where the ONNX files go")
    ap.add_argument("--stages", default="cls,cls2,det,det2,cls3,cls4,det4,cls5,det6,cls8,cls9,cls13",
                    help="which stages to train, in order: cls (classifier), cls2..cls5, cls8, cls9, cls13 (its later "
                         "phases; cls13 on real photos too), det (index finder), det2, det4, det6 (its fine-tuning "
                         "phases); det3 (turned tiles), det5, det7, cls6 (with the foreign-letter decks' number "
                         "cards), cls7 (with small scenes), cls10, cls11 (the former second reader), cls12 on request")
    ap.add_argument("--resume", action="store_true", help="continue an interrupted run")
    ap.add_argument("--test-deck", action="store_true", help="procedural deck (no art cache needed)")
    ap.add_argument("--workers", type=int, default=2, help="processes for scene generation")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (measured here: 1 is 2-6x faster than 2 on a shared 2-core machine)")
    ap.add_argument("--export-only", action="store_true", help="export the current best.pt files and stop")
    ap.add_argument("--lanes", type=int, choices=(1, 2), default=2,
                    help="2: train the index finder (det, det2, det4, det6) and the reader (cls..cls5, cls8, cls9) at "
                         "the same time, one core each (the recipe's ~5.1 h); 1: one stage after the other")
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
    font_sets: dict[tuple[str, int], int] = {}   # scenes folder and seed -> as many as its phases need
    for k in stages:
        if k in phases and (fonts := font_scenes_of(phases[k])) is not None:
            key = (fonts.scenes, fonts.seed_offset)
            font_sets[key] = max(font_sets.get(key, 0), font_scene_count(phases[k], args))
    for (folder, seed_offset), n_fonts in font_sets.items():
        if n_fonts:
            ensure_font_scenes(args, work, n_fonts, folder, seed_offset)
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
