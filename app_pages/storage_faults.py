"""The app's answer to a storage fault: what happened and what to do, never a traceback.

A full disk, a read-only file, a file that is not a database (or fails SQLite's
``PRAGMA integrity_check`` when the app opens it), an unreachable PostgreSQL server,
a stored row that no longer decodes: each becomes one message on the page. The pages
keep what the user entered (the round being saved stays in the table), so pressing
the button again after fixing the cause saves it.

>>> explain(sqlite3.OperationalError("database or disk is full"), "save the round", "/data/r.sqlite3")[:60]
'The round was not saved: the disk holding the database (/dat'
"""

from __future__ import annotations

import json
import sqlite3
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import streamlit as st

from referee import storage
from referee.errors import InputError
from referee.storage import Database, is_postgres_url

#: What to tell the user, by the words SQLite uses for its errors.
_SQLITE_CAUSES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("disk is full", "disk i/o error"),
     "the disk holding the database ({where}) is full or cannot be written. Free some space on it, then "
     "press the button again"),
    (("readonly", "read-only"),
     "the database file {where} is read-only. Make it writable, or set SHISANSHUI_DB to a file you can "
     "write, then try again"),
    (("not a database", "malformed", "integrity check"),
     "{where} is not a referee database, or it is damaged. Restore a backup, or set SHISANSHUI_DB to "
     "another file (a new name starts an empty database)"),
    (("unable to open", "cannot open"),
     "the database {where} cannot be opened (its folder is missing or not writable). Set SHISANSHUI_DB "
     "to a file in a folder you can write"),
    (("locked", "busy"),
     "the database {where} is busy: another program holds it. Try again in a moment"),
)
_ACTIONS = {"save the round": "The round was not saved", "save the changes": "The changes were not saved",
            "open the database": "Rounds cannot be saved or shown", "start the session": "The session was not started",
            "delete": "Nothing was deleted"}


class IntegrityFault(sqlite3.DatabaseError):
    """The database failed ``PRAGMA integrity_check`` when the app opened it."""


def _where(location: str) -> str:
    if is_postgres_url(location):  # never show a password
        parts = urlsplit(location)
        return f"PostgreSQL server {parts.hostname or 'localhost'}:{parts.port or 5432}"
    return location


def _postgres_errors() -> tuple[type[BaseException], ...]:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is optional
        return ()
    return (psycopg.Error,)


def _from_storage_code(err: BaseException) -> bool:
    """True when ``err`` was raised while referee.storage was decoding what it read (a damaged row)."""
    files = {Path(frame.f_code.co_filename).resolve() for frame, _ in traceback.walk_tb(err.__traceback__)}
    return Path(storage.__file__).resolve() in files


def explain(err: BaseException, action: str, location: str) -> str | None:
    """The message for a storage fault, or None when ``err`` is not one (a bug keeps its traceback)."""
    if isinstance(err, InputError):
        return None
    head = _ACTIONS.get(action, f"Could not {action}")
    where = _where(location)
    if isinstance(err, sqlite3.Error):
        text = str(err).lower()
        for words, cause in _SQLITE_CAUSES:
            if any(w in text for w in words):
                return f"{head}: {cause.format(where=where)}. (SQLite: {err})"
        return f"{head}: the database {where} reported an error ({err}). Try again; if it persists, " \
               "restore a backup or set SHISANSHUI_DB to another file."
    postgres = _postgres_errors()
    if postgres and isinstance(err, postgres):
        import psycopg

        if isinstance(err, psycopg.OperationalError):
            return (f"{head}: the {where} cannot be reached. Check that it is running and that the address "
                    "in SHISANSHUI_DB is right, then try again.")
        return f"{head}: the {where} refused it ({type(err).__name__}: {str(err).strip()[:200]})."
    if isinstance(err, OSError):
        return f"{head}: the database {where} cannot be used ({err.strerror or err}). Check the disk and folder."
    if isinstance(err, (json.JSONDecodeError, KeyError, TypeError, ValueError)) and _from_storage_code(err):
        return (f"{head}: a stored session or round in {where} is damaged and cannot be read "
                f"({type(err).__name__}: {str(err)[:120]}). Restore a backup of the database, or start a new "
                "database with SHISANSHUI_DB.")
    return None


@dataclass
class Outcome:
    """Set by :func:`reported`: whether the action failed, and the message shown."""

    failed: bool = False
    message: str = ""


@contextmanager
def reported(action: str, *, keep: Mapping[str, Any] | None = None) -> Iterator[Outcome]:
    """Run a storage action; a storage fault becomes one ``st.error`` (and ``outcome.failed``).

    ``keep``: what the action was saving, offered as a JSON download when it fails (the page
    keeps it too, so the button works again once the cause is fixed).
    """
    outcome = Outcome()
    try:
        yield outcome
    except Exception as err:
        message = explain(err, action, str(st.session_state.get("db_location", "")))
        if message is None:
            raise
        outcome.failed, outcome.message = True, message
        st.error(message)
        if keep is not None:
            st.caption("The round is still on this page; you can also keep a copy of it "
                       "(`referee score` reads this file).")
            st.download_button("Download this round (JSON)", json.dumps(keep, ensure_ascii=False, indent=2),
                               file_name="round.json", mime="application/json", on_click="ignore",
                               key=f"kept_{action.replace(' ', '_')}")


def run_page(render: Callable[[], None]) -> None:
    """A page's render, with any storage fault it meets (or bad input it did not catch) shown as a
    message instead of a traceback."""
    try:
        with reported("open the database"):
            render()
    except InputError as err:
        st.error(str(err))


def opened(database: Database) -> Database:
    """``database`` once it passes SQLite's ``PRAGMA integrity_check`` (PostgreSQL checks itself)."""
    if database.engine != "sqlite" or database.location == ":memory:":
        return database
    conn = sqlite3.connect(database.location, timeout=storage.SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        rows = conn.execute("PRAGMA integrity_check(5)").fetchall()
    finally:
        conn.close()
    found = [str(r[0]) for r in rows]
    if found != ["ok"]:
        raise IntegrityFault(f"integrity check failed: {'; '.join(found)[:200]}")
    return database
