"""The app at a real table over several rounds: the open session, who sits where, the banker.

AppTest drives the pages as a user does; the database is checked afterwards, since what
corrupts a session's record (a round in the wrong session, a seat saved under a placeholder
name) may not show on the page that caused it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from referee.storage import DB_ENV, Database

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 60
ANN = {"seat": "bottom", "name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"}
BOB = {"seat": "right", "name": "Bob", "head": "Ah Kc 3d", "middle": "Jh Jd 7c 8c 4h", "tail": "Th Td Tc 2d 3h"}


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
    next(b for b in app.button if "Start session" in b.label).click().run()
    assert not app.exception
    return int(app.session_state["session_id"])


def inject_rows(app: AppTest, seats: list[dict[str, str]]) -> None:
    """The rows as the photo step puts them in the editor: seats without names (who sits where says)."""
    app.session_state["score_seats"] = [dict(s, name="") for s in seats]
    app.session_state["score_original"] = [dict(s, name="") for s in seats]
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


NEW = "\x00new"  # the seat picker's "someone new…"
PHOTOS = ROOT / "tests" / "fixtures" / "photos"


def jpeg(seed: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (1000, 1000), (20, 90 + seed, 40)).save(out, format="JPEG")
    return out.getvalue()


def name_seat(app: AppTest, seat: str, who: str) -> None:
    picker = app.selectbox(key=f"who_{seat}")
    if who in picker.options:
        picker.set_value(who).run()
    else:
        picker.set_value(NEW).run()
        app.text_input(key=f"who_{seat}_name").input(who).run()
    assert not app.exception


def upload(app: AppTest, name: str, data: bytes) -> None:
    key = next(u.key for u in app.file_uploader if (u.key or "").startswith("score_upload"))
    assert app.file_uploader(key=key).value is None, "the uploader starts each round empty"
    app.file_uploader(key=key).set_value((name, data, "image/jpeg")).run(timeout=180)
    assert not app.exception


def scores_shown(app: AppTest) -> dict[str, int]:
    import re

    for text in (str(m.value) for m in app.markdown):
        if text.startswith('<div class="ssr-totals">'):
            cells = re.findall(r"<b>(.+?)</b><span class=\"ssr-score[^\"]*\">([+\u22120-9]+)</span>", text)
            return {who: int(score.replace("\u2212", "-")) for who, score in cells}
    return {}


def stand_in(monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str]], None]:
    """A detector that 'sees' tests/test_layout.py's hands at the given seats of the photo."""
    pytest.importorskip("vision.pipeline")
    import test_layout

    from app_pages import reader
    from vision.types import Detections

    seen: dict[str, Any] = {}
    monkeypatch.setattr(reader, "detector", lambda: lambda image: Detections(
        width=1000, height=1000, cards=tuple(test_layout.table(seen["seats"]))))

    def lay(seats: list[str]) -> None:
        seen["seats"] = seats
    return lay


def test_who_sits_where_is_asked_once_and_turns_with_the_photographer(
        app: AppTest, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import test_layout

    lay = stand_in(monkeypatch)
    lay(["bottom", "top"])
    upload(app, "round1.jpg", jpeg(1))
    assert any("Name every player" in w for w in (str(e.value) for e in app.warning))
    assert not [b for b in app.button if b.key in ("score_save", "score_quick_session")]  # unnamed: no save
    name_seat(app, "bottom", "Ann")
    name_seat(app, "top", "Bob")
    app.button(key="score_quick_session").click().run()
    app.run()
    app.button(key="score_next").click().run()
    assert not app.exception
    # Round 2: the photographer walked to the side that was on the right of the first photo, so Ann's
    # cards lie on the left of this one and Bob's on the right.
    lay(["left", "right"])
    upload(app, "round2.jpg", jpeg(2))
    assert any("Name every player" in w for w in (str(e.value) for e in app.warning))
    app.selectbox(key="camera_side").set_value(1).run()
    assert not app.exception
    assert app.selectbox(key="who_left").value == "Ann" and app.selectbox(key="who_right").value == "Bob"
    save(app)
    # Round 3: taken from the same side again: nobody is asked anything.
    app.button(key="score_next").click().run()
    upload(app, "round3.jpg", jpeg(3))
    assert not any("Name every player" in w for w in (str(e.value) for e in app.warning))
    save(app)
    db = Database(db_path)
    (session,) = db.sessions()
    rounds = db.rounds(session.id)
    assert [r.seating for r in rounds] == [{"bottom": "Ann", "top": "Bob"}, {"left": "Ann", "right": "Bob"},
                                           {"left": "Ann", "right": "Bob"}]
    ann = [next(p for p in r.hands["players"] if p["name"] == "Ann") for r in rounds]
    assert [" | ".join((p["head"], p["middle"], p["tail"])) for p in ann] == [
        test_layout.HANDS["bottom"], test_layout.HANDS["left"], test_layout.HANDS["left"]]
    assert session.players == ("Ann", "Bob")


def test_real_photos_two_rounds_photographer_turned_a_quarter(app: AppTest, db_path: Path) -> None:
    """two_players.jpg, then the same table photographed from the side on its right (rotated_90.jpg:
    bottom's cards now on the left): the points go to the same people."""
    detector = pytest.importorskip("vision.detector", reason="the photo pipeline is not installed")
    if not detector.CardDetector.available():
        pytest.skip("the card detector's model files are not in models/")
    upload(app, "two_players.jpg", (PHOTOS / "two_players.jpg").read_bytes())
    name_seat(app, "bottom", "Ann")
    name_seat(app, "top", "Bob")
    assert scores_shown(app) == {"Ann": 1, "Bob": -1}
    app.button(key="score_quick_session").click().run()
    app.run()
    app.button(key="score_next").click().run()
    upload(app, "rotated_90.jpg", (PHOTOS / "rotated_90.jpg").read_bytes())
    app.selectbox(key="camera_side").set_value(1).run()
    assert scores_shown(app) == {"Ann": 1, "Bob": -1}
    save(app)
    db = Database(db_path)
    (session,) = db.sessions()
    assert db.totals(session.id) == {"Ann": 2, "Bob": -2}
    assert [r.seating for r in db.rounds(session.id)] == [{"bottom": "Ann", "top": "Bob"},
                                                          {"left": "Ann", "right": "Bob"}]


def test_a_seat_without_a_name_is_never_saved(app: AppTest, db_path: Path) -> None:
    start_session(app, "Ann, Bob", "kitchen")
    app.switch_page("app_pages/score.py").run()
    inject_rows(app, [ANN, dict(BOB, seat="top")])  # the session's places: Ann bottom, Bob right; top unknown
    assert app.selectbox(key="who_top").value is None  # nobody has said who sits there
    assert scores_shown(app) == {"Ann": 28, "(上 top)": -28}  # scored under the seat, to look at
    assert any("Who is at top" in w for w in (str(e.value) for e in app.warning))
    assert not [b for b in app.button if b.key in ("score_save", "score_quick_session")]
    assert list(app.selectbox(key="who_top").options)[:2] == ["Ann", "Bob"]  # the session's people first
    name_seat(app, "top", "Bob")
    save(app)
    db = Database(db_path)
    (record,) = db.rounds(int(app.session_state["session_id"]))
    assert set(record.scores) == {"Ann", "Bob"} and record.seating == {"bottom": "Ann", "top": "Bob"}


def test_a_seat_not_playing_is_left_out_and_remembered(app: AppTest, db_path: Path) -> None:
    start_session(app, "Ann, Bob, Chen", "kitchen")
    app.switch_page("app_pages/score.py").run()
    chen = {"seat": "top", "name": "", "head": "5c 6c 7d", "middle": "8d 8h Ks Kh 2c", "tail": "Ac Ad As Js Jc"}
    inject_rows(app, [ANN, BOB, chen])
    assert set(scores_shown(app)) == {"Ann", "Bob", "Chen"}
    app.selectbox(key="who_top").set_value("\x00away").run()
    assert set(scores_shown(app)) == {"Ann", "Bob"}
    save(app)
    app.button(key="score_next").click().run()
    assert app.selectbox(key="who_top").value == "\x00away"  # the next round keeps it
    db = Database(db_path)
    (record,) = db.rounds(int(app.session_state["session_id"]))
    assert record.seating == {"bottom": "Ann", "right": "Bob"}


def test_banker_must_be_chosen_is_remembered_and_can_change(app: AppTest, db_path: Path) -> None:
    app.sidebar.selectbox[0].set_value("fuzhou").run()
    start_session(app, "Ann, Bob", "kitchen")
    app.switch_page("app_pages/score.py").run()
    inject_rows(app, [ANN, BOB])
    assert app.selectbox(key="score_banker_choice").value is None
    assert any("Who is the banker" in w for w in (str(e.value) for e in app.warning))
    assert not scores_shown(app) and not [b for b in app.button if b.key == "score_save"]
    app.selectbox(key="score_banker_choice").set_value("Bob").run()
    save(app)
    app.button(key="score_next").click().run()
    inject_rows(app, [ANN, BOB])
    assert app.selectbox(key="score_banker_choice").value == "Bob"  # remembered for the session
    app.selectbox(key="score_banker_choice").set_value("Ann").run()  # the bank passes this round
    save(app)
    db = Database(db_path)
    assert [r.banker for r in db.rounds(int(app.session_state["session_id"]))] == ["Bob", "Ann"]


def test_typed_names_and_rows_survive_reruns(app: AppTest) -> None:
    app.segmented_control(key=next(s.key for s in app.segmented_control if (s.key or "").startswith(
        "score_players_"))).set_value(2).run()
    name_seat(app, "bottom", "Ann")
    version = app.session_state["score_version"]
    app.text_input(key=f"seat_{version}_0_head").input("Qs Qh Qd").run()
    # Another seat added (a rerun that rebuilds the table), then the page left and come back to.
    app.segmented_control(key=f"score_players_{version}").set_value(3).run()
    assert not app.exception
    version = app.session_state["score_version"]
    assert app.text_input(key=f"seat_{version}_0_head").value == "Qs Qh Qd"
    assert app.text_input(key="who_bottom_name").value == "Ann"
    app.switch_page("app_pages/history.py").run()
    app.switch_page("app_pages/score.py").run()
    assert not app.exception
    assert app.selectbox(key="who_bottom").value == "Ann"
    assert app.text_input(key=f"seat_{app.session_state['score_version']}_0_head").value == "Qs Qh Qd"


def test_history_puts_names_and_seats_right_and_totals_follow(app: AppTest, db_path: Path) -> None:
    sid = start_session(app, "Ann, Bob", "kitchen")
    app.switch_page("app_pages/score.py").run()
    inject_rows(app, [ANN, BOB])
    save(app)
    app.switch_page("app_pages/history.py").run()
    # The player saved as Bob was really Robert: one rename, every round follows.
    app.selectbox(key=f"rename_{sid}_old").set_value("Bob")
    app.text_input(key=f"rename_{sid}_new").input("Robert")
    next(b for b in app.button if "Rename" in b.label).click().run()
    app.run()
    assert not app.exception
    db = Database(db_path)
    assert db.totals(sid) == {"Ann": 28, "Robert": -28}
    (record,) = db.rounds(sid)
    # One round's seat put right: Robert sat opposite Ann, not on her right.
    app.selectbox(key=f"edit_{record.id}_1_seat").set_value("top")
    next(b for b in app.button if "Save changes" in b.label).click().run()
    app.run()
    assert not app.exception
    assert db.round(record.id).seating == {"bottom": "Ann", "top": "Robert"}
    assert db.totals(sid) == {"Ann": 28, "Robert": -28}
