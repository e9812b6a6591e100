"""Render one card of a KDE multi-card SVG, found by its alpha, not by librsvg's element box.

KDE decks keep every card in one file, some inside ``<defs>`` or off the page,
and librsvg's element boxes are wrong for most of them. So the card is drawn
alone (the document moved into ``<defs>``, one ``<use>`` of the card id) over a
wide view box, its box is read from the alpha channel, refined at a finer
scale, and the card is rendered once more exactly in that box.
"""

from __future__ import annotations

import gzip
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)

Box = tuple[float, float, float, float]   # x, y, w, h in user units


def read_svg(path: str | Path) -> bytes:
    data = Path(path).read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def _page(root: ET.Element) -> Box:
    vb = root.get("viewBox")
    if vb:
        x, y, w, h = (float(v) for v in vb.replace(",", " ").split())
        return x, y, w, h
    def num(v: str | None) -> float:
        return float("".join(ch for ch in (v or "1000") if ch.isdigit() or ch == "."))
    return 0.0, 0.0, num(root.get("width")), num(root.get("height"))


class ElementRenderer:
    """Renders single elements of one SVG document."""

    def __init__(self, data: bytes) -> None:
        self.root = ET.fromstring(data)
        self.page = _page(self.root)
        kids = list(self.root)
        for kid in kids:
            self.root.remove(kid)
        defs = ET.SubElement(self.root, f"{{{SVG_NS}}}defs")
        for kid in kids:
            defs.append(kid)
        self.use = ET.SubElement(self.root, f"{{{SVG_NS}}}use")
        for attr in ("width", "height", "viewBox", "preserveAspectRatio"):
            self.root.attrib.pop(attr, None)
        self.root.set("preserveAspectRatio", "none")

    def _render(self, eid: str, box: Box, width: int) -> NDArray[Any]:
        x, y, w, h = box
        height = max(1, round(width * h / w))
        self.use.set(f"{{{XLINK_NS}}}href", f"#{eid}")
        self.root.set("viewBox", f"{x} {y} {w} {h}")
        self.root.set("width", str(width))
        self.root.set("height", str(height))
        out = subprocess.run(["rsvg-convert", "-f", "png"], input=ET.tostring(self.root),
                             capture_output=True, check=True).stdout
        img = cv2.imdecode(np.frombuffer(out, np.uint8), cv2.IMREAD_UNCHANGED)
        if img is None or img.ndim != 3 or img.shape[2] != 4:
            raise RuntimeError(f"rsvg-convert gave no RGBA image for #{eid}")
        return np.ascontiguousarray(img)

    def _locate(self, eid: str, box: Box, width: int) -> Box | None:
        img = self._render(eid, box, width)
        mask = img[:, :, 3] > 8
        ys, xs = np.nonzero(mask)
        if xs.size == 0:
            return None
        sx, sy = box[2] / img.shape[1], box[3] / img.shape[0]
        return (box[0] + (xs.min() - 1) * sx, box[1] + (ys.min() - 1) * sy,
                (xs.max() - xs.min() + 3) * sx, (ys.max() - ys.min() + 3) * sy)

    def render(self, eid: str, width: int) -> NDArray[Any]:
        """The element ``eid`` alone, ``width`` pixels wide (trimmed by alpha afterwards by the caller)."""
        px, py, pw, ph = self.page
        span = max(pw, ph)
        found = None
        for grow in (1.0, 6.0):
            wide = (px - grow * span, py - grow * span, pw + 2 * grow * span, ph + 2 * grow * span)
            found = self._locate(eid, wide, 1500)
            if found is not None:
                break
        if found is None:
            raise RuntimeError(f"#{eid} draws nothing")
        fine = self._locate(eid, found, 1000)
        if fine is None:
            raise RuntimeError(f"#{eid} vanished on refinement")
        return self._render(eid, fine, width)
