"""The bot and the CLI on one database file: while another process holds the write lock
(BEGIN IMMEDIATE, uncommitted), the bot's reads go on at the last commit without waiting,
and its unit of work — whose BEGIN IMMEDIATE waits for the lock — fails after
the busy timeout with 'database is locked', leaving the writer clean for the next unit.
The other process is real (python -c), driven through its pipes; nothing sleeps."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path

import pytest

from storage.engine.database import Database
from storage.guild import GuildStore

GUILD = 35
LINE_TIMEOUT = 60.0
HOLDER = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
guild = int(sys.argv[2])
connection.execute("UPDATE guild_settings SET hq_role_id = 9 WHERE guild_id = ?", (guild,))
print("locked", flush=True)
sys.stdin.readline()
connection.execute("COMMIT")
print("committed", flush=True)
"""


async def _role(store: GuildStore) -> int | None:
    async with store.read() as view:
        return (await view.settings.get()).hq_role_id


@pytest.mark.sqlite_only
async def test_another_process_holding_the_write_lock(tmp_path: Path) -> None:
    """SQLite only: SQLite's file lock held by another process and the busy timeout (PostgreSQL has
    no database-wide write lock)."""
    path = tmp_path / "arbiter.db"
    database = await Database.open(path, busy_timeout_ms=200)
    holder: asyncio.subprocess.Process | None = None
    try:
        await database.migrate()
        store = GuildStore(database, GUILD)
        async with store.change(1, "setup.set", "guild_settings") as uow:
            await uow.settings.update(hq_role_id=1)
        holder = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            HOLDER,
            str(path),
            str(GUILD),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert holder.stdin is not None and holder.stdout is not None
        assert await asyncio.wait_for(holder.stdout.readline(), LINE_TIMEOUT) == b"locked\n"

        assert await asyncio.wait_for(_role(store), LINE_TIMEOUT) == 1  # no waiting
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            async with store.change(1, "setup.set", "guild_settings") as uow:
                await uow.settings.update(hq_role_id=2)
        async with database.writer() as connection:
            await connection.execute("SELECT 1")
            assert not connection.in_transaction

        holder.stdin.write(b"go\n")
        await holder.stdin.drain()
        assert await asyncio.wait_for(holder.stdout.readline(), LINE_TIMEOUT) == b"committed\n"
        assert await holder.wait() == 0
        assert await _role(store) == 9  # the other process's commit
        async with store.change(1, "setup.set", "guild_settings") as uow:
            await uow.settings.update(hq_role_id=3)
        assert await _role(store) == 3
    finally:
        if holder is not None and holder.returncode is None:  # a failed test leaves no child
            holder.kill()
            await holder.wait()
        await database.close()
