"""`arbiter db backup` (storage/engine/backup.py) while the bot reads and writes the database: a
unit
of work that has sent its writes but not committed, and a read block holding its
snapshot, neither block the backup nor leak into it; the copy (a SQLite file, from either
backend) is the last commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.backends import backup_to

GUILD = 34


def _role_in(path: Path) -> int | None:
    """The guild's hq role in the database file at `path` (a plain sqlite3 read)."""
    connection = sqlite3.connect(path)
    try:
        row = connection.execute(
            "SELECT hq_role_id FROM guild_settings WHERE guild_id = ?", (GUILD,)
        ).fetchone()
        return None if row is None else int(row[0])
    finally:
        connection.close()


async def test_a_backup_during_an_open_unit_and_an_open_read_copies_the_last_commit(
    database: Database, tmp_path: Path
) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=1)
    written, release = asyncio.Event(), asyncio.Event()

    async def open_unit() -> None:
        async with store.change(1, "setup.set", "guild_settings") as uow:
            await uow.settings.update(hq_role_id=2)
            await uow._scope.execute(
                "UPDATE guild_settings SET arbiter_role_id = 5 WHERE guild_id = ?", (GUILD,)
            )  # the write is in the database, uncommitted
            written.set()
            await release.wait()

    unit = asyncio.create_task(open_unit())
    await written.wait()
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 1  # the read snapshot is open
        target = tmp_path / "copy.db"
        copied = await backup_to(database, target)  # SQLite: pages; PostgreSQL: rows
        assert copied > 0
    assert _role_in(target) == 1  # the last commit, nothing of the open unit
    release.set()
    await unit
    second = tmp_path / "copy2.db"
    await backup_to(database, second)
    assert _role_in(second) == 2
