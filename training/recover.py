"""The PyTorch weights of a shipped reader or index finder, recovered exactly from its ONNX export.

``torch.onnx.export`` of an ultralytics ``ClassificationModel`` or ``DetectionModel`` in eval mode folds
each batch norm into the convolution before it (a weight and a bias per ``Conv`` node, named after the module in the
node's name, e.g. ``/model.2/m.0/cv1/conv/Conv``). Undone here: the convolution keeps the folded
weight, and its batch norm becomes the identity plus the folded bias (weight 1, running mean 0,
running variance 1 - eps), which computes the same function in eval mode. A phase that continues
from these weights trains with its batch norms held in eval mode (``freeze_bn``), so it starts
exactly where the shipped model is. A detection head's last convolutions have no batch norm and keep
their own bias; its fixed distribution-to-distance convolution is built by the model itself.

    python -m training.recover models/index_cls.onnx models/index_cls.pt     # needs the train extra
    python -m training.recover models/index_det.onnx models/index_det6.pt --whole   # det6 (from git history)
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path
from typing import Any

import numpy as np

_NODE = re.compile(r"^/(.+)/Conv$")


def _module_path(scope: str) -> str:
    """A node's scope as a module path: ``model.6/m.0/m/m.0/cv1/conv`` -> ``model.6.m.0.m.0.cv1.conv`` (a
    child of a container is scoped ``m.0`` after the container's own ``m``).

    >>> _module_path("model.6/m.0/m/m.0/cv1/conv")
    'model.6.m.0.m.0.cv1.conv'
    """
    parts: list[str] = []
    for part in scope.split("/"):
        if parts and part.startswith(parts[-1] + "."):
            parts[-1] = part
        else:
            parts.append(part)
    return ".".join(parts)


def onnx_state(onnx_path: Path) -> tuple[dict[str, Any], list[str]]:
    """(state dict of the ultralytics model the ONNX model was exported from, class names): each ``Conv`` node's
    weights; a module's convolution followed by a batch norm (``.../conv``) gets the identity batch norm plus the
    folded bias, a plain convolution (a detection head's last) its own bias; the classifier's ``Gemm`` its linear."""
    import onnx
    import torch
    from onnx import numpy_helper

    m = onnx.load(str(onnx_path))
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    meta = {p.key: p.value for p in m.metadata_props}
    names_map = ast.literal_eval(meta["names"])
    names = [str(names_map[i]) for i in sorted(names_map)]
    state: dict[str, Any] = {}
    for node in m.graph.node:
        if node.op_type == "Conv":
            match = _NODE.match(node.name)
            if match is None:
                raise ValueError(f"{onnx_path}: Conv node {node.name!r} names no module")
            conv = _module_path(match.group(1))
            if conv.endswith(".dfl.conv"):  # the detection head's fixed distribution-to-distance weights
                continue
            weight, bias = init[node.input[1]], init[node.input[2]]
            state[f"{conv}.weight"] = torch.from_numpy(weight.copy())
            if not conv.endswith(".conv"):
                state[f"{conv}.bias"] = torch.from_numpy(bias.copy())
                continue
            owner = conv.rsplit(".", 1)[0]
            state[f"{owner}.bn.weight"] = torch.ones(len(bias))
            state[f"{owner}.bn.bias"] = torch.from_numpy(bias.copy())
            state[f"{owner}.bn.running_mean"] = torch.zeros(len(bias))
            state[f"{owner}.bn.running_var"] = torch.full((len(bias),), 1 - 1e-3)
            state[f"{owner}.bn.num_batches_tracked"] = torch.tensor(0)
        elif node.op_type == "Gemm":
            state["model.10.linear.weight"] = torch.from_numpy(init[node.input[1]].copy())
            state["model.10.linear.bias"] = torch.from_numpy(init[node.input[2]].copy())
    return state, names


def recovered(onnx_path: Path) -> tuple[Any, list[str]]:
    """The model of an exported reader (``ClassificationModel('yolo11n-cls.yaml')``) or index finder
    (``DetectionModel('yolo11n.yaml')``), in eval mode, checked against the ONNX model."""
    import onnx
    import onnxruntime as ort
    import torch

    from .train_env import ultralytics_part

    detect = {p.key: p.value for p in onnx.load(str(onnx_path)).metadata_props}.get("task") == "detect"
    state, names = onnx_state(onnx_path)
    kind, yaml = ("DetectionModel", "yolo11n.yaml") if detect else ("ClassificationModel", "yolo11n-cls.yaml")
    model: Any = ultralytics_part("ultralytics.nn.tasks", kind)(yaml, nc=len(names), verbose=False)
    for name, mod in model.named_modules():  # the identity batch norm for each module's own eps
        if isinstance(mod, torch.nn.BatchNorm2d) and f"{name}.running_var" in state:
            state[f"{name}.running_var"] = torch.full_like(state[f"{name}.running_var"], 1 - mod.eps)
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if ".dfl." not in k]
    if missing or unexpected:
        raise ValueError(f"{onnx_path}: weights do not fit {'yolo11n' if detect else 'yolo11n-cls'}: missing "
                         f"{missing[:4]}, unexpected {unexpected[:4]}")
    model.eval()
    model.names = dict(enumerate(names))
    model.model[-1].export = True
    side = 256 if detect else 64
    x = np.random.default_rng(0).random((2, 3, side, side), dtype=np.float32)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    want = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        out = model(torch.from_numpy(x))
        got = (out[0] if isinstance(out, (tuple, list)) else out).numpy()
    model.model[-1].export = False
    if got.shape != want.shape or not np.allclose(got, want, atol=1e-3 * max(1.0, float(np.abs(want).max()))):
        raise ValueError(f"{onnx_path}: recovered weights differ from the ONNX model")
    return model, names


def save_checkpoint(model: Any, names: list[str], source: str, dest: Path) -> None:
    """``model`` saved as ultralytics saves a run's weights, in half precision (``YOLO(dest)`` loads it; a phase
    starts from it; boxes within half a pixel of the ONNX model's, scores within 1e-4)."""
    import copy

    import torch

    dest.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": copy.deepcopy(model).half(), "names": names, "from": source, "train_args": {},
                "epoch": -1}, dest)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.recover", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("onnx", type=Path)
    ap.add_argument("dest", type=Path)
    ap.add_argument("--whole", action="store_true", help="save the whole model as ultralytics saves a run's "
                    "weights (an index finder's phase starts from it) instead of its state dict")
    args = ap.parse_args(argv)
    import torch

    model, names = recovered(args.onnx)
    if args.whole:
        save_checkpoint(model, names, args.onnx.name, args.dest)
    else:
        torch.save({"model": model.state_dict(), "names": names, "from": args.onnx.name}, args.dest)
    print(f"{args.onnx} -> {args.dest} ({args.dest.stat().st_size / 1e6:.1f} MB), matches the ONNX model")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
