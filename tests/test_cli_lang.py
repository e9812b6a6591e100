"""``--lang zh|en|both``: the readable output of check, score and solve against committed golden
files (tests/golden/), the Chinese names the JSON gains, and the wording rules of issue 21.

To accept a deliberate change of wording: ``REFEREE_UPDATE_GOLDEN=1 pytest tests/test_cli_lang.py``,
then read the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from rounds import ANN, BANK, BOB, CAT, PAT, QUINN, REX, player, round_of

from referee.cli import main

GOLDEN = Path(__file__).parent / "golden"
SIX = player("Six", "Kc Kd 2c | 5s 6s 7s 8s 9s | 5h 6h 7h 8h 9h")  # six pairs laid as two straight flushes
BEA = player("Bea", "Ah Qd 3s | Ts Td 4c 4d Jc | As Ac Ad Jh Js")
CAL = player("Cal", "Qs Jd 4s | Tc Th 2d 3d 6c | Kh Ks 7c 7d 8c")
FOUL = "Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c"

ROUNDS: dict[str, dict[str, Any]] = {
    "declined": round_of({**SIX, "special": False}, BEA, CAL)
    | {"adjustments": [{"from": "Cal", "to": "Bea", "points": 2, "note": "side bet"}]},
    "banker": round_of(BANK, PAT, REX, QUINN, banker="Bank"),
    "negotiated": round_of(BANK, PAT, REX, banker="Bank") | {"negotiated": {"Pat": 5}},
}


def output(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def score_args(tmp_path: Path, which: str, *more: str) -> list[str]:
    path = tmp_path / f"{which}.json"
    path.write_text(json.dumps(ROUNDS[which]), encoding="utf-8")
    return ["score", str(path), *more]


def golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("REFEREE_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("which", "rules"), [("declined", "classic"), ("banker", "fuzhou"),
                                              ("negotiated", "shisandao")])
def test_score_golden(which: str, rules: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    golden(f"score-{which}-{rules}-{lang}", output(score_args(tmp_path, which, "--rules", rules, "--lang", lang),
                                                   capsys))


@pytest.mark.parametrize("lang", ["en", "zh", "both"])
def test_check_foul_golden(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    golden(f"check-foul-{lang}", output(["check", FOUL, "--lang", lang], capsys))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_solve_golden(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    golden(f"solve-{lang}", output(["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--top", "3",
                                    "--lang", lang], capsys))


def test_default_is_both_languages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = output(score_args(tmp_path, "declined"), capsys)
    assert "三道 rows +1/+10/+5" in text and "打枪 scoop by Six +2" in text


def test_wording_rows_and_no_zero_bonuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.json"
    # Ann scoops Bob with two players: the scoop earns no bonus, so it shows without "+0".
    path.write_text(json.dumps(round_of(ANN, BOB)), encoding="utf-8")
    text = output(["score", str(path), "--lang", "en"], capsys)
    assert "Ann v Bob: +28  rows +3/+8/+5, scoop by Ann, home run by Ann +12" in text
    assert "rows: rows" not in text and "+0" not in text


def test_fuzhou_calls_a_banker_sweep_by_its_own_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = output(score_args(tmp_path, "banker", "--rules", "fuzhou", "--lang", "zh"), capsys)
    assert "Bank v Rex: +8  三道 +1/+2/+2, Bank 全垒打 +3" in text
    data = json.loads(output(score_args(tmp_path, "banker", "--rules", "fuzhou", "--json"), capsys))
    rex = next(p for p in data["pairs"] if p["b"] == "Rex")
    assert rex["scoop"] == "Bank" and rex["scoop_zh"] == "全垒打"


def test_json_keeps_keys_and_adds_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(output(score_args(tmp_path, "declined", "--json"), capsys))
    six = data["players"][0]
    assert six["declined_special"] == "six_pairs" and six["declined_special_zh"] == "六对半"
    assert six["rows"][1] | {} == {"row": "middle", "cards": ["5s", "6s", "7s", "8s", "9s"],
                                   "category": "straight_flush", "row_zh": "中道", "category_zh": "同花顺"}
    assert data["adjustments"] == [{"from": "Cal", "to": "Bea", "points": 2, "note": "side bet"}]
    path = tmp_path / "foul.json"
    path.write_text(json.dumps(round_of(ANN, BOB, CAT)), encoding="utf-8")
    cat = json.loads(output(["score", str(path), "--json"], capsys))["players"][2]
    assert cat["foul_reason"].startswith("head (pair AA) beats middle (pair KK): A-A-5 against K-K-8-7-6")
    assert cat["foul_reason_zh"].startswith("头道（一对 AA）大于中道（一对 KK）")


def test_banker_option_and_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(round_of(BANK, PAT)), encoding="utf-8")
    assert main(["score", str(path), "--rules", "fuzhou"]) == 2
    assert "--banker NAME" in capsys.readouterr().err
    text = output(["score", str(path), "--rules", "fuzhou", "--banker", "Bank"], capsys)
    assert [line.split()[:2] for line in text.splitlines() if line.startswith("Pat")] == [["Pat", "+4"]]


def test_solve_json_marks_the_recommendation(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(output(["solve", "As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d", "--top", "3", "--json"], capsys))
    values = [b["value"] for b in data["best"]]
    assert data["recommended"] == values.index(max(values))
    assert data["best"][0]["categories_zh"] == ["散牌", "葫芦", "同花顺"]
