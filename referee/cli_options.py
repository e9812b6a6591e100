"""Option types for the command line that refuse meaningless values (one line, exit status 2).

>>> int_in(0, 9)("12")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be an integer from 0 to 9, not 12
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: Most Monte Carlo deals ``referee solve --samples`` plays (the default is 200).
MAX_SAMPLES = 20_000
#: Most arrangements ``referee solve --candidates`` compares (the default is 24).
MAX_CANDIDATES = 500
#: Most arrangements ``referee solve --top`` lists.
MAX_TOP = 1_000
MAX_SEED = 2**63 - 1


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None:
            raise argparse.ArgumentTypeError(f"must be an integer from {low} to {high:,}, not {text[:40]!r}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be an integer from {low} to {high:,}, not {value}")
        return value

    parse.__name__ = "integer"
    return parse


def fraction(text: str) -> float:
    """An argparse ``type``: a finite number from 0 to 1 (a confidence)."""
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1, not {text[:40]!r}")
    return value
