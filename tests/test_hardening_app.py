"""Storage faults in the app: a message saying what happened and what to do, the round kept, no traceback.

Each fault is real: a file that is not a database, one that fails SQLite's integrity check,
a damaged row, an unreachable PostgreSQL server, a file-size limit that makes the disk
refuse a write mid-save, a read-only database.
"""

from __future__ import annotations

import io
import os
import resource
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app_pages.images import Photo
from app_pages.storage_faults import explain
from app_pages.table import seat_entry
from referee.ruleset import ruleset_text
from referee.storage import DB_ENV, Database

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
ANN = seat_entry("bottom", "Ann", "Qs Qh Qd", "9h 9d 9c 9s Kd", "2s 3s 4s 5s 6s")
BOB = seat_entry("top", "Bob", "Ah Kc 3d", "Jh Jd 7c 8c 4h", "Th Td Tc 2d 3h")


def errors(at: AppTest) -> list[str]:
    return [str(e.value) for e in at.error]


def start(location: str, monkeypatch: pytest.MonkeyPatch, page: str | None = None,
          session: int | None = None) -> AppTest:
    monkeypatch.setenv(DB_ENV, location)
    at = AppTest.from_file(APP, default_timeout=60)
    if session is not None:
        at.query_params["session"] = str(session)
    at.run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def session_with_a_round(path: Path) -> int:
    db = Database(path)
    sid = db.create_session(date="2026-12-01", place="kitchen", players=["Ann", "Bob"], ruleset="classic",
                            ruleset_toml=ruleset_text("classic"))
    settlement = {"players": [{"name": "Ann", "score": 3}, {"name": "Bob", "score": -3}]}
    db.save_round(sid, hands={"players": [{"name": n, "head": "", "middle": "", "tail": ""} for n in ("Ann", "Bob")]},
                  settlement=settlement, ruleset="classic", ruleset_toml=ruleset_text("classic"))
    return sid


def table(at: AppTest, seats: list[dict[str, str]]) -> None:
    at.session_state["score_seats"] = seats
    at.session_state["score_original"] = [dict(s) for s in seats]
    at.session_state["score_version"] = 100
    at.run()
    assert not at.exception


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


@pytest.mark.parametrize("page", ["app_pages/score.py", "app_pages/history.py", "app_pages/check.py"])
def test_a_file_that_is_not_a_database(path: Path, monkeypatch: pytest.MonkeyPatch, page: str) -> None:
    path.write_bytes(b"my shopping list, not a database\n" * 200)
    at = start(str(path), monkeypatch, page)
    assert any("is not a referee database, or it is damaged" in e and "SHISANSHUI_DB" in e for e in errors(at)), \
        errors(at)
    assert path.read_bytes().startswith(b"my shopping list")  # never overwritten


def test_a_database_failing_the_integrity_check_is_reported_not_used(path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    session_with_a_round(path)
    conn = sqlite3.connect(path)  # orphan the pages of an index: a damage only integrity_check sees
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("DELETE FROM sqlite_master WHERE name = 'rounds_by_session'")
    conn.commit()
    conn.close()
    at = start(str(path), monkeypatch, "app_pages/history.py")
    assert any("integrity check failed" in e and "Restore a backup" in e for e in errors(at)), errors(at)
    assert not at.get("download_button")  # no totals or exports from a damaged file


@pytest.mark.parametrize("damage", [
    "UPDATE rounds SET hands = '{\"players\": [trunc'",
    "UPDATE scores SET score = 4611686018427387904 * (CASE player WHEN 'Ann' THEN 1 ELSE -1 END)",
])
def test_a_damaged_row_says_so_and_the_page_stands(path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    session_with_a_round(path)
    conn = sqlite3.connect(path)
    conn.execute(damage)
    conn.commit()
    conn.close()
    at = start(str(path), monkeypatch, "app_pages/history.py")
    assert any("is damaged and cannot be read" in e for e in errors(at)), errors(at)


def test_postgresql_unreachable(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("psycopg")
    at = start("postgresql://referee:s3cret@127.0.0.1:1/referee?connect_timeout=3", monkeypatch,
               "app_pages/history.py")
    said = errors(at)
    assert any("PostgreSQL server 127.0.0.1:1 cannot be reached" in e for e in said), said
    assert not any("s3cret" in e for e in said)


def noise_png(side: int) -> bytes:
    out = io.BytesIO()
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (side, side, 3), dtype=np.uint8)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="no file-size limit on this system")
def test_a_full_disk_at_save_keeps_the_round(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = Database(path).create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                                        ruleset_toml=ruleset_text("classic"))
    at = start(str(path), monkeypatch, "app_pages/score.py", session=sid)
    data = noise_png(700)  # a 1.5 MB photo: more than the disk will take
    at.session_state["score_photo"] = Photo(data=data, mime="image/png", width=700, height=700)
    table(at, [ANN, BOB])
    # The disk refuses to grow any file past 256 kB beyond what the database holds now (a real
    # write failure, as on a full disk; SIGXFSZ ignored so the write fails instead of the process).
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    largest = max(p.stat().st_size for p in path.parent.iterdir())
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (largest + 256 * 1024, hard))
    try:
        at.button(key="score_save").click().run()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert not at.exception
    assert any(e.startswith("The round was not saved: the disk holding the database") and "Free some space" in e
               for e in errors(at)), errors(at)
    assert Database(path).rounds(sid) == []  # all or nothing
    # Nothing the user entered is lost: the table is still there, Save is offered again, and a copy
    # can be downloaded; once there is room, the same button saves the round.
    assert [s["name"] for s in at.session_state["score_seats"]] == ["Ann", "Bob"]
    assert any(b.label == "Download this round (JSON)" for b in at.get("download_button"))
    assert not at.button(key="score_save").disabled
    at.button(key="score_save").click().run()
    at.run()
    assert not at.exception and not errors(at)
    (record,) = Database(path).rounds(sid)
    assert record.scores["Ann"] > 0 and record.photo_sha256 is not None


def test_a_database_replaced_by_a_broken_file_mid_session(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = Database(path).create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                                        ruleset_toml=ruleset_text("classic"))
    at = start(str(path), monkeypatch, "app_pages/score.py", session=sid)
    table(at, [ANN, BOB])
    good = path.read_bytes()
    path.write_bytes(b"\x00garbage" * 1000)  # another program overwrote it
    at.button(key="score_save").click().run()
    assert not at.exception
    assert any("is not a referee database" in e for e in errors(at)), errors(at)
    assert [s["name"] for s in at.session_state["score_seats"]] == ["Ann", "Bob"]
    path.write_bytes(good)  # restored from a backup
    at.run()
    at.button(key="score_save").click().run()
    at.run()
    assert not at.exception and not errors(at)
    assert len(Database(path).rounds(sid)) == 1


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_database_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sid = Database(path).create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                                        ruleset_toml=ruleset_text("classic"))
    path.chmod(0o444)
    at = start(str(path), monkeypatch, "app_pages/score.py", session=sid)
    table(at, [ANN, BOB])
    if at.button(key="score_save") is not None:
        at.button(key="score_save").click().run()
    assert not at.exception
    assert any("is read-only" in e for e in errors(at)), errors(at)


# ------------------------------------------------------------------ the messages, from real SQLite errors


def test_real_sqlite_faults_get_their_message(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    Database(path)
    read_only = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    with pytest.raises(sqlite3.OperationalError) as caught:
        read_only.execute("INSERT INTO schema_version VALUES (9, 'now')")
    read_only.close()
    message = explain(caught.value, "save the round", str(path))
    assert message is not None and f"the database file {path} is read-only" in message
    full = sqlite3.connect(path)
    full.execute("PRAGMA max_page_count = 12")  # as full as a disk can be
    with pytest.raises(sqlite3.OperationalError) as caught:
        full.execute("INSERT INTO photos VALUES ('x', zeroblob(1000000), 'image/png', 1, 'now')")
    full.close()
    message = explain(caught.value, "save the round", str(path))
    assert message is not None and message.startswith("The round was not saved: the disk holding the database")


def test_bugs_are_not_disguised_as_storage_faults() -> None:
    assert explain(KeyError("score"), "save the round", "x") is None  # raised outside referee.storage
    assert explain(ZeroDivisionError(), "save the round", "x") is None


@pytest.fixture(autouse=True)
def _fresh_database_cache() -> Iterator[None]:
    # The app keeps one Database per location for the server's life; each test is a fresh server.
    from app_pages import state

    state._database.clear()
    yield
    state._database.clear()


def test_a_control_character_in_a_new_session_name_is_a_message(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = start(str(path), monkeypatch, "app_pages/history.py")
    at.text_input(key="new_players").input("Ann\x07, Bob")
    at.button[0].click().run()
    assert not at.exception
    assert any("which a name cannot have" in e for e in errors(at)), errors(at)
    assert Database(path).sessions() == []
