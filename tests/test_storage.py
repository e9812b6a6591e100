"""The session store: round-trip, edit/delete with totals following, interrupted writes,
two writers at once (threads and processes), migrations, export."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.errors import InputError
from referee.round import Round
from referee.ruleset import load_ruleset, ruleset_text
from referee.settle import settle
from referee.storage import DB_ENV, SCHEMA_VERSION, Database, default_location

ANN_BOB = {"players": [
    {"name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"},
    {"name": "Bob", "head": "Ah Kc 3d", "middle": "Jh Jd 7c 8c 4h", "tail": "Th Td Tc 2d 3h"},
]}
CLASSIC = ruleset_text("classic")


def scored(hands: dict[str, Any], rules: str = "classic") -> dict[str, Any]:
    return settle(Round.from_json(hands), load_ruleset(rules)).to_json()


def new_session(db: Database, players: tuple[str, ...] = ("Ann", "Bob")) -> int:
    return db.create_session(date="2026-11-29", place="kitchen", players=list(players), ruleset="classic",
                             ruleset_toml=CLASSIC)


def save(db: Database, session_id: int, hands: dict[str, Any] = ANN_BOB, photo: bytes | None = None) -> int:
    return db.save_round(session_id, hands=hands, settlement=scored(hands), ruleset="classic", ruleset_toml=CLASSIC,
                         photo=photo, detections={"seats": []}, corrections=[{"seat": "bottom", "field": "head"}])


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return Database(tmp_path / "referee.sqlite3")


def test_round_trip(db: Database) -> None:
    sid = new_session(db)
    rid = save(db, sid, photo=b"jpeg bytes")
    record = db.round(rid)
    assert record.number == 1
    assert record.hands == ANN_BOB
    assert record.settlement == scored(ANN_BOB)
    assert record.ruleset == "classic" and record.ruleset_toml == CLASSIC
    assert record.detections == {"seats": []}
    assert record.corrections == [{"seat": "bottom", "field": "head"}]
    assert sum(record.scores.values()) == 0
    assert db.photo(record.photo_sha256 or "") == (b"jpeg bytes", "image/jpeg")
    assert db.totals(sid) == record.scores
    assert [r.id for r in db.rounds(sid)] == [rid]
    assert db.session(sid).players == ("Ann", "Bob")


def test_photos_stored_once_and_removed_with_last_round(db: Database) -> None:
    sid = new_session(db)
    first, second = save(db, sid, photo=b"same"), save(db, sid, photo=b"same")
    assert db.photo_count() == 1
    db.delete_round(first)
    assert db.photo_count() == 1
    db.delete_round(second)
    assert db.photo_count() == 0


def test_edit_and_delete_move_the_totals(db: Database) -> None:
    sid = new_session(db)
    first = save(db, sid)
    save(db, sid)
    ann = db.round(first).scores["Ann"]
    assert db.totals(sid)["Ann"] == 2 * ann
    swapped = {"players": [dict(ANN_BOB["players"][0], name="Bob"), dict(ANN_BOB["players"][1], name="Ann")]}
    db.update_round(first, hands=swapped, settlement=scored(swapped))
    assert db.totals(sid) == {"Ann": 0, "Bob": 0}
    assert db.round(first).updated_at >= db.round(first).created_at
    assert db.round(first).corrections == [{"seat": "bottom", "field": "head"}]  # kept unless replaced
    db.delete_round(first)
    assert db.totals(sid)["Ann"] == ann
    assert [r["round"] for r in db.running_totals(sid)] == [2]
    third = save(db, sid)
    assert db.round(third).number == 3  # numbers are never reused within a session


def test_running_totals_and_new_players_join_the_session(db: Database) -> None:
    sid = new_session(db, ("Ann",))
    save(db, sid)
    save(db, sid)
    ann = db.rounds(sid)[0].scores["Ann"]
    assert db.session(sid).players == ("Ann", "Bob")
    assert db.running_totals(sid) == [{"round": 1, "Ann": ann, "Bob": -ann},
                                      {"round": 2, "Ann": 2 * ann, "Bob": -2 * ann}]


def test_export_csv_and_json(db: Database) -> None:
    sid = new_session(db)
    save(db, sid)
    save(db, sid)
    rows = list(csv.DictReader(io.StringIO(db.export_csv(sid))))
    assert [(r["round"], r["player"]) for r in rows] == [("1", "Ann"), ("1", "Bob"), ("2", "Ann"), ("2", "Bob")]
    assert rows[-1]["running_total"] == str(db.totals(sid)["Bob"])
    assert rows[0]["head"] == "Qs Qh Qd"
    data = json.loads(json.dumps(db.export_json(sid)))
    assert data["session"]["players"] == ["Ann", "Bob"]
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    assert data["totals"] == db.totals(sid)
    assert data["rounds"][0]["round"] == ANN_BOB


@pytest.mark.parametrize("step", ["photo", "round", "scores"])
def test_interrupted_save_leaves_previous_state(db: Database, step: str) -> None:
    sid = new_session(db)
    save(db, sid, photo=b"first")
    before = (db.export_json(sid), db.photo_count())

    def crash(at: str) -> None:
        if at == step:
            raise KeyboardInterrupt  # the tab closed / the server stopped mid-save
    db.on_step = crash
    with pytest.raises(KeyboardInterrupt):
        save(db, sid, photo=b"second")
    assert (db.export_json(sid), db.photo_count()) == before


def test_interrupted_edit_leaves_previous_state(db: Database) -> None:
    sid = new_session(db)
    rid = save(db, sid)
    before = db.export_json(sid)
    db.on_step = lambda at: (_ for _ in ()).throw(RuntimeError("power cut")) if at == "round" else None
    swapped = {"players": [dict(ANN_BOB["players"][0], name="Bob"), dict(ANN_BOB["players"][1], name="Ann")]}
    with pytest.raises(RuntimeError):
        db.update_round(rid, hands=swapped, settlement=scored(swapped))
    assert db.export_json(sid) == before


KILL_MID_SAVE = """
import os, sys
from referee.storage import Database
sys.path.insert(0, {tests!r})
from test_storage import save
db = Database({path!r})
db.on_step = lambda at: os._exit(9) if at == "scores" else None
save(db, {sid})
"""


def test_process_killed_mid_save(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    db = Database(path)
    sid = new_session(db)
    save(db, sid)
    before = db.export_json(sid)
    code = KILL_MID_SAVE.format(tests=str(Path(__file__).parent), path=str(path), sid=sid)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 9, result.stderr.decode()
    reopened = Database(path)
    assert reopened.export_json(sid) == before
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    save(reopened, sid)
    assert [r.number for r in reopened.rounds(sid)] == [1, 2]


def check_concurrent_writers(db: Database, open_db: Callable[[], Database], threads: int, rounds_each: int) -> None:
    """``threads`` writers save ``rounds_each`` rounds each at once, each through ``open_db()``:
    no error, the session's rounds are numbered 1..n with none lost or doubled, totals sum to 0.
    (Shared by the SQLite and PostgreSQL tests.)"""
    sid = new_session(db)
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            mine = open_db()
            for _ in range(rounds_each):
                save(mine, sid)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    workers = [threading.Thread(target=writer) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert not errors
    assert [r.number for r in db.rounds(sid)] == list(range(1, threads * rounds_each + 1))
    assert sum(db.totals(sid).values()) == 0


def test_two_writers_threads(db: Database) -> None:
    check_concurrent_writers(db, lambda: db, threads=6, rounds_each=10)


def _process_writer(path: str, sid: int, count: int) -> None:
    db = Database(path)
    for _ in range(count):
        save(db, sid, photo=b"shared photo")


def test_two_writers_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "referee.sqlite3")
    sid = new_session(Database(path))
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_process_writer, args=(path, sid, 8)) for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    db = Database(path)
    assert [r.number for r in db.rounds(sid)] == list(range(1, 25))
    assert db.photo_count() == 1


def test_schema_created_and_migrated_once(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    Database(path)
    Database(path)
    rows = sqlite3.connect(path).execute("SELECT version FROM schema_version").fetchall()
    assert rows == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_version_1_database_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A database written by the first schema gets the later steps, its data intact."""
    import referee.storage as storage

    path = tmp_path / "referee.sqlite3"
    with monkeypatch.context() as m:
        m.setattr(storage, "MIGRATIONS", storage.MIGRATIONS[:1])
        m.setattr(storage, "SCHEMA_VERSION", 1)
        old = Database(path)
        sid = old.create_session(date="2026-11-28", place="", players=["Ann", "Bob"], ruleset="classic",
                                 ruleset_toml=CLASSIC)
        with sqlite3.connect(path) as conn:  # what schema 1's save_round wrote: rounds 1 and 2
            for number in (1, 2):
                conn.execute("INSERT INTO rounds (session_id, number, created_at, updated_at, ruleset_sha256, "
                             "hands, corrections, settlement) SELECT ?, ?, 'then', 'then', ruleset_sha256, ?, '[]', ? "
                             "FROM sessions WHERE id = ?",
                             (sid, number, json.dumps(ANN_BOB), json.dumps(scored(ANN_BOB)), sid))
    new = Database(path)
    assert new.schema_version() == SCHEMA_VERSION
    assert [r.number for r in new.rounds(sid)] == [1, 2]
    new.delete_round(new.rounds(sid)[1].id)
    assert new.round(save(new, sid)).number == 3


def test_round_numbers_are_never_reused(db: Database) -> None:
    sid = new_session(db)
    db.delete_round(save(db, sid))
    assert db.round(save(db, sid)).number == 2


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    Database(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'future')")
    with pytest.raises(InputError, match="newer than this referee"):
        Database(path)


@pytest.mark.parametrize(
    ("settlement", "message"),
    [
        ({}, "needs a settlement"),
        ({"players": [{"name": "Ann", "score": 3}, {"name": "Bob", "score": -2}]}, "zero-sum"),
    ],
)
def test_bad_saves_are_refused(db: Database, settlement: dict[str, Any], message: str) -> None:
    sid = new_session(db)
    with pytest.raises(InputError, match=message):
        db.save_round(sid, hands=ANN_BOB, settlement=settlement, ruleset="classic", ruleset_toml=CLASSIC)
    with pytest.raises(InputError, match="no session"):
        save(db, sid + 1)
    assert db.rounds(sid) == []


def test_delete_session_removes_its_rounds(db: Database) -> None:
    sid = new_session(db)
    save(db, sid)
    db.delete_session(sid)
    assert db.sessions() == []
    with pytest.raises(InputError):
        db.session(sid)


def test_location_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "x.sqlite3"))
    assert default_location() == str(tmp_path / "x.sqlite3")
    monkeypatch.delenv(DB_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_location().startswith(str(tmp_path)) or sys.platform != "linux"
