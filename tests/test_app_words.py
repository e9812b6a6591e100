"""The app's words: the whole page in the chosen language, counts and numbers written one way,
foul reasons in plain words, and the solver's advice naming what it recommends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.words import count, foul_reason
from referee.cards import parse_arrangement
from referee.hand import analyse
from referee.ruleset import load_ruleset
from referee.storage import DB_ENV

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "app.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    yield at


def headings(app: AppTest) -> list[str]:
    return [str(e.value) for kind in ("title", "subheader", "header") for e in getattr(app, kind)]


def fouled(text: str) -> dict[str, object]:
    report = analyse(parse_arrangement(text), load_ruleset("classic"))
    return {"foul_reason": report.foul_reason,
            "rows": [{"row": r.row, "cards": [str(c) for c in r.cards]} for r in report.rows]}


def test_counts_and_numbers_one_way() -> None:
    assert [count(n, "card", "en") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert count(20678, "way", "en") == "20,678 ways"
    assert count(1, "round", "both") == "1 局 1 round"


def test_foul_reasons_name_the_rows_and_the_deciding_cards() -> None:
    player = fouled("Ah Ad As | Kh Qd 7c 2s Ac | 9s 9h 9d 9c 8c")
    assert foul_reason(player, "en") == "head AAA beats middle A-K-Q-7-2: the head may not beat the middle"
    assert foul_reason(player, "zh") == "头道 AAA 大于中道 A-K-Q-7-2：头道不能大于中道"
    tail = fouled("2c 3d 5h | Kh Kd Ks 4s 5s | 9s 9h 8d 7c 6c")
    assert foul_reason(tail, "en") == "middle KKK-5-4 beats tail 99-8-7-6: the middle may not beat the tail"
    assert "three_of_a_kind" not in foul_reason(tail, "both") and "中道" in foul_reason(tail, "both")


def test_chinese_only_pages_have_no_english_headings(app: AppTest) -> None:
    app.sidebar.radio[0].set_value("中文").run()
    assert not app.exception
    assert "计分" in headings(app) and "牌桌" in headings(app)
    assert app.sidebar.header[0].value == "设置"
    for page in ("app_pages/check.py", "app_pages/history.py"):
        app.switch_page(page).run()
        assert not app.exception
        for text in headings(app):
            assert not any(word in text for word in ("Score", "Check", "History", "Solver", "Settlement",
                                                     "table", "Totals")), text
    app.switch_page("app_pages/check.py").run()
    assert "查牌" in headings(app) and "求解器" in headings(app)
    app.text_input(key="check_text").input("Ah Ad 2c | Kh Kd 3c 4s 5s | 9s 9h 9d 7c 8c").run()
    assert any("头道（一对 AA）大于中道（一对 KK）" in str(e.value) for e in app.error)


def test_the_solver_names_its_recommendation_and_each_value(app: AppTest) -> None:
    app.switch_page("app_pages/check.py").run()
    app.sidebar.radio[0].set_value("English").run()
    app.text_input(key="check_text").input("As Ks Qs Js Ts 9h 9d 9c 4h 4d 2c 3c 7d").run()
    assert not app.exception
    marks = [str(m.value) for m in app.markdown if "value " in str(m.value) and " of 3" in str(m.value)]
    assert marks and marks[0].startswith("**Recommended**") and all("value " in m for m in marks)
    values = [float(m.split("value ")[1].split(" of 3")[0]) for m in marks]
    assert values == sorted(values, reverse=True)
    assert any(" of 72,072 ways" in str(c.value) for c in app.caption)  # numbers written one way
