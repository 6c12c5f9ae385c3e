"""One running bot per database: the owner lock (storage/shared/ownership.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config, DatabaseConfig
from storage.shared.ownership import DatabaseOwned, OwnerLock
from tests.support.paths import ROOT


def test_second_owner_is_refused_until_the_first_releases(tmp_path: Path) -> None:
    database = tmp_path / "arbiter.db"
    first = OwnerLock.acquire(database)
    with pytest.raises(DatabaseOwned, match="another Arbiter"):
        OwnerLock.acquire(database)
    first.release()
    first.release()  # idempotent
    OwnerLock.acquire(database).release()


def test_a_dead_owner_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "arbiter.db"
    code = (
        "import os, sys; from pathlib import Path; "
        "from storage.shared.ownership import OwnerLock; "
        f"OwnerLock.acquire(Path({str(database)!r})); os._exit(9)"  # dies holding it
    )
    root = ROOT
    died = subprocess.run([sys.executable, "-c", code], cwd=root, timeout=60)
    assert died.returncode == 9
    OwnerLock.acquire(database).release()


@pytest.mark.sqlite_only
async def test_bot_that_runs_jobs_owns_its_database_and_frees_it_on_close(
    tmp_path: Path,
) -> None:
    """SQLite only: SQLite's owner lock file beside the database (test_postgres_backend checks the
    advisory lock PostgreSQL's ownership uses)."""
    config = Config(database=DatabaseConfig(path=tmp_path / "arbiter.db"))
    first = ArbiterBot(config)
    async with first:
        await first.open_database()
        second = ArbiterBot(config)
        with pytest.raises(DatabaseOwned):
            await second.open_database()
        reader = ArbiterBot(config, run_jobs=False)  # e.g. a tool that runs no jobs
        async with reader:
            await reader.open_database()
    third = ArbiterBot(config)
    async with third:
        await third.open_database()


def test_a_clean_release_removes_the_lock_file(tmp_path: Path) -> None:
    """Issue 20: after a clean stop no `.owner` file is left, as if a bot were running."""
    database = tmp_path / "arbiter.db"
    lock = OwnerLock.acquire(database)
    assert (tmp_path / "arbiter.db.owner").read_text() != ""
    lock.release()
    assert not (tmp_path / "arbiter.db.owner").exists()


def test_a_lock_file_removed_while_locking_is_not_owned_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An owner that locked a file its predecessor removed meanwhile (the predecessor's
    clean stop) locks the file now at the path instead: two processes never both own."""
    import fcntl
    import os

    database = tmp_path / "arbiter.db"
    owner_file = tmp_path / "arbiter.db.owner"
    real_flock = fcntl.flock
    locked = []

    def flock(descriptor: int, operation: int) -> None:
        real_flock(descriptor, operation)
        if operation & fcntl.LOCK_EX:
            locked.append(descriptor)
            if len(locked) == 1:  # the predecessor removes the file just now
                owner_file.unlink()

    monkeypatch.setattr("storage.shared.ownership.fcntl.flock", flock)
    lock = OwnerLock.acquire(database)
    assert len(locked) == 2  # the removed file was let go and the new one locked
    assert owner_file.read_text() == str(os.getpid())
    monkeypatch.undo()
    with pytest.raises(DatabaseOwned):
        OwnerLock.acquire(database)
    lock.release()
