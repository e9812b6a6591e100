"""Stage 1, the index finder: ultralytics' yolo11n trained on the tiles (a time budget, resumable,
or fine-tuned from an earlier run's weights) and exported to ``models/index_det.onnx``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .train_env import import_yolo, log

DET_EXPORT = 640


def train_stage(kind: str, data: Path, project: Path, epochs: int, hours: float | None, imgsz: int, batch: int,
                resume: bool, extra: dict[str, Any], init: Path | None = None, name: str | None = None,
                freeze_bn: bool = False) -> Path:
    """Train one stage; returns best.pt (or last.pt). Resumes from ``last.pt`` when asked.

    ``init``: start from these weights (a fine-tuning phase) instead of the model YAML; ``freeze_bn``: every batch
    norm held in eval mode (weights recovered from an ONNX export have the identity batch norms, ``training.recover``:
    batch statistics would change what they compute).
    """
    YOLO = import_yolo()
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
            model = YOLO(str(last))
            if freeze_bn:
                model.add_callback("on_train_batch_start", _hold_batch_norms)
            model.train(resume=True)
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
        if freeze_bn:
            model.add_callback("on_train_batch_start", _hold_batch_norms)
        model.train(**args)
    finished.write_text("ok")
    return best if best.exists() else last


def _hold_batch_norms(trainer: Any) -> None:
    """Callback: the batch norms in eval mode (the trainer sets the model to train mode each epoch)."""
    import torch

    for m in trainer.model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def export(weights: Path, kind: str, imgsz: int, models: Path) -> Path:
    YOLO = import_yolo()
    out = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True, opset=17))
    models.mkdir(parents=True, exist_ok=True)
    dest = models / ("index_det.onnx" if kind == "det" else "index_cls.onnx")
    shutil.copy(out, dest)
    log(f"exported {weights} -> {dest} ({dest.stat().st_size / 1e6:.1f} MB)")
    return dest
