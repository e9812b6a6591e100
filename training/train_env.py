"""The training run's surroundings: the repository's folders, the progress log, the settings that keep
ultralytics and onnxruntime offline, and the torch thread count (``--threads``) every stage imports
ultralytics with."""

from __future__ import annotations

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


def import_yolo() -> Any:
    """ultralytics' ``YOLO`` class, imported with torch held to ``THREADS[0]`` threads."""
    import ultralytics.utils.torch_utils as tu
    from ultralytics import YOLO  # type: ignore[attr-defined]

    tu.NUM_THREADS = THREADS[0]  # type: ignore[attr-defined]
    import torch

    torch.set_num_threads(THREADS[0])
    return YOLO
