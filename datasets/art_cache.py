"""The rendered-card cache: one folder per deck, outside git.

Layout (``<root>`` is ``$SHISANSHUI_CACHE`` or ``~/.cache/shisanshui``)::

    <root>/cards/<deck>/Ah.png ... 2c.png, back.png   one BGRA PNG per card
    <root>/cards/<deck>/meta.json                      family, tier, size, index boxes
    <root>/cards/<deck>/stack.npy                      all cards as one (52|53, H, W, 4) array
    <root>/cards/<deck>/mip<k>.npy                     the same, halved k times (k = 1..3)
    <root>/textures/*.jpg                              table textures

The scene generator memory-maps ``stack.npy`` so a deck costs nothing to open.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from referee.cards import DECK, Card

from .index_box import Box

Image = NDArray[Any]
META_VERSION = 1


def cache_root() -> Path:
    env = os.environ.get("SHISANSHUI_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "shisanshui"


def cards_dir(root: Path | None = None) -> Path:
    return (root or cache_root()) / "cards"


def textures_dir(root: Path | None = None) -> Path:
    return (root or cache_root()) / "textures"


@dataclass(frozen=True)
class CardArt:
    """One rendered deck: BGRA images indexed by ``Card.index``, index boxes, optional back."""

    name: str
    family: str
    images: NDArray[Any]          # (52, H, W, 4) BGRA, index order of referee.cards.DECK
    boxes: NDArray[np.float64]         # (52, 4) top-left index box x0, y0, x1, y1 in card pixels
    back: Image | None
    mips: tuple[NDArray[Any], ...] = ()   # stacks halved 1, 2, ... times (cards, then back)
    four_indices: bool = False            # indices in all four corners (bonded, dondorf)

    def pyramid(self, index: int) -> list[Image]:
        """Card ``index`` (52 = the back) at full size, then halved once, twice, ..."""
        base = self.back if index == 52 else self.images[index]
        assert base is not None
        return [base, *(m[index] for m in self.mips)]

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of every card of the deck."""
        return int(self.images.shape[2]), int(self.images.shape[1])


def save_deck(folder: Path, name: str, family: str, tier: str, cards: dict[Card, Image],
              back: Image | None, boxes: dict[Card, Box], extra: dict[str, Any] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for card, img in cards.items():
        cv2.imwrite(str(folder / f"{card}.png"), img)
    if back is not None:
        cv2.imwrite(str(folder / "back.png"), back)
    stack = [cards[c] for c in DECK] + ([back] if back is not None else [])
    np.save(folder / "stack.npy", np.stack(stack))
    save_mips(folder, np.stack(stack))
    h, w = cards[DECK[0]].shape[:2]
    meta = {"version": META_VERSION, "deck": name, "family": family, "tier": tier, "width": w, "height": h,
            "has_back": back is not None, "index_boxes": {str(c): [round(v, 2) for v in boxes[c]] for c in DECK}}
    meta |= extra or {}
    (folder / "meta.json").write_text(json.dumps(meta, indent=1))


MIP_LEVELS = 3


def make_mips(stack: NDArray[Any]) -> list[NDArray[Any]]:
    levels = []
    cur = stack
    for _ in range(MIP_LEVELS):
        cur = np.stack([cv2.pyrDown(np.ascontiguousarray(img)) for img in cur])
        levels.append(cur)
    return levels


def save_mips(folder: Path, stack: NDArray[Any]) -> None:
    """Write mip1..3.npy atomically (workers may race to build them for an old cache)."""
    for k, level in enumerate(make_mips(stack), 1):
        tmp = folder / f"mip{k}.{os.getpid()}.tmp.npy"
        np.save(tmp, level)
        os.replace(tmp, folder / f"mip{k}.npy")


def read_meta(folder: Path) -> dict[str, Any] | None:
    path = folder / "meta.json"
    if not path.is_file() or not (folder / "stack.npy").is_file():
        return None
    meta: dict[str, Any] = json.loads(path.read_text())
    return meta if meta.get("version") == META_VERSION else None


def art_from_arrays(name: str, family: str, stack: NDArray[Any], boxes: NDArray[np.float64],
                    has_back: bool) -> CardArt:
    return CardArt(name=name, family=family, images=stack[:52], boxes=boxes,
                   back=stack[52] if has_back else None)


@lru_cache(maxsize=64)
def load_deck(folder: Path) -> CardArt:
    meta = read_meta(folder)
    if meta is None:
        raise FileNotFoundError(f"no rendered deck in {folder} (run: python -m datasets.setup_art)")
    stack = np.load(folder / "stack.npy", mmap_mode="r")
    if not all((folder / f"mip{k}.npy").is_file() for k in range(1, MIP_LEVELS + 1)):
        save_mips(folder, np.asarray(stack))     # caches made before the mips existed
    mips = tuple(np.load(folder / f"mip{k}.npy", mmap_mode="r") for k in range(1, MIP_LEVELS + 1))
    boxes = np.array([meta["index_boxes"][str(c)] for c in DECK], dtype=np.float64)
    art = art_from_arrays(meta["deck"], meta["family"], stack, boxes, bool(meta["has_back"]))
    return CardArt(name=art.name, family=art.family, images=art.images, boxes=art.boxes, back=art.back, mips=mips,
                   four_indices=bool(meta.get("four_indices", False)))


def available_decks(root: Path | None = None) -> dict[str, dict[str, Any]]:
    """Deck name -> meta of every complete deck in the cache."""
    base = cards_dir(root)
    out: dict[str, dict[str, Any]] = {}
    if not base.is_dir():
        return out
    for folder in sorted(base.iterdir()):
        meta = read_meta(folder)
        if meta is not None:
            out[str(meta["deck"])] = meta
    return out
