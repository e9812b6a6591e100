"""Reading files a user names, with limits: size, nesting depth, number size.

Everything here turns a hostile or broken file into one :class:`InputError` that
names the file and the problem, before the file can hang the referee or fill its
memory: a file is refused over its size limit *before* it is read whole (``/dev/zero``
and ``/dev/urandom`` included), JSON and TOML are refused when nested deeper than
:data:`MAX_NESTING` (checked before parsing), and numbers are bounded.

>>> parse_json('{"a": 1, "a": 2}', "round file x.json")
Traceback (most recent call last):
referee.errors.InputError: round file x.json: key "a" appears twice
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from referee.errors import InputError

#: Largest round file ``referee score`` reads (a 4-player round is under 1 kB).
MAX_ROUND_BYTES = 1_000_000
#: Largest rules TOML (``--rules FILE``, ``referee rules FILE``, the app's house rules); a preset is ~3 kB.
MAX_RULES_BYTES = 200_000
#: Deepest nesting of arrays and tables a JSON or TOML file may have (a round needs 3, a ruleset 3).
MAX_NESTING = 32
#: Most digits an integer in a JSON or TOML file may have (every meaningful number has far fewer).
MAX_INT_DIGITS = 18

_JSON_NOISE = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)  # strings (an unclosed one runs to the end)
_TOML_NOISE = re.compile(r'"""(?:[^\\]|\\.)*?(?:"""|$)|\'\'\'.*?(?:\'\'\'|$)|"(?:[^"\\\n]|\\.)*"?'
                         r"|'[^'\n]*'?|#[^\n]*", re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_LONG_INT = re.compile(r"(?<![\w.-])\d{" + str(MAX_INT_DIGITS + 1) + ",}")


def one_line(text: str) -> str:
    """``text`` on one line (messages from libraries may span several)."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def read_capped(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refused over ``limit`` bytes without reading them all."""
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            with open(name, "rb") as handle:
                info = os.fstat(handle.fileno())
                if stat.S_ISDIR(info.st_mode):
                    raise InputError(f"{what} {name} is a folder, not a file")
                if stat.S_ISREG(info.st_mode) and info.st_size > limit:
                    raise InputError(f"{what} {name} is {info.st_size:,} bytes; the limit is {limit:,} bytes")
                data = handle.read(limit + 1)
        except FileNotFoundError:
            raise InputError(f"{what} not found: {name}") from None
        except IsADirectoryError:
            raise InputError(f"{what} {name} is a folder, not a file") from None
        except OSError as err:
            raise InputError(f"cannot read {what} {name}: {err.strerror or err}") from None
    if len(data) > limit:
        raise InputError(f"{what} {name} is larger than the limit of {limit:,} bytes")
    return data


def decode_utf8(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"{where}: not UTF-8 text (byte {err.start})") from None


def _check_nesting(text: str, noise: re.Pattern[str], where: str) -> None:
    depth = deepest = 0
    for bracket in _BRACKETS.finditer(noise.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            raise InputError(f"{where}: nested more than {MAX_NESTING} levels deep")


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"the integer {text[:12]}... has {len(text.lstrip('-'))} digits; "
                         f"the most is {MAX_INT_DIGITS}")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or len(text) > 64:
        raise InputError(f"the number {text[:12]}{'...' if len(text) > 12 else ''} is out of range")
    return value


def _json_constant(text: str) -> Any:
    raise InputError(f"{text} is not a JSON number")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(f"key {json.dumps(key, ensure_ascii=False)} appears twice")
        out[key] = value
    return out


def parse_json(text: str, where: str) -> Any:
    """JSON with a depth limit, bounded numbers, no NaN/Infinity and no repeated keys."""
    _check_nesting(text, _JSON_NOISE, where)
    try:
        return json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int, parse_float=_json_float,
                          parse_constant=_json_constant)
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{where} is not valid JSON: {err}") from None
    except (RecursionError, ValueError) as err:  # a backstop: the checks above should come first
        raise InputError(f"{where} is not valid JSON: {one_line(str(err))[:200]}") from None


def _toml_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {text} is not finite")
    return value


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML with a depth limit and bounded numbers."""
    _check_nesting(text, _TOML_NOISE, where)
    long_int = _LONG_INT.search(_TOML_NOISE.sub(lambda m: " " * len(m.group()), text))
    if long_int is not None:
        raise InputError(f"{where}: a number of {len(long_int.group())} digits (the most is {MAX_INT_DIGITS})")
    try:
        return tomllib.loads(text, parse_float=_toml_float)
    except InputError as err:
        raise InputError(f"{where}: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise InputError(f"{where}: not valid TOML ({err})") from None
    except (RecursionError, ValueError) as err:  # a backstop: the checks above should come first
        raise InputError(f"{where}: not valid TOML ({one_line(str(err))[:200]})") from None


def read_rules_toml(path: Path) -> dict[str, Any]:
    """A rules file's TOML (``--rules FILE``, ``referee rules FILE``), read within the limits."""
    where = f"rules file {path}"
    return parse_toml(decode_utf8(read_capped(path, MAX_RULES_BYTES, "rules file"), where), where)
