"""The app at a real table over several rounds: the open session, who sits where, the banker.

AppTest drives the pages as a user does; the database is checked afterwards, since what
corrupts a session's record (a round in the wrong session, a seat saved under a placeholder
name) may not show on the page that caused it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from referee.storage import DB_ENV, Database

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 60
ANN = {"seat": "bottom", "name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"}
BOB = {"seat": "top", "name": "Bob", "head": "Ah Kc 3d", "middle": "Jh Jd 7c 8c 4h", "tail": "Th Td Tc 2d 3h"}


@pytest.fixture
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "app.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return path


@pytest.fixture
def app(db_path: Path) -> Iterator[AppTest]:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    yield at


def start_session(app: AppTest, players: str, place: str) -> int:
    app.switch_page("app_pages/history.py").run()
    app.text_input(key="new_place").input(place)
    app.text_input(key="new_players").input(players)
    next(b for b in app.button if b.label == "Start session").click().run()
    assert not app.exception
    return int(app.session_state["session_id"])


def inject_rows(app: AppTest, seats: list[dict[str, str]]) -> None:
    """The rows as the photo step would put them in the editor (names come from who sits where)."""
    app.session_state["score_seats"] = [dict(s) for s in seats]
    app.session_state["score_original"] = [dict(s) for s in seats]
    app.session_state["score_version"] = int(app.session_state["score_version"]) + 1 \
        if "score_version" in app.session_state else 100
    app.run()
    assert not app.exception


def save(app: AppTest) -> None:
    app.button(key="score_save").click().run()
    assert not app.exception
    app.run()


def test_starting_a_session_switches_every_page_and_the_address(app: AppTest, db_path: Path) -> None:
    first = start_session(app, "Ann, Bob", "kitchen")
    app.switch_page("app_pages/score.py").run()
    inject_rows(app, [ANN, BOB])
    save(app)
    second = start_session(app, "Ann, Bob", "club")
    assert second != first
    assert app.session_state["session_id"] == second
    assert app.query_params["session"] in (str(second), [str(second)])
    assert "club" in str(app.selectbox(key="history_session").value)
    for _ in range(2):
        app.switch_page("app_pages/score.py").run()
        assert any("club" in c for c in (str(e.value) for e in app.caption))  # the banner names the session
        inject_rows(app, [ANN, BOB])
        save(app)
        app.button(key="score_next").click().run()
    db = Database(db_path)
    assert [r.number for r in db.rounds(first)] == [1]
    assert [r.number for r in db.rounds(second)] == [1, 2]
    # Back to the first session from the history page's picker: the next round goes there.
    app.switch_page("app_pages/history.py").run()
    picker = app.selectbox(key="history_session")
    picker.set_value(next(o for o in picker.options if "kitchen" in o)).run()
    assert app.session_state["session_id"] == first
    assert "kitchen" in str(app.selectbox(key="history_session").value)
    assert app.query_params["session"] in (str(first), [str(first)])
    app.switch_page("app_pages/score.py").run()
    inject_rows(app, [ANN, BOB])
    save(app)
    assert [r.number for r in db.rounds(first)] == [1, 2]
    assert [r.number for r in db.rounds(second)] == [1, 2]
