"""Card-art caches for the tests that must not depend on what a machine's cache holds.

``fill(root, tiers)`` writes an art cache under ``root`` (the layout of ``datasets.art_cache``)
holding every deck of those tiers, each drawn as the procedural test deck under the deck's own
name, family and tier: seconds instead of setup_art's minutes of rendering, and the same files
the generator reads. Three states a user's cache can be in:

- ``empty``: nothing rendered (a fresh clone);
- ``partial``: tiers A only (no B or C: a default setup_art run leaves those out too);
- ``full``: every tier (``--tiers A,A-dup,B,C``).

From the command line (CI): ``python tests/art_caches.py partial DIR``.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

CACHE_TIERS: dict[str, tuple[str, ...]] = {"empty": (), "partial": ("A",), "full": ("A", "A-dup", "B", "C")}


def fill(root: Path, tiers: tuple[str, ...]) -> Path:
    """An art cache at ``root`` with a stand-in for every deck of ``tiers``; returns ``root``."""
    from datasets.art_cache import cards_dir, save_deck
    from datasets.decks import DECKS
    from datasets.index_box import deck_index_boxes
    from datasets.testdeck import draw_card
    from referee.cards import DECK

    base = cards_dir(root)
    base.mkdir(parents=True, exist_ok=True)
    specs = [d for d in DECKS if d.tier in tiers]
    if not specs:
        return root
    template = root / "template"
    cards = {c: draw_card(c) for c in DECK}
    save_deck(template, "template", "procedural", "A", cards, None, deck_index_boxes(cards))
    for spec in specs:
        folder = base / spec.name
        shutil.copytree(template, folder, copy_function=os.link)  # hard links: one copy of the pixels
        (folder / "meta.json").unlink()  # (its own meta below)
        shutil.copy(template / "meta.json", folder / "meta.json")
        meta = json.loads((folder / "meta.json").read_text())
        meta.update(deck=spec.name, family=spec.family, tier=spec.tier)
        (folder / "meta.json").write_text(json.dumps(meta, indent=1))
    shutil.rmtree(template)
    return root


def make(state: str, root: Path) -> Path:
    """The cache ``state`` (a key of ``CACHE_TIERS``) at ``root``."""
    return fill(root, CACHE_TIERS[state])


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CACHE_TIERS:
        sys.exit(f"usage: python tests/art_caches.py {{{'|'.join(CACHE_TIERS)}}} DIR")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    print(make(sys.argv[1], Path(sys.argv[2])))
