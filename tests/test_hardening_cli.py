"""Bad input on the command line: one line on stderr naming the problem, exit 2, quickly, whatever the input.

The fuzz tests feed mutated card strings, round JSON and rules TOML to ``referee.cli.main``
in-process, with a strict UTF-8 stdout like a terminal's, and hold the CLI to its promise:
exit status 0 or 2, never an exception, exactly one line on stderr on error.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.ruleset import ruleset_text
from referee.safe_input import MAX_NESTING, MAX_ROUND_BYTES, MAX_RULES_BYTES

ROUND = {"players": [
    {"name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"},
    {"name": "Bob", "head": "Ah Kc 3d", "middle": "Jh Jd 7c 8c 4h", "tail": "Th Td Tc 2d 3h"},
]}
ARRANGEMENT = "Ah Kd 2c | 3c 4c 5c 6c 8d | 9h Th Jh Qh Kh"
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """``main(argv)`` with a strict UTF-8 stdout (a lone surrogate fails there, as on a terminal)."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace")
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    out.flush()
    err.flush()
    return code, out_bytes.getvalue().decode(), err_bytes.getvalue().decode()


def assert_clean(code: int, err: str) -> None:
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.startswith("referee: error: ") and err.count("\n") == 1 and err.endswith("\n"), err
    else:
        assert err == ""


@contextmanager
def written(data: str | bytes, name: str = "input") -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
        yield str(path)


def bad(argv: Sequence[str], says: str) -> None:
    start = time.monotonic()
    code, _, err = run_cli(argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("referee: error: "), (code, err)
    assert says in err, err
    assert time.monotonic() - start < 5


# ------------------------------------------------------------------ fuzz

_NOISE = st.sampled_from([*"AKQJT98765432shdcSHDC|, ♠♥♦♣♤♡♢♧ſK１0\x00\ud800é\n\t[]{}\"'=#.-_",
                          "10", "  ", "[" * 3000, '{"a": ' * 1500, "9" * 5000, "\\ud800", "\\u0000"])
_NAMES = st.sampled_from(["\ud800", "A\x00B", "\udfff\ud800", "Ann", "", " "]) | st.text(max_size=8)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    chars = list(text)
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(chars)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        if kind == "insert":
            chars.insert(at, draw(_NOISE))
        elif kind == "delete" and chars:
            del chars[min(at, len(chars) - 1)]
        elif kind == "replace" and chars:
            chars[min(at, len(chars) - 1)] = draw(_NOISE)
        elif kind == "cut":
            chars = chars[:at]
    return "".join(chars)


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)


@st.composite
def round_files(draw: st.DrawFn) -> str:
    data = json.loads(json.dumps(ROUND))
    if draw(st.booleans()):  # a structural change: a value replaced by any JSON
        player = data["players"][draw(st.integers(0, 1))]
        key = draw(st.sampled_from(["name", "head", "middle", "tail", "extra"]))
        player[key] = draw(_NAMES if key == "name" and draw(st.booleans()) else _JSON_VALUES)
    if draw(st.booleans()):  # players' choices: adjustments and negotiated results, sizes of any kind
        points = st.integers(-(10**19), 10**19) | st.floats(allow_nan=False) | _JSON_VALUES
        data["adjustments"] = [{"from": "Ann", "to": "Bob", "points": draw(points), "note": "side bet"}
                               for _ in range(draw(st.integers(0, 30)))]
        if draw(st.booleans()):
            data["negotiated"] = {"Bob": draw(points)}
            data["banker"] = "Ann"
    return draw(mutated(json.dumps(data, ensure_ascii=draw(st.booleans()))))


@st.composite
def rules_files(draw: st.DrawFn) -> str:
    lines = ruleset_text("classic").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        if "=" in lines[i] and draw(st.booleans()):  # a value replaced
            key = lines[i].split("=")[0]
            value = draw(st.sampled_from(["-1", "0", "10**20", "1e400", "nan", "true", '"x"', "[1, [2]]", "{}",
                                          str(10**25), "9" * 40, "9" * 5000, "[" * 3000 + "]" * 3000,
                                          "-99999999999999999999", "3", "1000", "1001"]))
            lines[i] = f"{key}= {value}"
        else:
            lines[i] = draw(mutated(lines[i]))
    return "\n".join(lines)


@FUZZ
@given(text=mutated(ARRANGEMENT))
def test_fuzz_check_card_strings(text: str) -> None:
    code, _, err = run_cli(["check", text])
    assert_clean(code, err)


@FUZZ
@given(text=round_files())
def test_fuzz_score_round_json(text: str) -> None:
    with written(text, "round.json") as path:
        code, _, err = run_cli(["score", path, "--json"])
        assert_clean(code, err)
        code, _, err = run_cli(["score", path, "--rules", "shisandao"])
        assert_clean(code, err)


@FUZZ
@given(text=rules_files())
def test_fuzz_rules_toml(text: str) -> None:
    with written(text, "house.toml") as rules, written(json.dumps(ROUND), "round.json") as round_path:
        code, _, err = run_cli(["rules", rules])
        assert_clean(code, err)
        code, _, err = run_cli(["score", round_path, "--rules", rules])
        assert_clean(code, err)


# ------------------------------------------------------------------ unbounded reads


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_devices_are_refused_quickly(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    bad(["score", device], f"is larger than the limit of {MAX_ROUND_BYTES:,} bytes")
    bad(["rules", device], f"is larger than the limit of {MAX_RULES_BYTES:,} bytes")
    bad(["score", "-", "--rules", device], "rules file")


def test_a_5_gb_sparse_file_is_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(5 * 10**9)  # sparse: no disk used
    bad(["score", str(huge)], "is 5,000,000,000 bytes; the limit is 1,000,000 bytes")
    toml = tmp_path / "huge.toml"
    toml.write_bytes(b"")
    with toml.open("r+b") as handle:
        handle.truncate(5 * 10**9)
    bad(["rules", str(toml)], "the limit is 200,000 bytes")
    bad(["check", ARRANGEMENT, "--rules", str(toml)], "the limit is 200,000 bytes")


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text(ruleset_text("classic"))
    rules.chmod(0)
    bad(["rules", str(rules)], "cannot read rules file")


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no UNIX sockets")
def test_a_rules_file_that_cannot_be_opened(tmp_path: Path) -> None:
    # A socket is there but cannot be opened as a file (this holds for root too, unlike chmod 0).
    path = tmp_path / "house.toml"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        bad(["rules", str(path)], f"cannot read rules file {path}")
        bad(["score", str(path)], f"cannot read round file {path}")


def test_a_folder_as_rules_or_round(tmp_path: Path) -> None:
    bad(["rules", str(tmp_path)], "is a folder")
    bad(["score", str(tmp_path)], "is a folder")


# ------------------------------------------------------------------ parsing limits


def test_deep_json_and_toml_are_refused() -> None:
    with written("[" * 100_000 + "]" * 100_000) as path:
        bad(["score", path], f"nested more than {MAX_NESTING} levels deep")
    with written('{"players": ' + '{"a": ' * 1000 + "1" + "}" * 1001) as path:
        bad(["score", path], "nested more than")
    with written("a = " + "[" * 5000 + "]" * 5000) as path:
        bad(["rules", path], "nested more than")
    with written("a = " + "{b = " * 2000 + "1" + "}" * 2000) as path:
        bad(["rules", path], "nested more than")
    # Brackets inside strings and comments are not nesting.
    text = ruleset_text("classic").replace('source = "seed 000 (and 002)"', 'source = "' + "[" * 100 + '"')
    with written(text + "\n# " + "{" * 100 + "\n") as path:
        code, out, err = run_cli(["rules", path])
    assert code == 0 and "(valid)" in out, err


def test_huge_numbers_are_refused() -> None:
    with written('{"players": [' + "7" * 5000 + "]}") as path:
        bad(["score", path], "has 5000 digits; the most is 18")
    with written('{"players": [1e999]}') as path:
        bad(["score", path], "out of range")
    with written('{"players": [NaN]}') as path:
        bad(["score", path], "NaN is not a JSON number")
    text = ruleset_text("classic").replace("multiplier = 1 ", "multiplier = " + "9" * 5000 + " ")
    with written(text) as path:
        bad(["rules", path], "a number of 5000 digits")
    text = ruleset_text("classic").replace("multiplier = 1 ", "multiplier = 100000000000000000000 ")
    with written(text) as path:
        bad(["rules", path], "a number of 21 digits")


def test_duplicate_json_keys_are_refused() -> None:
    text = json.dumps(ROUND)[:-1] + ', "players": []}'
    with written(text) as path:
        bad(["score", path], 'key "players" appears twice')


def test_lone_surrogate_and_nul_in_a_name() -> None:
    for name in ("\\ud800", "A\\u0000B", "tab\\there"):
        text = json.dumps(ROUND).replace('"Ann"', f'"{name}"')
        with written(text) as path:
            bad(["score", path], "which a name cannot have")


def test_long_s_and_other_lookalikes_are_not_suits() -> None:
    for token in ("Aſ", "Kѕ", "Qｓ", "Jℎ", "K\u0441"):  # long s, Cyrillic dze, full-width s, Planck h, Cyrillic es
        bad(["check", ARRANGEMENT.replace("Ah", token)], "unknown card")
    code, _, err = run_cli(["check", ARRANGEMENT.replace("Ah", "A♠").replace("Kd", "k♢")])
    assert code == 0, err


# ------------------------------------------------------------------ options


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--seed", "-1", "--seed: must be an integer from 0"),
    ("--samples", "1000000000000", "--samples: must be an integer from 1 to 20,000"),
    ("--samples", "0", "--samples: must be an integer from 1"),
    ("--candidates", "99999999", "--candidates: must be an integer from 1 to 500"),
    ("--top", "0", "--top: must be an integer from 1"),
    ("--players", "9", "--players: must be an integer from 2 to 4"),
    ("--seed", "x" * 5000, "--seed: must be an integer"),
])
def test_solve_options_are_bounded(option: str, value: str, says: str) -> None:
    bad(["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--objective", "expected", option, value], says)


@pytest.mark.parametrize("value", ["nan", "-1", "2", "inf", "-inf", "1.0000001", "half"])
def test_photo_min_confidence_is_a_number_from_0_to_1(value: str) -> None:
    bad(["photo", "missing.jpg", f"--min-confidence={value}"], "--min-confidence: must be a number from 0 to 1")


@pytest.mark.parametrize("command", ["photo", "detect"])
@pytest.mark.parametrize("out", ["out.xyz", "out", "out.", "folder/out.gif"])
def test_annotate_needs_a_known_extension(command: str, out: str) -> None:
    # Refused while reading the options: before the photo is read or the detector loaded.
    bad([command, "missing.jpg", "--annotate", out], "must end in .jpg, .jpeg, .png or .webp")


def test_message_from_a_library_spanning_lines_is_one_line() -> None:
    from referee.safe_input import one_line

    assert one_line("Invalid input: end of file\n  at 417\n") == "Invalid input: end of file at 417"


def test_a_huge_card_token_gives_a_short_line() -> None:
    code, _, err = run_cli(["check", "A" * 1_000_000])
    assert code == 2 and err.count("\n") == 1 and len(err) < 200 and "unknown card 'AAAA" in err


def test_adjustments_and_negotiated_results_are_bounded() -> None:
    big = {**ROUND, "adjustments": [{"from": "Ann", "to": "Bob", "points": 10**15, "note": ""}]}
    with written(json.dumps(big)) as path:
        bad(["score", path], "adjustments[0].points must be at most 100,000")
    many = {**ROUND, "adjustments": [{"from": "Ann", "to": "Bob", "points": 1, "note": ""}] * 25}
    with written(json.dumps(many)) as path:
        bad(["score", path], "a round has at most 24 adjustments")
    deal = {**ROUND, "banker": "Ann", "negotiated": {"Bob": -(10**12)}}
    with written(json.dumps(deal)) as path:
        bad(["score", path, "--rules", "shisandao"], "negotiated.Bob must be from -100,000 to 100,000")
