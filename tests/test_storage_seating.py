"""Who sat where, and putting a player's name right after the fact (schema 3).

``tests/fixtures/db/schema_v2.sqlite3`` was written by the schema-2 code (commit 0b133fc): a session
of Ann and Bob where round 1 saved Bob's seat under its placeholder "Player 2".
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from referee.errors import InputError
from referee.round import Round
from referee.ruleset import load_ruleset, ruleset_text
from referee.settle import settle
from referee.storage import SCHEMA_VERSION, Database

V2 = Path(__file__).resolve().parent / "fixtures" / "db" / "schema_v2.sqlite3"
CLASSIC = ruleset_text("classic")
ANN = {"name": "Ann", "head": "Qs Qh Qd", "middle": "9h 9d 9c 9s Kd", "tail": "2s 3s 4s 5s 6s"}
BOB = {"name": "Bob", "head": "Ah Kc 3d", "middle": "Jh Jd 7c 8c 4h", "tail": "Th Td Tc 2d 3h"}


def scored(hands: dict[str, Any]) -> dict[str, Any]:
    return settle(Round.from_json(hands), load_ruleset("classic")).to_json()


@pytest.fixture
def old_db(tmp_path: Path) -> Database:
    path = tmp_path / "referee.sqlite3"
    shutil.copy(V2, path)
    assert sqlite3.connect(path).execute("SELECT MAX(version) FROM schema_version").fetchone() == (2,)
    return Database(path)


def test_a_schema_2_database_is_migrated_with_its_rounds_intact(old_db: Database) -> None:
    assert old_db.schema_version() == SCHEMA_VERSION == 3
    (session,) = old_db.sessions()
    rounds = old_db.rounds(session.id)
    assert [r.number for r in rounds] == [1, 2]
    assert [r.seating for r in rounds] == [{}, {}]  # not recorded before
    assert rounds[0].photo_sha256 is not None and old_db.photo(rounds[0].photo_sha256) is not None
    assert old_db.totals(session.id) == {"Ann": 2 * scored({"players": [ANN, BOB]})["players"][0]["score"],
                                         "Bob": rounds[1].scores["Bob"], "Player 2": rounds[0].scores["Player 2"]}
    hands = {"players": [ANN, BOB]}
    rid = old_db.save_round(session.id, hands=hands, settlement=scored(hands), ruleset="classic",
                            ruleset_toml=CLASSIC, seating={"bottom": "Ann", "top": "Bob"})
    assert old_db.round(rid).number == 3 and old_db.round(rid).seating == {"bottom": "Ann", "top": "Bob"}


def test_a_failed_migration_leaves_the_old_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The step to schema 3 is one transaction: when it fails the file is still a working schema 2."""
    import referee.storage as storage

    path = tmp_path / "referee.sqlite3"
    shutil.copy(V2, path)
    broken = (*storage.MIGRATIONS[:2], (*storage.MIGRATIONS[2], "ALTER TABLE no_such_table ADD COLUMN x TEXT"))
    monkeypatch.setattr(storage, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        Database(path)
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (2,)
    assert "seating" not in [c[1] for c in conn.execute("PRAGMA table_info(rounds)")]


def test_rename_merges_a_placeholder_into_the_player_and_totals_follow(old_db: Database) -> None:
    (session,) = old_db.sessions()
    before = old_db.totals(session.id)
    old_db.rename_player(session.id, "Player 2", "Bob")
    assert old_db.session(session.id).players == ("Ann", "Bob")
    assert old_db.totals(session.id) == {"Ann": before["Ann"], "Bob": before["Bob"] + before["Player 2"]}
    first = old_db.rounds(session.id)[0]
    assert [p["name"] for p in first.hands["players"]] == ["Ann", "Bob"]
    assert {p["name"] for p in first.settlement["players"]} == {"Ann", "Bob"}
    assert all({pair["a"], pair["b"]} == {"Ann", "Bob"} for pair in first.settlement["pairs"])
    assert "Player 2" not in old_db.export_csv(session.id)


def test_rename_refuses_two_players_of_one_round(old_db: Database) -> None:
    (session,) = old_db.sessions()
    with pytest.raises(InputError, match="both played round 1"):
        old_db.rename_player(session.id, "Player 2", "Ann")
    assert old_db.session(session.id).players == ("Ann", "Bob", "Player 2")  # nothing changed


def test_seating_is_checked_and_follows_a_renamed_round(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.sqlite3")
    sid = db.create_session(date="2026-12-01", place="", players=["Ann", "Bob"], ruleset="classic",
                            ruleset_toml=CLASSIC)
    hands = {"players": [ANN, BOB]}
    with pytest.raises(InputError, match="Chen, who did not play"):
        db.save_round(sid, hands=hands, settlement=scored(hands), ruleset="classic", ruleset_toml=CLASSIC,
                      seating={"bottom": "Ann", "top": "Chen"})
    rid = db.save_round(sid, hands=hands, settlement=scored(hands), ruleset="classic", ruleset_toml=CLASSIC,
                        seating={"bottom": "Ann", "top": "Bob"})
    renamed = {"players": [ANN, dict(BOB, name="Bobby")]}
    db.update_round(rid, hands=renamed, settlement=scored(renamed))
    assert db.round(rid).seating == {"bottom": "Ann", "top": "Bobby"}
    db.update_round(rid, hands=renamed, settlement=scored(renamed), seating={"right": "Bobby", "left": "Ann"})
    assert db.round(rid).seating == {"right": "Bobby", "left": "Ann"}
    assert db.session(sid).players == ("Ann", "Bob", "Bobby")
