"""Contact sheet of generated scenes with their labels drawn (look before you train).

Green: visible corner-index boxes with the class name; red: hidden ones;
yellow: card outlines; blue text: player and row.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

CELL_W = 800


def draw_truth(image: NDArray[Any], truth: dict[str, Any]) -> NDArray[Any]:
    img = image.copy()
    thick = max(1, round(max(img.shape[:2]) / 800))
    for card in truth["cards"]:
        quad = np.round(np.array(card["corners"])).astype(np.int32)
        cv2.polylines(img, [quad], True, (0, 220, 255), thick)
        for index in card["index"]:
            x0, y0, x1, y1 = (round(v) for v in index["box"])
            colour = (0, 255, 0) if index["visible"] else (0, 0, 255)
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, thick)
            if index["visible"]:
                cv2.putText(img, card["card"], (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * thick,
                            (0, 255, 0), thick, cv2.LINE_AA)
        c = quad.mean(axis=0).astype(int)
        tag = f"{card['player'][0]}{(card['row'] or 'free')[0]}{card['position']}"
        cv2.putText(img, tag, (int(c[0]), int(c[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, (255, 80, 0), thick)
    info = f"{truth['deck']}  tilt {truth['camera']['tilt_deg']:.0f}  " + " ".join(
        f"{p['name']}:{p['mode']}{'/FOUL' if p['foul'] else ''}{'/' + p['special'] if p['special'] else ''}"
        for p in truth["players"])
    cv2.putText(img, info, (10, 30 * thick), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * thick, (255, 255, 255), 2 * thick)
    return img


def contact_sheet(images: list[NDArray[Any]], columns: int = 3) -> NDArray[Any]:
    cells = []
    cell_h = CELL_W * 3 // 4
    for img in images:
        scale = min(CELL_W / img.shape[1], cell_h / img.shape[0])
        cell = cv2.resize(img, (round(img.shape[1] * scale), round(img.shape[0] * scale)), interpolation=cv2.INTER_AREA)
        cells.append(np.pad(cell, ((0, cell_h - cell.shape[0] + 6), (0, CELL_W - cell.shape[1] + 6), (0, 0))))
    while len(cells) % columns:
        cells.append(np.zeros_like(cells[0]))
    rows = [np.hstack(cells[i:i + columns]) for i in range(0, len(cells), columns)]
    return np.vstack(rows)


def write_preview(out: Path, split: str, names: list[str]) -> Path:
    drawn = []
    for name in names:
        image = cv2.imread(str(out / "images" / split / f"{name}.jpg"))
        truth = json.loads((out / "truth" / split / f"{name}.json").read_text())
        if image is None:
            raise FileNotFoundError(f"{name}.jpg missing in {out}")
        drawn.append(draw_truth(image, truth))
    path = out / f"preview_{split}.png"
    cv2.imwrite(str(path), contact_sheet(drawn))
    return path
