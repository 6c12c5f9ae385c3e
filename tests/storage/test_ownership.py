"""One running bot per database: the owner lock (storage/ownership.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.app.arbiter import ArbiterBot
from bot.app.config import Config, DatabaseConfig
from storage.ownership import DatabaseOwned, OwnerLock
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
        "from storage.ownership import OwnerLock; "
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
