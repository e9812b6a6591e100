"""Sessions and rounds on disk: SQLite by default, PostgreSQL through the same code.

A *session* is one evening at one table (date, place, players, ruleset); a *round*
is one deal: the final rows, the banker, the settlement, and where it came from
(the photo, the detector's reading, the user's corrections).

Every write is one transaction, so a crash or a closed tab never leaves half a
round. Photos and ruleset files are stored once, under their SHA-256. SQLite runs
in WAL mode with a busy timeout, and a save takes the write lock before it reads
the session's round counter (``BEGIN IMMEDIATE``), so two tabs or two processes saving
at once neither corrupt the file nor lose a round.

>>> db = Database(":memory:")
>>> sid = db.create_session(date="2026-11-29", place="home", players=["Ann", "Bob"], ruleset="classic",
...                         ruleset_toml="name = 'classic'")
>>> db.session(sid).players
('Ann', 'Bob')
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from referee.errors import InputError
from referee.round import check_name
from referee.rule_bounds import max_round_score

#: Environment variable naming the database: a file path or a ``postgresql://`` URL.
DB_ENV = "SHISANSHUI_DB"
APP_DIR_NAME = "shisanshui-referee"
SQLITE_BUSY_TIMEOUT_MS = 30_000

# Each entry moves the schema from version i to i + 1. Write SQL both engines accept;
# {pk} and {blob} are filled in per engine. Never edit a shipped entry: append one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        "CREATE TABLE photos (sha256 TEXT PRIMARY KEY, data {blob} NOT NULL, mime TEXT NOT NULL,"
        " size INTEGER NOT NULL, created_at TEXT NOT NULL)",
        "CREATE TABLE rulesets (sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, toml TEXT NOT NULL)",
        "CREATE TABLE sessions (id {pk}, date TEXT NOT NULL, place TEXT NOT NULL, players TEXT NOT NULL,"
        " ruleset_sha256 TEXT NOT NULL REFERENCES rulesets(sha256), created_at TEXT NOT NULL)",
        "CREATE TABLE rounds (id {pk}, session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,"
        " number INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,"
        " ruleset_sha256 TEXT NOT NULL REFERENCES rulesets(sha256),"
        " photo_sha256 TEXT REFERENCES photos(sha256), banker TEXT, hands TEXT NOT NULL,"
        " detections TEXT, corrections TEXT NOT NULL, settlement TEXT NOT NULL,"
        " UNIQUE (session_id, number))",
        "CREATE TABLE scores (round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,"
        " player TEXT NOT NULL, score INTEGER NOT NULL, PRIMARY KEY (round_id, player))",
        "CREATE INDEX rounds_by_session ON rounds (session_id, number)",
    ),
    (
        # Round numbers are never reused, even after the last round is deleted.
        "ALTER TABLE sessions ADD COLUMN rounds_numbered INTEGER NOT NULL DEFAULT 0",
        "UPDATE sessions SET rounds_numbered ="
        " (SELECT COALESCE(MAX(r.number), 0) FROM rounds r WHERE r.session_id = sessions.id)",
    ),
    (
        # Who sat where: {seat: player} for the round's players (seats as the photo names them).
        # Rounds saved before are left NULL: where their players sat was not recorded.
        "ALTER TABLE rounds ADD COLUMN seating TEXT",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_location() -> str:
    """``$SHISANSHUI_DB``, else ``referee.sqlite3`` in the platform's user data folder."""
    configured = os.environ.get(DB_ENV, "").strip()
    if configured:
        return configured
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(base / APP_DIR_NAME / "referee.sqlite3")


def is_postgres_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


# ------------------------------------------------------------------ records


@dataclass(frozen=True, kw_only=True)
class SessionRecord:
    id: int
    date: str
    place: str
    players: tuple[str, ...]
    ruleset: str
    ruleset_toml: str
    created_at: str

    def title(self) -> str:
        where = f" · {self.place}" if self.place else ""
        return f"{self.date}{where} · {', '.join(self.players) or 'no players yet'} · {self.ruleset}"


@dataclass(frozen=True, kw_only=True)
class RoundRecord:
    id: int
    session_id: int
    number: int
    created_at: str
    updated_at: str
    ruleset: str
    ruleset_toml: str
    photo_sha256: str | None
    banker: str | None
    hands: dict[str, Any]  # Round.to_json(): the final rows as scored
    detections: dict[str, Any] | None  # what the photo reader saw, as read
    corrections: list[dict[str, Any]]  # what the user changed before scoring
    settlement: dict[str, Any]  # Settlement.to_json()
    scores: dict[str, int] = field(default_factory=dict)
    seating: dict[str, str] = field(default_factory=dict)  # seat -> player ({} when not recorded)


# ------------------------------------------------------------------ engines


class _Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class _Engine:
    """What differs between SQLite and PostgreSQL: connecting, placeholders, types."""

    name = "sqlite"
    blob = "BLOB"
    pk = "INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, location: str) -> None:
        self.location = location
        self._memory: sqlite3.Connection | None = None
        self._memory_lock = threading.RLock()
        if location == ":memory:":
            # One shared connection: each new :memory: connection would be an empty database.
            self._memory = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self._memory.execute("PRAGMA foreign_keys = ON")
        else:
            path = Path(location)
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._raw() as conn:
                conn.execute("PRAGMA journal_mode = WAL")

    def sql(self, statement: str) -> str:
        return statement

    @contextmanager
    def _raw(self) -> Iterator[sqlite3.Connection]:
        if self._memory is not None:
            with self._memory_lock:
                yield self._memory
            return
        conn = sqlite3.connect(self.location, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        try:
            conn.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA synchronous = NORMAL")  # safe in WAL mode: a crash loses no committed state
            yield conn
        finally:
            conn.close()

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[_Cursor]:
        with self._raw() as conn:
            # IMMEDIATE takes the write lock up front, so read-then-write (next round
            # number) cannot race another writer, and waits out busy_timeout instead of failing.
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn.cursor()
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        if self._memory is not None:
            self._memory.close()


class _PostgresEngine(_Engine):
    name = "postgresql"
    blob = "BYTEA"
    pk = "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"

    def __init__(self, location: str) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise InputError("a PostgreSQL database needs the psycopg package: pip install 'psycopg[binary]'") from None
        self.location = location
        self._memory = None

    def sql(self, statement: str) -> str:
        return statement.replace("?", "%s")

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[_Cursor]:
        import psycopg

        with psycopg.connect(self.location) as conn, conn.transaction(), conn.cursor() as cur:
            if write:
                # Serialise writers the way BEGIN IMMEDIATE does for SQLite: one lock for the
                # referee's tables, held to the end of the transaction.
                cur.execute("SELECT pg_advisory_xact_lock(13131313)")
            yield cur

    def close(self) -> None:
        pass


# ------------------------------------------------------------------ the database


class Database:
    """The referee's store. ``location``: a file path, ``:memory:`` or a PostgreSQL URL."""

    def __init__(self, location: str | Path | None = None) -> None:
        self.location = str(location) if location is not None else default_location()
        self._engine: _Engine = (_PostgresEngine(self.location) if is_postgres_url(self.location)
                                 else _Engine(self.location))
        #: Test hook: called with the name of each step inside a save, to interrupt it.
        self.on_step: Callable[[str], None] = lambda step: None
        self.migrate()

    @property
    def engine(self) -> str:
        return self._engine.name

    def close(self) -> None:
        self._engine.close()

    @contextmanager
    def _tx(self, *, write: bool = False) -> Iterator[Callable[..., _Cursor]]:
        with self._engine.transaction(write=write) as cur:
            def run(statement: str, *params: Any) -> _Cursor:
                cur.execute(self._engine.sql(statement), params)
                return cur
            yield run

    # ---------------------------------------------------------- schema

    def schema_version(self) -> int:
        with self._tx() as run:
            return self._version(run)

    def _version(self, run: Callable[..., _Cursor]) -> int:
        row = run("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def migrate(self) -> None:
        """Create the schema, or bring an older one up to :data:`SCHEMA_VERSION`, one step per transaction."""
        with self._tx(write=True) as run:
            run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)")
        while True:
            with self._tx(write=True) as run:
                version = self._version(run)
                if version > SCHEMA_VERSION:
                    raise InputError(f"database {self.location} has schema version {version}, newer than this "
                                     f"referee ({SCHEMA_VERSION}): update the referee")
                if version == SCHEMA_VERSION:
                    return
                for statement in MIGRATIONS[version]:
                    run(statement.format(pk=self._engine.pk, blob=self._engine.blob))
                run("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", version + 1, _now())

    # ---------------------------------------------------------- sessions

    def _put_ruleset(self, run: Callable[..., _Cursor], name: str, toml: str) -> str:
        digest = sha256(toml)
        run("INSERT INTO rulesets (sha256, name, toml) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
            digest, name, toml)
        return digest

    def create_session(self, *, date: str, place: str, players: Sequence[str], ruleset: str,
                       ruleset_toml: str) -> int:
        names = _clean_players(players)
        with self._tx(write=True) as run:
            digest = self._put_ruleset(run, ruleset, ruleset_toml)
            row = run("INSERT INTO sessions (date, place, players, ruleset_sha256, created_at) "
                      "VALUES (?, ?, ?, ?, ?) RETURNING id",
                      date, place.strip(), json.dumps(names, ensure_ascii=False), digest, _now()).fetchone()
            return int(row[0])

    def update_session(self, session_id: int, *, date: str | None = None, place: str | None = None,
                       players: Sequence[str] | None = None) -> None:
        current = self.session(session_id)
        with self._tx(write=True) as run:
            run("UPDATE sessions SET date = ?, place = ?, players = ? WHERE id = ?",
                date if date is not None else current.date,
                place.strip() if place is not None else current.place,
                json.dumps(_clean_players(players) if players is not None else list(current.players),
                           ensure_ascii=False),
                session_id)

    def delete_session(self, session_id: int) -> None:
        with self._tx(write=True) as run:
            run("DELETE FROM sessions WHERE id = ?", session_id)

    _SESSION_COLUMNS = ("SELECT s.id, s.date, s.place, s.players, r.name, r.toml, s.created_at "
                        "FROM sessions s JOIN rulesets r ON r.sha256 = s.ruleset_sha256")

    @staticmethod
    def _session_record(row: Sequence[Any]) -> SessionRecord:
        return SessionRecord(id=int(row[0]), date=row[1], place=row[2], players=tuple(json.loads(row[3])),
                             ruleset=row[4], ruleset_toml=row[5], created_at=row[6])

    def sessions(self) -> list[SessionRecord]:
        """Every session, newest first."""
        with self._tx() as run:
            rows = run(self._SESSION_COLUMNS + " ORDER BY s.date DESC, s.id DESC").fetchall()
        return [self._session_record(r) for r in rows]

    def session(self, session_id: int) -> SessionRecord:
        with self._tx() as run:
            row = run(self._SESSION_COLUMNS + " WHERE s.id = ?", session_id).fetchone()
        if row is None:
            raise InputError(f"no session {session_id}")
        return self._session_record(row)

    # ---------------------------------------------------------- rounds

    def save_round(self, session_id: int, *, hands: Mapping[str, Any], settlement: Mapping[str, Any],
                   ruleset: str, ruleset_toml: str, photo: bytes | None = None, photo_mime: str = "image/jpeg",
                   detections: Mapping[str, Any] | None = None,
                   corrections: Sequence[Mapping[str, Any]] = (), seating: Mapping[str, str] | None = None) -> int:
        """Store one scored round as the session's next round; returns its id. All or nothing.
        ``seating``: which player sat at which seat of the photo (``{"bottom": "Ann", ...}``)."""
        scores = _scores_of(settlement)
        seats = _seating_of(seating, scores)
        now = _now()
        with self._tx(write=True) as run:
            row = run("SELECT rounds_numbered FROM sessions WHERE id = ?", session_id).fetchone()
            if row is None:
                raise InputError(f"no session {session_id}")
            number = int(row[0]) + 1
            photo_hash = None
            if photo is not None:
                photo_hash = sha256(photo)
                run("INSERT INTO photos (sha256, data, mime, size, created_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (sha256) DO NOTHING", photo_hash, photo, photo_mime, len(photo), now)
                self.on_step("photo")
            rules_hash = self._put_ruleset(run, ruleset, ruleset_toml)
            run("UPDATE sessions SET rounds_numbered = ? WHERE id = ?", number, session_id)
            row = run("INSERT INTO rounds (session_id, number, created_at, updated_at, ruleset_sha256, photo_sha256,"
                      " banker, hands, detections, corrections, settlement, seating) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                      session_id, number, now, now, rules_hash, photo_hash, hands.get("banker"), _dump(hands),
                      None if detections is None else _dump(detections), _dump(list(corrections)),
                      _dump(settlement), None if seats is None else _dump(seats)).fetchone()
            round_id = int(row[0])
            self.on_step("round")
            self._put_scores(run, round_id, scores)
            self.on_step("scores")
            self._add_players(run, session_id, list(scores))
            return round_id

    def update_round(self, round_id: int, *, hands: Mapping[str, Any], settlement: Mapping[str, Any],
                     corrections: Sequence[Mapping[str, Any]] | None = None,
                     seating: Mapping[str, str] | None = None) -> None:
        """Replace a round's rows and scores (an edit after the fact; the players' names and seats
        too: ``seating`` None keeps the seats recorded, renamed as ``hands`` renames). All or nothing."""
        scores = _scores_of(settlement)
        new_seats = _seating_of(seating, scores)
        with self._tx(write=True) as run:
            row = run("SELECT session_id, corrections, seating, hands FROM rounds WHERE id = ?", round_id).fetchone()
            if row is None:
                raise InputError(f"no round {round_id}")
            kept = json.loads(row[1]) if corrections is None else list(corrections)
            if new_seats is None and row[2] is not None:  # the same seats, each under its player's new name
                old_names = [p["name"] for p in json.loads(row[3]).get("players", [])]
                new_names = [p["name"] for p in hands.get("players", [])]
                renamed = dict(zip(old_names, new_names, strict=False))
                new_seats = {seat: renamed.get(who, who) for seat, who in json.loads(row[2]).items()
                             if renamed.get(who, who) in scores}
            run("UPDATE rounds SET hands = ?, banker = ?, settlement = ?, corrections = ?, updated_at = ?, "
                "seating = ? WHERE id = ?", _dump(hands), hands.get("banker"), _dump(settlement), _dump(kept), _now(),
                None if new_seats is None else _dump(new_seats), round_id)
            self.on_step("round")
            run("DELETE FROM scores WHERE round_id = ?", round_id)
            self._put_scores(run, round_id, scores)
            self.on_step("scores")
            self._add_players(run, int(row[0]), list(scores))

    def rename_player(self, session_id: int, old: str, new: str) -> None:
        """Call ``old`` ``new`` everywhere in a session: its players, every round's rows, seats, banker,
        settlement and scores, so the totals follow. When ``new`` is already a player of the session the
        two are one person (a seat saved under the wrong name); refused where both played one round.
        All or nothing."""
        new = new.strip()
        if not new:
            raise InputError("give the player's new name")
        with self._tx(write=True) as run:
            row = run("SELECT players FROM sessions WHERE id = ?", session_id).fetchone()
            if row is None:
                raise InputError(f"no session {session_id}")
            players: list[str] = json.loads(row[0])
            if old not in players:
                raise InputError(f"{old!r} is not a player of session {session_id}")
            rounds = run("SELECT id, number, hands, settlement, seating, banker FROM rounds WHERE session_id = ?",
                         session_id).fetchall()
            for round_id, number, hands_text, settlement_text, seating_text, banker in rounds:
                hands = json.loads(hands_text)
                names = [p["name"] for p in hands.get("players", [])]
                if old not in names:
                    continue
                if new in names:
                    raise InputError(f"{old} and {new} both played round {number}: they are two players")
                settlement = _renamed_settlement(json.loads(settlement_text), old, new)
                for player in hands.get("players", []):
                    if player["name"] == old:
                        player["name"] = new
                if hands.get("banker") == old:
                    hands["banker"] = new
                seating = None if seating_text is None else {seat: new if who == old else who
                                                             for seat, who in json.loads(seating_text).items()}
                run("UPDATE rounds SET hands = ?, settlement = ?, seating = ?, banker = ?, updated_at = ? "
                    "WHERE id = ?", _dump(hands), _dump(settlement), None if seating is None else _dump(seating),
                    new if banker == old else banker, _now(), round_id)
                run("UPDATE scores SET player = ? WHERE round_id = ? AND player = ?", new, round_id, old)
            merged = [new if p == old else p for p in players]
            run("UPDATE sessions SET players = ? WHERE id = ?", json.dumps(_clean_players(merged),
                                                                             ensure_ascii=False), session_id)

    def delete_round(self, round_id: int) -> None:
        """Delete a round (its photo stays while another round uses it)."""
        with self._tx(write=True) as run:
            row = run("SELECT photo_sha256 FROM rounds WHERE id = ?", round_id).fetchone()
            if row is None:
                raise InputError(f"no round {round_id}")
            run("DELETE FROM scores WHERE round_id = ?", round_id)
            run("DELETE FROM rounds WHERE id = ?", round_id)
            if row[0] is not None:
                run("DELETE FROM photos WHERE sha256 = ? AND NOT EXISTS "
                    "(SELECT 1 FROM rounds WHERE photo_sha256 = ?)", row[0], row[0])

    @staticmethod
    def _put_scores(run: Callable[..., _Cursor], round_id: int, scores: Mapping[str, int]) -> None:
        for player, score in scores.items():
            run("INSERT INTO scores (round_id, player, score) VALUES (?, ?, ?)", round_id, player, score)

    @staticmethod
    def _add_players(run: Callable[..., _Cursor], session_id: int, names: list[str]) -> None:
        """A session's players list grows with every new name that plays a round."""
        row = run("SELECT players FROM sessions WHERE id = ?", session_id).fetchone()
        players: list[str] = json.loads(row[0])
        missing = [n for n in names if n not in players]
        if missing:
            run("UPDATE sessions SET players = ? WHERE id = ?",
                json.dumps(players + missing, ensure_ascii=False), session_id)

    _ROUND_COLUMNS = ("SELECT r.id, r.session_id, r.number, r.created_at, r.updated_at, s.name, s.toml,"
                      " r.photo_sha256, r.banker, r.hands, r.detections, r.corrections, r.settlement, r.seating "
                      "FROM rounds r JOIN rulesets s ON s.sha256 = r.ruleset_sha256")

    def rounds(self, session_id: int) -> list[RoundRecord]:
        """A session's rounds in play order, each with its scores."""
        with self._tx() as run:
            rows = run(self._ROUND_COLUMNS + " WHERE r.session_id = ? ORDER BY r.number", session_id).fetchall()
            score_rows = run("SELECT c.round_id, c.player, c.score FROM scores c JOIN rounds r ON r.id = c.round_id "
                             "WHERE r.session_id = ?", session_id).fetchall()
        scores: dict[int, dict[str, int]] = {}
        for round_id, player, score in score_rows:
            scores.setdefault(int(round_id), {})[player] = _stored_score(score)
        return [self._round_record(r, scores.get(int(r[0]), {})) for r in rows]

    def round(self, round_id: int) -> RoundRecord:
        with self._tx() as run:
            row = run(self._ROUND_COLUMNS + " WHERE r.id = ?", round_id).fetchone()
            if row is None:
                raise InputError(f"no round {round_id}")
            score_rows = run("SELECT player, score FROM scores WHERE round_id = ?", round_id).fetchall()
        return self._round_record(row, {p: _stored_score(s) for p, s in score_rows})

    @staticmethod
    def _round_record(row: Sequence[Any], scores: dict[str, int]) -> RoundRecord:
        hands = json.loads(row[9])
        order = [p["name"] for p in hands.get("players", [])]
        ordered = {n: scores[n] for n in order if n in scores} | scores
        return RoundRecord(id=int(row[0]), session_id=int(row[1]), number=int(row[2]), created_at=row[3],
                           updated_at=row[4], ruleset=row[5], ruleset_toml=row[6], photo_sha256=row[7],
                           banker=row[8], hands=hands, detections=None if row[10] is None else json.loads(row[10]),
                           corrections=json.loads(row[11]), settlement=json.loads(row[12]), scores=ordered,
                           seating={} if row[13] is None else json.loads(row[13]))

    def photo(self, digest: str) -> tuple[bytes, str] | None:
        """A stored photo's bytes and MIME type."""
        with self._tx() as run:
            row = run("SELECT data, mime FROM photos WHERE sha256 = ?", digest).fetchone()
        return None if row is None else (bytes(row[0]), row[1])

    def photo_count(self) -> int:
        with self._tx() as run:
            return int(run("SELECT COUNT(*) FROM photos").fetchone()[0])

    # ---------------------------------------------------------- totals and export

    def totals(self, session_id: int) -> dict[str, int]:
        """Each player's total over the session (every player of the session, 0 if unplayed)."""
        players = self.session(session_id).players
        with self._tx() as run:
            rows = run("SELECT c.player, c.score FROM scores c JOIN rounds r ON r.id = c.round_id "
                       "WHERE r.session_id = ? ORDER BY r.number", session_id).fetchall()
        sums: dict[str, int] = {}
        for p, s in rows:  # summed here: Python integers cannot overflow, SQL's SUM can
            sums[p] = sums.get(p, 0) + _stored_score(s)
        return {p: sums.get(p, 0) for p in players} | sums

    def running_totals(self, session_id: int) -> list[dict[str, int]]:
        """After each round (in order): every player's running total, as ``{"round": n, name: total, ...}``."""
        players = list(self.session(session_id).players)
        running = dict.fromkeys(players, 0)
        out = []
        for record in self.rounds(session_id):
            for name, score in record.scores.items():
                running[name] = running.get(name, 0) + score
            out.append({"round": record.number} | running)
        return out

    def export_json(self, session_id: int) -> dict[str, Any]:
        session = self.session(session_id)
        return {
            "format": "shisanshui-referee session",
            "schema_version": SCHEMA_VERSION,
            "session": {"id": session.id, "date": session.date, "place": session.place,
                        "players": list(session.players), "ruleset": session.ruleset,
                        "ruleset_toml": session.ruleset_toml, "created_at": session.created_at},
            "rounds": [
                {"number": r.number, "created_at": r.created_at, "updated_at": r.updated_at, "ruleset": r.ruleset,
                 "banker": r.banker, "photo_sha256": r.photo_sha256, "round": r.hands, "scores": r.scores,
                 "settlement": r.settlement, "corrections": r.corrections, "detections": r.detections,
                 "seating": r.seating}
                for r in self.rounds(session_id)
            ],
            "totals": self.totals(session_id),
        }

    def export_csv(self, session_id: int) -> str:
        """One line per player per round: rows, foul, special, score and running total."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["round", "time", "ruleset", "banker", "player", "head", "middle", "tail", "foul",
                         "special", "score", "running_total"])
        running: dict[str, int] = {}
        for r in self.rounds(session_id):
            results = {p["name"]: p for p in r.settlement.get("players", [])}
            for hand in r.hands.get("players", []):
                name = hand["name"]
                result = results.get(name, {})
                running[name] = running.get(name, 0) + r.scores.get(name, 0)
                writer.writerow([r.number, r.created_at, r.ruleset, r.banker or "", name, hand["head"],
                                 hand["middle"], hand["tail"], "yes" if result.get("foul") else "",
                                 result.get("special") or "", r.scores.get(name, 0), running[name]])
        return out.getvalue()


def _dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def _clean_players(players: Sequence[str]) -> list[str]:
    names: list[str] = []
    for raw in players:
        name = raw.strip()
        if name:
            check_name(name)
        if name and name not in names:
            names.append(name)
    return names


def _seating_of(seating: Mapping[str, str] | None, scores: Mapping[str, int]) -> dict[str, str] | None:
    """A round's seats, checked: each of its players at most once, no one who did not play."""
    if seating is None:
        return None
    seats = {str(seat): str(who) for seat, who in seating.items()}
    strangers = sorted(set(seats.values()) - set(scores))
    if strangers:
        raise InputError(f"the seating names {', '.join(strangers)}, who did not play this round")
    if len(set(seats.values())) != len(seats):
        raise InputError("the seating puts one player at two seats")
    return seats


def _renamed_settlement(settlement: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A Settlement.to_json() with one player's name changed wherever it names them."""
    def swap(value: Any) -> Any:
        return new if value == old else value

    def named(item: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
        return {k: swap(v) if k in keys else v for k, v in item.items()}

    out = named(settlement, ("banker",))
    out["players"] = [named(p, ("name",)) for p in settlement.get("players", [])]
    out["pairs"] = [named(p, ("a", "b", "special_winner")) for p in settlement.get("pairs", [])]
    return out


def _stored_score(value: Any) -> int:
    """A score as read back; one no ruleset can give is a damaged row, not a number to add up."""
    score = int(value)
    if abs(score) > max_round_score():
        raise ValueError(f"a stored score of {score} is beyond what any ruleset can give")
    return score


def _scores_of(settlement: Mapping[str, Any]) -> dict[str, int]:
    players = settlement.get("players")
    if not isinstance(players, list) or not players:
        raise InputError("a round to save needs a settlement with players")
    scores = {str(p["name"]): int(p["score"]) for p in players}
    if any(abs(score) > max_round_score() for score in scores.values()):
        raise InputError(f"a score in this settlement is beyond what any ruleset can give ({max_round_score():,})")
    if sum(scores.values()) != 0:
        raise InputError(f"a settlement must be zero-sum, got a total of {sum(scores.values())}")
    return scores
