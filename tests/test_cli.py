"""The command line: exact JSON keys, readable output, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rounds import ANN, BANK, BOB, CAT, PAT, player, round_of

from referee.cli import main

GOOD = "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write_round(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_check_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", GOOD, "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    # the keys as before, then the Chinese names beside them (issue 21)
    assert list(data) == ["foul", "foul_reason", "special", "missed_special", "rows", "special_zh",
                          "missed_special_zh"]
    assert data["rows"][2] == {"row": "tail", "cards": ["Js", "Jh", "Jd", "4c", "4d"], "category": "full_house",
                               "row_zh": "尾道", "category_zh": "葫芦"}


def test_check_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c"], capsys)
    assert code == 0
    assert "foul: YES - head (pair AA) beats middle (pair KK)" in out


def test_score_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", write_round(tmp_path, round_of(ANN, BOB, CAT)), "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "classic" and data["total"] == 0
    assert [p["score"] for p in data["players"]] == [34, -15, -19]
    assert set(data["players"][0]) >= {"name", "score", "foul", "special", "rows"}
    assert set(data["pairs"][0]) >= {"a", "b", "rows", "scoop", "home_run", "special", "points"}


def test_score_readable_and_banker_preset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", write_round(tmp_path, round_of(BANK, PAT, banker="Bank")), "--rules", "fuzhou"],
                       capsys)
    assert code == 0
    assert "Pat" in out and "+4" in out and "total: 0" in out


def test_rules_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules"], capsys)
    assert code == 0 and out.split()[0] == "classic" and "shisandao" in out
    code, out, _ = run(["rules", "fuzhou"], capsys)
    assert code == 0 and 'mode = "banker"' in out


DUP = player("Dup", "Qs 2h 2c | 4d 4c 5h 5d 6h | 6d 7s 7h 8s 8h")  # Qs is also Ann's


@pytest.mark.parametrize(
    ("args_or_round", "message"),
    [
        (["check", "2c 3d 5x | 6s 6h 8c 9d Tc | Js Jh Jd 4c 4d"], "unknown card '5x'"),
        (["check", "2c 3d 5h 6s | 6h 8c 9d Tc | Js Jh Jd 4c 4d"], "head row must have 3 cards, got 4"),
        (["check", "2c 3d 5h | 6s 6h 8c 9d Tc | Js Jh Jd 4c 2c"], "duplicate card 2c"),
        (["check", GOOD, "--rules", "clasic"], "unknown ruleset 'clasic' (did you mean 'classic'?)"),
        (["frobnicate"], "invalid choice"),
        (round_of(ANN, DUP), "duplicate card Qs: held by Ann and Dup"),
        (round_of(ANN), "a round has 2 to 4 players, got 1"),
        (round_of(ANN, BOB, CAT, player("D1", "2h 3h 4h | 5h 6h 7h 8h 9h | Ts Js Ks As Kc"),
                  player("E1", "2d 3d 4d | 5d 6d 7d 8d 9d | Tc Jc Kc Ac Ad")), "got 5"),
        ({"players": [ANN, {**BOB, "middle": "Jh Jd 7c"}]}, "player Bob: middle row must have 5 cards, got 3"),
        ({"players": [ANN, {**BOB, "head": "Ah Kc 3q"}]}, "player Bob, head row: unknown card '3q'"),
        ({"players": [ANN, {"name": "Bob"}]}, "player Bob: missing head row"),
        ("{not json", "is not valid JSON"),
        ({"players": [ANN, BOB], "banker": "Zed"}, "banker 'Zed' is not one of the players"),
    ],
)
def test_bad_input_one_line_exit_2(args_or_round: Any, message: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = args_or_round if isinstance(args_or_round, list) else ["score", write_round(tmp_path, args_or_round)]
    code, out, err = run(args, capsys)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_banker_missing_in_banker_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", write_round(tmp_path, round_of(ANN, BOB)), "--rules", "fuzhou"], capsys)
    assert code == 2 and "name one with \"banker\"" in err


def test_missing_round_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "/nonexistent/round.json"], capsys)
    assert code == 2 and "round file not found" in err


def test_python_dash_m_and_console_script_agree(tmp_path: Path) -> None:
    path = write_round(tmp_path, round_of(ANN, BOB, CAT))
    via_module = subprocess.run([sys.executable, "-m", "referee", "score", path, "--json"], capture_output=True,
                                text=True, check=True)
    script = Path(sys.executable).with_name("referee")
    via_script = subprocess.run([str(script), "score", path, "--json"], capture_output=True, text=True, check=True)
    assert via_module.stdout == via_script.stdout
    bad = subprocess.run([sys.executable, "-m", "referee", "check", "Zz"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
