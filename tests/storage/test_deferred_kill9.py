"""Crash safety of a unit of work: a real process killed with SIGKILL while its unit of work has
sent its writes (and spilled pages into the WAL file) but not committed leaves nothing of that
unit, and the database opens and works afterwards (tests/support/deferred_kill_child.py;
synchronised by the child's `mid` line, no sleeping)."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import BoardRecord
from tests.storage.test_unit_of_work_costs import _season
from tests.support.deferred_kill_child import GUILD
from tests.support.paths import ROOT
from tests.support.services_world import dump

LINE_TIMEOUT = 60.0  # seconds for the child's `mid`: a hung child fails the test


@pytest.mark.sqlite_only
async def test_a_unit_killed_after_its_writes_were_sent_leaves_nothing(
    tmp_path: Path,
) -> None:
    """SQLite only: A process killed while a unit's writes are uncommitted:
    SQLite's journal recovery on the file (PostgreSQL rolls back a dead session's transaction on
    the server)."""
    path = tmp_path / "arbiter.db"
    database = await Database.open(path)
    await database.migrate()
    _, match, _ = await _season(GuildStore(database, GUILD))
    before = await dump(database)
    await database.close()
    wal = path.with_name(path.name + "-wal")
    wal_before = wal.stat().st_size if wal.exists() else 0

    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.deferred_kill_child",
        str(path),
        str(match),
        cwd=ROOT,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None
    line = await asyncio.wait_for(child.stdout.readline(), LINE_TIMEOUT)
    if line != b"mid\n":
        _, err = await child.communicate()
        raise AssertionError(f"child said {line!r}: {err.decode()[-2000:]}")
    assert wal.stat().st_size > wal_before + 1_000_000  # the unit's pages reached the WAL
    child.send_signal(signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL

    database = await Database.open(path)
    try:
        assert await dump(database) == before  # no boards, no finish, no audit, no spill
        store = GuildStore(database, GUILD)
        async with store.change(1, "t", "x") as uow:  # and the file works as before
            await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 2, 2)])
        async with store.read() as view:
            boards = await view.matches.boards(match)
        assert [(b.home_half, b.away_half) for b in boards] == [(2, 2)]
    finally:
        await database.close()
