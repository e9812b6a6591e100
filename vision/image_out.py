"""Where an annotated photo may be written: a name whose extension says the format.

>>> annotated_path("out.png")
'out.png'
>>> annotated_path("out.xyz")
Traceback (most recent call last):
argparse.ArgumentTypeError: 'out.xyz' must end in .jpg, .jpeg, .png or .webp (the format of the annotated photo)
"""

from __future__ import annotations

import argparse
from pathlib import Path

ANNOTATED_FORMATS = (".jpg", ".jpeg", ".png", ".webp")


def annotated_path(text: str) -> str:
    """An argparse ``type`` for ``--annotate OUT``: refused before any work when the format is unknown."""
    if Path(text).suffix.lower() not in ANNOTATED_FORMATS:
        formats = ", ".join(ANNOTATED_FORMATS[:-1]) + f" or {ANNOTATED_FORMATS[-1]}"
        raise argparse.ArgumentTypeError(f"{text!r} must end in {formats} (the format of the annotated photo)")
    return text
