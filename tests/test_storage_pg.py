"""The same store on PostgreSQL: round-trip, edit/delete, interrupted save, two writers.

Uses ``$SHISANSHUI_TEST_PG_URL`` when set; otherwise starts a throwaway server from
Debian's ``postgresql`` package (``initdb``/``pg_ctl``, as the ``postgres`` user when
run as root). Skips, saying why, when neither is possible.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.storage import Database

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (the test extra)")

from test_storage import ANN_BOB, check_concurrent_writers, new_session, save, scored  # noqa: E402


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_user(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL as another user")
    return [runuser, "-u", "postgres", "--", *cmd]


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    configured = os.environ.get("SHISANSHUI_TEST_PG_URL")
    if configured:
        yield configured
        return
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql) and no $SHISANSHUI_TEST_PG_URL")
    folder = Path(tempfile.mkdtemp(prefix="referee-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data = folder / "data"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    init = subprocess.run(_as_user([str(bin_dir / "initdb"), "-D", str(data), "-U", "referee", "--auth=trust",
                                    "-E", "UTF8", "--no-sync"]), capture_output=True, text=True)
    if init.returncode != 0:
        pytest.skip(f"initdb failed: {init.stderr.strip()[-300:]}")
    start = subprocess.run(_as_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w",
                                     "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off",
                                     "start"]), capture_output=True, text=True)
    if start.returncode != 0:
        pytest.skip(f"PostgreSQL did not start: {start.stderr.strip()[-300:]}")
    try:
        url = f"postgresql://referee@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(url).close()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        subprocess.run(_as_user([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def db(pg_url: str) -> Iterator[Database]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    yield Database(pg_url)


def test_pg_round_trip_edit_delete(db: Database) -> None:
    assert db.engine == "postgresql"
    sid = new_session(db)
    first = save(db, sid, photo=b"photo")
    save(db, sid, photo=b"photo")
    assert db.photo_count() == 1
    record = db.round(first)
    assert record.hands == ANN_BOB and record.settlement == scored(ANN_BOB)
    assert db.photo(record.photo_sha256 or "") == (b"photo", "image/jpeg")
    ann = record.scores["Ann"]
    swapped = {"players": [dict(ANN_BOB["players"][0], name="Bob"), dict(ANN_BOB["players"][1], name="Ann")]}
    db.update_round(first, hands=swapped, settlement=scored(swapped))
    assert db.totals(sid) == {"Ann": 0, "Bob": 0}
    db.delete_round(first)
    assert db.totals(sid) == {"Ann": ann, "Bob": -ann}
    assert "Ann" in db.export_csv(sid)
    assert Database(db.location).schema_version() == db.schema_version()  # migrations run once


def test_pg_interrupted_save(db: Database) -> None:
    sid = new_session(db)
    save(db, sid)
    before = db.export_json(sid)

    def crash(step: str) -> None:
        if step == "scores":
            raise KeyboardInterrupt
    db.on_step = crash
    with pytest.raises(KeyboardInterrupt):
        save(db, sid, photo=b"lost")
    assert db.export_json(sid) == before and db.photo_count() == 0


def test_pg_two_writers(db: Database) -> None:
    check_concurrent_writers(db, lambda: Database(db.location), threads=4, rounds_each=5)
