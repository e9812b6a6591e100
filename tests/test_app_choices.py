"""AppTest: the players' choices on the Score page (play a special or the rows, adjustments,
negotiated results) are scored, saved with the round and shown in History."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.table import seat_entry
from referee import Round, load_ruleset, settle
from referee.storage import DB_ENV, Database

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")

ANN = seat_entry("bottom", "Ann", "Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s")  # trips | quads | str. flush
BOB = seat_entry("top", "Bob", "Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h")  # A-K-3 | pair J | trips T
EVE = seat_entry("left", "Eve", "2h 2c Ks", "4d 4c 5h 5d 6h", "6d 7s 7h 8s 8h")  # six pairs


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "app.sqlite3"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    yield at


def table(app: AppTest, seats: list[dict[str, str]]) -> None:
    app.session_state["score_seats"] = seats
    app.session_state["score_original"] = [dict(s) for s in seats]
    app.session_state["score_version"] = 100
    app.run()
    assert not app.exception


def totals(app: AppTest) -> dict[str, int]:
    for text in (str(m.value) for m in app.markdown):
        if text.startswith('<div class="ssr-totals">'):
            cells = re.findall(r"<b>(.+?)</b><span class=\"ssr-score[^\"]*\">([+\u22120-9]+)</span>", text)
            return {who: int(score.replace("\u2212", "-")) for who, score in cells}
    return {}


def engine(seats: list[dict[str, str]], rules: str, **extra: object) -> dict[str, int]:
    players = [{"name": s["name"], "head": s["head"], "middle": s["middle"], "tail": s["tail"]} for s in seats]
    result = settle(Round.from_json({"players": players, **extra}), load_ruleset(rules))
    return {p.name: p.score for p in result.players}


def test_play_the_rows_instead_of_the_special_and_history_keeps_it(app: AppTest, tmp_path: Path) -> None:
    table(app, [ANN, BOB, EVE])
    # Eve's six pairs (4 from each): Ann 16 - 4, Bob -16 - 4, Eve 8.
    assert totals(app) == {"Ann": 12, "Bob": -20, "Eve": 8}
    choice = app.radio(key="choice_special_Eve")
    assert choice.value == "Play as special"
    # Played as rows (pair 2 | two pair 54 | two pair 87), no special at the table: Ann scoops Eve
    # 3 + 8 + 5 + 2 = 18 and Bob 18, home run 12 more from each: 30 + 30. Bob v Eve: Eve wins head
    # and middle, Bob the tail: -1. Ann 60, Bob -30 - 1, Eve -30 + 1.
    declined = {"Ann": 60, "Bob": -31, "Eve": -29}
    assert any(f"as the rows: {declined['Eve']:+d}" in str(c.value) for c in app.caption)
    choice.set_value("Play the rows").run()
    assert not app.exception
    assert totals(app) == declined and declined["Eve"] < 8
    # Save it in a session: the stored round keeps "special": false, History says so.
    app.button(key="score_quick_session").click().run()
    app.run()
    record = Database(str(tmp_path / "app.sqlite3")).rounds(1)[0]
    assert next(p for p in record.hands["players"] if p["name"] == "Eve")["special"] is False
    assert record.scores == declined
    app.switch_page("app_pages/history.py").run()
    assert not app.exception
    assert any("Eve played the rows" in str(m.value) for m in app.markdown)


def test_adjustment_form_moves_points_and_is_saved(app: AppTest, tmp_path: Path) -> None:
    table(app, [ANN, BOB])
    before = totals(app)
    app.selectbox(key="choice_adjustment_from").set_value("Bob")
    app.selectbox(key="choice_adjustment_to").set_value("Ann")
    app.number_input(key="choice_adjustment_points").set_value(5)
    app.text_input(key="choice_adjustment_note").input("side bet")
    next(b for b in app.button if b.label == "Add adjustment").click().run()
    app.run()
    assert not app.exception
    # Bob pays Ann 5 on top of the settlement.
    assert totals(app) == {"Ann": before["Ann"] + 5, "Bob": before["Bob"] - 5}
    assert any("Bob pays Ann 5 — side bet" in str(m.value) for m in app.markdown)
    app.button(key="score_quick_session").click().run()
    app.run()
    record = Database(str(tmp_path / "app.sqlite3")).rounds(1)[0]
    assert record.hands["adjustments"] == [{"from": "Bob", "to": "Ann", "points": 5, "note": "side bet"}]
    assert record.settlement["adjustments"] == record.hands["adjustments"]
    app.switch_page("app_pages/history.py").run()
    assert any("Bob pays Ann 5 — side bet" in str(m.value) for m in app.markdown)
    assert json.dumps(record.scores) == json.dumps({"Ann": before["Ann"] + 5, "Bob": before["Bob"] - 5})


def test_remove_an_adjustment(app: AppTest) -> None:
    table(app, [ANN, BOB])
    before = totals(app)
    next(b for b in app.button if b.label == "Add adjustment").click().run()  # Ann pays Bob 1
    app.run()
    assert totals(app) == {"Ann": before["Ann"] - 1, "Bob": before["Bob"] + 1}
    app.button(key="choice_adjustment_remove_0").click().run()
    app.run()
    assert totals(app) == before


def test_negotiated_result_in_banker_mode(app: AppTest) -> None:
    app.sidebar.selectbox[0].set_value("fuzhou").run()
    table(app, [ANN, BOB])
    app.selectbox(key="score_banker_choice").set_value("Ann").run()  # no silent default: the banker is chosen
    assert totals(app) == engine([ANN, BOB], "fuzhou", banker="Ann")
    app.checkbox(key="choice_negotiated_on_Bob").check().run()
    app.number_input(key="choice_negotiated_points_Bob").set_value(7).run()
    assert not app.exception
    # Not compared: Bob receives the agreed 7 from the banker.
    assert totals(app) == {"Ann": -7, "Bob": 7}
    assert any('data-points="-7"' in str(m.value) for m in app.markdown)  # the pair's points
