"""Stage 2, the reader: ultralytics' yolo11n-cls trained with a plain torch loop on in-memory crops
(batch augmentation: turns, stretch, blur, motion blur, colour, noise; a time budget; resumable) and its
export to ``models/index_cls.onnx`` (or the second reader's file)."""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.tiles import BG_CLASS, CROP_SIZE

from .neighbours import cut_strips, ink_extents, paste_neighbours
from .train_env import import_yolo, log, ultralytics_part


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


def _gaussian(x: Any, sigma: float) -> Any:
    """``x`` (N, C, H, W) blurred by a Gaussian of ``sigma`` px (separable, borders replicated)."""
    import torch
    import torch.nn.functional as F

    r = max(1, math.ceil(3 * sigma))
    t = torch.arange(-r, r + 1, dtype=torch.float32)
    k = torch.exp(-0.5 * (t / sigma) ** 2)
    k = k / k.sum()
    c = x.shape[1]
    x = F.conv2d(F.pad(x, (r, r, 0, 0), mode="replicate"), k.view(1, 1, 1, -1).expand(c, 1, 1, -1), groups=c)
    return F.conv2d(F.pad(x, (0, 0, r, r), mode="replicate"), k.view(1, 1, -1, 1).expand(c, 1, -1, 1), groups=c)


def _sharpen(x: Any, gen: Any, chosen: Any) -> Any:
    """The ``chosen`` crops sharpened (unsharp mask: sigma 0.8-1.6 px, amount 0.6-2.0, a few draws per batch):
    the real webcam indices' edges are about half as wide for their height as the synthetic scenes'
    (``benchmarks/camera_look.py``; on the 64 px crops edge/height 0.050 against 0.084), so without it the
    reader trains on crops softer than nearly every real one."""
    import torch

    idx = torch.nonzero(chosen).flatten()
    for part in idx.chunk(4):
        if len(part) == 0:
            continue
        sigma = float(0.8 + 0.8 * torch.rand(1, generator=gen))
        amount = float(0.6 + 1.4 * torch.rand(1, generator=gen))
        x[part] = (x[part] + amount * (x[part] - _gaussian(x[part], sigma))).clamp(0, 1)
    return x


WIDE_DEG = (30.0, 42.0)  # the turns of ``wide_p``'s crops, either way: cards of a fan lie between quarter turns
INDEX_ASPECT = 0.6       # an index's width over its height, about (the upright box of a turned index)


def _wide_turns(ang: Any, sc: Any, wide: Any, gen: Any) -> tuple[Any, Any]:
    """``ang`` and ``sc`` (the batch's turns, radians, and scales) with the crops ``wide`` marks turned
    ``WIDE_DEG`` either way and their ink made smaller by the growth of a turned index's upright box (the
    runtime crops around that box: ``vision.tiles.crop_square``)."""
    import torch

    n = len(ang)
    lo, hi = (math.radians(d) for d in WIDE_DEG)
    a = (lo + (hi - lo) * torch.rand(n, generator=gen)) * torch.where(torch.rand(n, generator=gen) < 0.5, -1.0, 1.0)
    grow = torch.cos(a).abs() + INDEX_ASPECT * torch.sin(a).abs()
    return torch.where(wide, a, ang), torch.where(wide, sc / grow, sc)


def _augment(x: Any, gen: Any, max_deg: float = 12.0, blur_p: float = 0.3, blur_min: float = 0.35,
             motion_p: float = 0.0, stretch_p: float = 0.0, sharpen_p: float = 0.0, wide: Any = None) -> Any:
    """Batch augmentation on tensors (float 0..1, NCHW): affine (turns up to ``max_deg``; the crops ``wide``
    marks (a boolean mask, or None) turned ``WIDE_DEG`` instead, either way, their ink shrunk as a turned index's
    upright box grows: ``_wide_turns``; a share
    ``stretch_p`` also stretched along one axis by up to 1.8 x, as a webcam's 16:9 frame stored square
    stretches it), blur (a share ``blur_p`` of the batch shrunk to ``blur_min``..``blur_min + 0.4`` and
    back), motion blur (a share ``motion_p``), sharpening (a share ``sharpen_p`` of the crops not blurred:
    ``_sharpen``), colour, noise."""
    import torch
    import torch.nn.functional as F

    n = x.shape[0]
    ang = (torch.rand(n, generator=gen) - 0.5) * math.radians(2 * max_deg)
    sc = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.25
    if wide is not None and bool(wide.any()):
        ang, sc = _wide_turns(ang, sc, wide, gen)
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
    if sharpen_p > 0:
        x = _sharpen(x, gen, ~blur & (torch.rand(n, generator=gen) < sharpen_p))
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
                     val_more: list[Path] | None = None, neighbour_p: float = 0.0, sharpen_p: float = 0.0,
                     cut_p: float = 0.0, strip_p: float = 0.0, wide_p: float = 0.0) -> Path:
    """Stage 2: ultralytics' yolo11n-cls (from its YAML) trained with a plain torch loop on in-memory crops.

    ``freeze_bn``: the batch norms keep their running statistics (eval mode) while the rest trains: a phase
    that starts from weights recovered from an ONNX export (``training.recover``, batch norms folded in)
    starts exactly where that model is. ``val_more``: further validation crop folders (their ``val``
    split); the best epoch is the one with the highest mean of the validation sets' top-1. ``neighbour_p``: the
    share of each batch given the cards of a tight row around its index (``training.neighbours``), ``cut_p`` the
    share of those whose covering card's edge cuts into the index's ink; ``strip_p``: the share of each batch cut
    down to a strip of its index (``training.neighbours.cut_strips``: a row or fan laid tighter still);
    ``sharpen_p``: the share of the crops not blurred that are sharpened (``_sharpen``); ``wide_p``: the share of
    each batch's index crops (never the background's: sideways indices are background) turned ``WIDE_DEG``, as the
    cards of a fan lie.

    Measured here: ultralytics' own classify loader (PIL transforms, 0 workers on CPU) spent
    ~10 s per batch of 128 at 64 px while the model's forward+backward took 0.5 s.
    """
    import torch
    import torch.nn.functional as F

    import_yolo()
    ClassificationModel = ultralytics_part("ultralytics.nn.tasks", "ClassificationModel")

    names = sorted(p.name for p in (crops / "train").iterdir() if p.is_dir())
    run.mkdir(parents=True, exist_ok=True)
    last, best, finished = run / "last.pt", run / "best.pt", run / ".finished"
    if finished.exists():
        log(f"cls: already trained ({best})")
        return best
    t_load = time.time()
    xtr, ytr = _load_crops([crops / "train"] + [m / "train" for m in more or []], names)
    vals = [_load_crops([root / "val"], names) for root in [crops, *(val_more or [])]]
    ink: Any = None
    paper: Any = None
    donors: Any = None
    if neighbour_p > 0 or strip_p > 0:
        ink, paper = ink_extents(xtr)
        donors = ytr != names.index(BG_CLASS) if BG_CLASS in names else None
    log(f"cls: {len(xtr)} train / {' + '.join(str(len(v[0])) for v in vals)} val crops, {len(names)} classes, "
        f"loaded in {time.time() - t_load:.0f}s")
    torch.manual_seed(0)
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)
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
            x = xtr[idx].float() / 255.0
            if ink is not None:
                x = paste_neighbours(x, ink[idx], paper[idx], gen, neighbour_p,
                                     None if donors is None else donors[idx], cut_p)
            if strip_p > 0:
                x = cut_strips(x, ink[idx], paper[idx], gen, strip_p, None if donors is None else donors[idx])
            y = ytr[idx]
            wide = None
            if wide_p > 0:
                wide = torch.rand(len(y), generator=gen) < wide_p
                if BG_CLASS in names:
                    wide &= y != names.index(BG_CLASS)
            x = _augment(x, gen, max_deg, blur_p, blur_min, motion_p, stretch_p, sharpen_p, wide)
            out = model(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.05)
            opt.zero_grad()
            torch.autograd.backward(loss)
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

    import_yolo()
    ClassificationModel = ultralytics_part("ultralytics.nn.tasks", "ClassificationModel")

    ck = torch.load(weights, weights_only=False)
    names = ck["names"]
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)
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
