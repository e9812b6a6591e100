"""The training run's surroundings: the repository's folders, the progress log, the settings that keep
ultralytics and onnxruntime offline, and the torch thread count (``--threads``) every stage imports
ultralytics with."""

from __future__ import annotations

import importlib
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"


def log(msg: str) -> None:
    """One timestamped progress line on stderr."""
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


THREADS = [2]  # torch threads for every stage; main sets it from --threads


def ultralytics_part(module: str, name: str) -> Any:
    """``name`` from the ultralytics module ``module``, typed as ``Any``: ultralytics is only partly typed,
    and where the train extra is not installed (a small disk) mypy sees no ultralytics at all, so a typed
    import would need a ``type: ignore`` in one install and fail on it as unused in the other."""
    return getattr(importlib.import_module(module), name)


def import_yolo() -> Any:
    """ultralytics' ``YOLO`` class, imported with torch held to ``THREADS[0]`` threads."""
    tu: Any = importlib.import_module("ultralytics.utils.torch_utils")
    tu.NUM_THREADS = THREADS[0]
    yolo = ultralytics_part("ultralytics", "YOLO")
    import torch

    torch.set_num_threads(THREADS[0])
    return yolo
