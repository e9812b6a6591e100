"""More typefaces for the procedural font decks: Debian's font packages, unpacked into the art cache.

The font decks (``datasets.font_decks``) draw their ranks in the fonts the machine has installed, on this project's
machines DejaVu and URW base35: about nine typeface families. The readers misread the ranks of decks whose lettering
is none of those (a J read as a 3, a Q as a 9, a 6 as a 5), so decks made with ``debian_fonts`` draw their ranks from
these packages as well (about 35 more families, 340 files: sans, serif, slab, condensed, rounded, monospaced). The
packages are fetched with ``apt-get download`` and unpacked with ``dpkg-deb -x`` into ``<cache>/fonts``, never
installed: the machine's own font list, and with it every deck drawn without the option, stays as it was.

    python -m datasets.debian_fonts        # fetch and unpack them (about 45 MB; needs apt's package lists)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from .art_cache import cache_root

FONT_PACKAGES = (
    "fonts-liberation", "fonts-freefont-ttf", "fonts-linuxlibertine", "fonts-open-sans", "fonts-roboto-unhinted",
    "fonts-lato", "fonts-cantarell", "fonts-crosextra-carlito", "fonts-crosextra-caladea", "fonts-texgyre",
    "fonts-ebgaramond", "fonts-inconsolata", "fonts-firacode", "fonts-hack", "fonts-croscore", "fonts-sil-gentium",
    "fonts-sil-charis", "fonts-sil-andika", "fonts-oldstandard", "fonts-junicode", "fonts-comfortaa", "fonts-cabin",
    "fonts-go", "fonts-adf-accanthis", "fonts-adf-baskervald", "fonts-adf-berenis", "fonts-adf-gillius",
    "fonts-adf-romande", "fonts-adf-universalis", "fonts-adf-verana", "fonts-quicksand", "fonts-anonymous-pro",
    "fonts-mononoki", "fonts-league-spartan", "fonts-bebas-neue",
)


def fonts_dir(root: Path | None = None) -> Path:
    return (root or cache_root()) / "fonts"


def debian_font_files(root: Path | None = None) -> tuple[str, ...]:
    """The unpacked packages' TrueType and OpenType files, sorted (empty when they are not unpacked)."""
    from .font_decks import font_paths

    return tuple(font_paths((fonts_dir(root),)))


def unpack(root: Path | None = None, packages: tuple[str, ...] = FONT_PACKAGES) -> int:
    """Fetch ``packages`` with ``apt-get download`` and unpack them into ``fonts_dir``; the number of font files."""
    out = fonts_dir(root)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        got = subprocess.run(["apt-get", "download", *packages], cwd=tmp, capture_output=True, text=True)
        if got.returncode:
            raise SystemExit(f"apt-get download failed: {got.stderr.strip()[-500:]}")
        for deb in sorted(Path(tmp).glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(out)], check=True)
    return len(debian_font_files(root))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m datasets.debian_fonts", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=None, help="cache root (default $SHISANSHUI_CACHE or "
                                                             "~/.cache/shisanshui)")
    args = ap.parse_args(argv)
    n = unpack(args.cache)
    print(f"{n} font files in {fonts_dir(args.cache)}", file=sys.stderr)
    return 0 if n else 1


if __name__ == "__main__":
    raise SystemExit(main())
