"""The PyTorch weights of a shipped reader, recovered exactly from its ONNX export.

``torch.onnx.export`` of an ultralytics ``ClassificationModel`` in eval mode folds each batch norm into
the convolution before it (a weight and a bias per ``Conv`` node, named after the module in the
node's name, e.g. ``/model.2/m.0/cv1/conv/Conv``). Undone here: the convolution keeps the folded
weight, and its batch norm becomes the identity plus the folded bias (weight 1, running mean 0,
running variance 1 - eps), which computes the same function in eval mode. A phase that continues
from these weights trains with its batch norms held in eval mode (``freeze_bn``), so it starts
exactly where the shipped model is.

    python -m vision.recover models/index_cls.onnx models/index_cls.pt     # needs the train extra
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


def classifier_state(onnx_path: Path) -> tuple[dict[str, Any], list[str]]:
    """(state dict of ``ClassificationModel('yolo11n-cls.yaml')``, class names) from an exported reader."""
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
            weight, bias = init[node.input[1]], init[node.input[2]]
            owner = conv.rsplit(".", 1)[0]
            state[f"{conv}.weight"] = torch.from_numpy(weight.copy())
            state[f"{owner}.bn.weight"] = torch.ones(len(bias))
            state[f"{owner}.bn.bias"] = torch.from_numpy(bias.copy())
            state[f"{owner}.bn.running_mean"] = torch.zeros(len(bias))
            state[f"{owner}.bn.running_var"] = torch.full((len(bias),), 1 - 1e-3)
            state[f"{owner}.bn.num_batches_tracked"] = torch.tensor(0)
        elif node.op_type == "Gemm":
            state["model.10.linear.weight"] = torch.from_numpy(init[node.input[1]].copy())
            state["model.10.linear.bias"] = torch.from_numpy(init[node.input[2]].copy())
    return state, names


def recovered_classifier(onnx_path: Path) -> tuple[Any, list[str]]:
    """The reader as an ultralytics ``ClassificationModel`` (eval mode), checked against the ONNX model."""
    import onnxruntime as ort
    import torch
    from ultralytics.nn.tasks import ClassificationModel

    state, names = classifier_state(onnx_path)
    model = ClassificationModel("yolo11n-cls.yaml", nc=len(names), verbose=False)  # type: ignore[no-untyped-call]
    for name, mod in model.named_modules():  # the identity batch norm for each module's own eps
        if isinstance(mod, torch.nn.BatchNorm2d) and f"{name}.running_var" in state:
            state[f"{name}.running_var"] = torch.full_like(state[f"{name}.running_var"], 1 - mod.eps)
    missing, unexpected = model.load_state_dict(state, strict=False)
    if missing or unexpected:
        raise ValueError(f"{onnx_path}: weights do not fit yolo11n-cls: missing {missing[:4]}, unexpected "
                         f"{unexpected[:4]}")
    model.eval()
    model.model[-1].export = True
    x = np.random.default_rng(0).random((4, 3, 64, 64), dtype=np.float32)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    want = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    model.model[-1].export = False
    if not np.allclose(got, want, atol=1e-4):
        raise ValueError(f"{onnx_path}: recovered weights differ from the ONNX model (max {np.abs(got - want).max()})")
    return model, names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.recover", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("onnx", type=Path)
    ap.add_argument("dest", type=Path)
    args = ap.parse_args(argv)
    import torch

    model, names = recovered_classifier(args.onnx)
    torch.save({"model": model.state_dict(), "names": names, "from": args.onnx.name}, args.dest)
    print(f"{args.onnx} -> {args.dest} ({args.dest.stat().st_size / 1e6:.1f} MB), matches the ONNX model")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
