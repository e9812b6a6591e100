"""Install the card-art packages and render every deck into the cache.

    python -m datasets.setup_art                 # tier A and A-dup decks
    python -m datasets.setup_art --tiers A,A-dup,B,C
    python -m datasets.setup_art --no-install    # render only (packages already there)

Debian packages come from apt-get (run as root), npm packages are installed
into ``<cache>/npm``. Each deck is rendered once with ``rsvg-convert``; see
``art_cache`` for the layout.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

from referee.cards import DECK, Card

from .art_cache import available_decks, cache_root, cards_dir, read_meta, save_deck, textures_dir
from .art_render import Image, cut_sheet, normalise_sizes, render_svg, trim
from .decks import DECKS, DEFAULT_TIERS, DeckSpec, deck_by_name, decks_for_split, families_by_split
from .index_box import deck_index_boxes, has_four_indices
from .textures import export_textures

APT_PACKAGES = ("librsvg2-bin", "gnome-cards-data", "aisleriot", "openclipart-svg", "kdegames-card-data-kf5",
                "pokerth-data", "gimp-data", "gimp-data-extras", "gnome-backgrounds", "mate-backgrounds")
NPM_PACKAGES = ("@heruka_urgyen/react-playing-cards@0.5.0", "cardsJS@1.1.1")
CARD_WIDTH = 400


def _missing_apt(packages: tuple[str, ...]) -> list[str]:
    missing = []
    for pkg in packages:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True, text=True)
        if "install ok installed" not in status.stdout:
            missing.append(pkg)
    return missing


def install_packages(root: Path) -> None:
    missing = _missing_apt(APT_PACKAGES)
    if shutil.which("npm") is None:
        missing.append("npm")
    if missing:
        print(f"apt-get install {' '.join(missing)}", file=sys.stderr)
        env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        subprocess.run(["apt-get", "update", "-q"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True, env=env)
    npm_dir = root / "npm"
    if not all((npm_dir / "node_modules" / p.rsplit("@", 1)[0]).is_dir() for p in NPM_PACKAGES):
        if shutil.which("npm") is None:
            raise SystemExit("npm is needed for the Kennard and Aguilar decks (apt-get install npm)")
        npm_dir.mkdir(parents=True, exist_ok=True)
        if not (npm_dir / "package.json").exists():
            (npm_dir / "package.json").write_text('{"name": "shisanshui-card-art", "private": true}\n')
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(npm_dir), *NPM_PACKAGES],
                       check=True)


def _resolve(path: str, root: Path) -> Path:
    return root / "npm" / "node_modules" / path[4:] if path.startswith("npm:") else Path(path)


def _file_for(spec: DeckSpec, card: Card, root: Path) -> Path:
    rank = spec.rank_names[card.rank - 2]
    suit = spec.suit_names["shdc".index(card.suit.value)]
    return _resolve(spec.path.format(rank=rank, suit=suit), root)


def render_deck(spec: DeckSpec, root: Path, width: int) -> tuple[dict[Card, Image], Image | None]:
    """Render one deck to trimmed, equally sized BGRA cards (+ back when the deck has one)."""
    w = min(width, spec.max_width or width)
    if spec.kind == "sheet":
        from .art_render import SHEET_COLS
        cards, back = cut_sheet(render_svg(spec.path, w * SHEET_COLS))
        return normalise_sizes(cards, back)
    if spec.kind == "files":
        cards = {card: trim(render_svg(_file_for(spec, card, root), w)) for card in DECK}
        file_back = trim(render_svg(_resolve(spec.back, root), w)) if spec.back else None
        return normalise_sizes(cards, file_back)
    from .kde_svg import ElementRenderer, read_svg
    renderer = ElementRenderer(read_svg(spec.path))

    def element(card: Card) -> str:
        return f"{spec.rank_names[card.rank - 2]}_{spec.suit_names['shdc'.index(card.suit.value)]}"

    cards = {card: trim(renderer.render(element(card), w)) for card in DECK}
    kde_back = trim(renderer.render("back", w))
    return normalise_sizes(cards, kde_back)


def deck_source_exists(spec: DeckSpec, root: Path) -> bool:
    if spec.kind == "files":
        return _file_for(spec, DECK[0], root).is_file()
    return Path(spec.path).is_file()


def reindex(root: Path) -> int:
    """Recompute the index boxes of every cached deck (after changing index_box)."""
    import json

    import numpy as np

    for folder in sorted(cards_dir(root).iterdir()):
        meta = read_meta(folder)
        if meta is None:
            continue
        stack = np.load(folder / "stack.npy")
        try:
            thin = deck_by_name(str(meta["deck"])).index_thin_px
        except KeyError:
            thin = 0
        cards = {card: stack[card.index] for card in DECK}
        boxes = deck_index_boxes(cards, thin=thin)
        meta["index_boxes"] = {str(c): [round(v, 2) for v in boxes[c]] for c in DECK}
        meta["four_indices"] = has_four_indices(cards, boxes, thin)
        (folder / "meta.json").write_text(json.dumps(meta, indent=1))
    return 0


def setup(root: Path, tiers: tuple[str, ...], width: int, force: bool, only: set[str] | None) -> int:
    out = cards_dir(root)
    done = failed = 0
    for spec in DECKS:
        if spec.tier not in tiers or (only and spec.name not in only):
            continue
        folder = out / spec.name
        if not force and read_meta(folder) is not None:
            done += 1
            continue
        if not deck_source_exists(spec, root):
            print(f"  skip {spec.name}: source not installed", file=sys.stderr)
            failed += 1
            continue
        start = time.perf_counter()
        try:
            cards, back = render_deck(spec, root, width)
            boxes = deck_index_boxes(cards, thin=spec.index_thin_px)
        except (subprocess.CalledProcessError, RuntimeError, ValueError) as err:
            print(f"  FAILED {spec.name}: {err}", file=sys.stderr)
            failed += 1
            continue
        save_deck(folder, spec.name, spec.family, spec.tier, cards, back, boxes,
                  {"four_indices": has_four_indices(cards, boxes, spec.index_thin_px)})
        size = cards[DECK[0]].shape
        print(f"  {spec.name:34s} {size[1]}x{size[0]} {time.perf_counter() - start:5.1f}s", file=sys.stderr)
        done += 1
    n_tex = export_textures(textures_dir(root))
    print(f"{done} decks ready in {out} ({failed} failed or missing); {n_tex} textures", file=sys.stderr)
    ready = set(available_decks(root))
    for split, fams in families_by_split(tiers).items():
        have = sorted({d.family for d in decks_for_split(split, tiers) if d.name in ready})
        missing = sorted(set(fams) - set(have))
        print(f"  {split:5s}: {', '.join(have)}" + (f"  (not rendered: {', '.join(missing)})" if missing else ""),
              file=sys.stderr)
    return 0 if done else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.setup_art", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=None,
                    help="cache root (default $SHISANSHUI_CACHE or ~/.cache/shisanshui)")
    ap.add_argument("--tiers", default=",".join(DEFAULT_TIERS), help="deck tiers to render (default A,A-dup)")
    ap.add_argument("--width", type=int, default=CARD_WIDTH, help="card width in pixels (default 400)")
    ap.add_argument("--deck", action="append", help="render only this deck (repeatable)")
    ap.add_argument("--force", action="store_true", help="re-render decks already in the cache")
    ap.add_argument("--no-install", action="store_true", help="do not run apt-get / npm")
    ap.add_argument("--reindex", action="store_true", help="only recompute the index boxes of cached decks")
    args = ap.parse_args(argv)
    root = args.cache or cache_root()
    if args.reindex:
        return reindex(root)
    if not args.no_install:
        install_packages(root)
    tiers = tuple(t.strip() for t in args.tiers.split(",") if t.strip())
    return setup(root, tiers, args.width, args.force, set(args.deck) if args.deck else None)


if __name__ == "__main__":
    raise SystemExit(main())
