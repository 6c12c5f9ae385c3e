"""The reader connection: a `read()` outside a unit of work neither waits behind an open write
transaction nor sees part of one, sees one snapshot for its whole block, and cannot write."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.engine.database import Database
from storage.engine.errors import DatabaseError
from storage.guild import GuildStore
from storage.shared.web_sites import published_site

GUILD = 3


async def _hq_role(store: GuildStore) -> int | None:
    async with store.read() as view:
        return (await view.settings.get()).hq_role_id


async def _set(store: GuildStore, role: int) -> None:
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=role)


async def test_a_read_does_not_wait_behind_an_open_unit_of_work_nor_see_its_writes(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    await _set(store, 1)
    written, release = asyncio.Event(), asyncio.Event()

    async def slow_change() -> None:
        async with store.change(1, "setup.set", "guild_settings") as uow:
            await uow.settings.update(hq_role_id=2)
            written.set()
            await release.wait()

    task = asyncio.create_task(slow_change())
    await written.wait()
    # the writer is held inside its transaction; the read completes and sees the last commit
    assert await asyncio.wait_for(_hq_role(store), timeout=5) == 1
    release.set()
    await task
    assert await _hq_role(store) == 2


async def test_a_read_block_is_one_snapshot_while_another_task_commits(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    await _set(store, 1)
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 1
        await asyncio.create_task(_set(store, 2))  # another task commits meanwhile
        assert (await view.settings.get()).hq_role_id == 1
        async with store.read() as nested:  # the same task: the same snapshot
            assert (await nested.settings.get()).hq_role_id == 1
    assert await _hq_role(store) == 2


async def test_the_reader_cannot_write_and_stays_usable(database: Database) -> None:
    with pytest.raises(DatabaseError, match=r"readonly|read-only"):
        async with database.read() as connection:
            await connection.execute("CREATE TABLE t (x INTEGER)")
    assert "t" not in await database.tables()
    async with database.read() as connection:
        cursor = await connection.execute("SELECT count(*) FROM audit")
        assert connection.in_transaction  # the block's snapshot is open
        assert (await cursor.fetchone())[0] == 0
    store = GuildStore(database, GUILD)
    await _set(store, 4)
    assert await _hq_role(store) == 4


async def test_a_read_block_that_raises_ends_its_snapshot(database: Database) -> None:
    store = GuildStore(database, GUILD)
    await _set(store, 1)
    with pytest.raises(RuntimeError):
        async with store.read() as view:
            assert (await view.settings.get()).hq_role_id == 1
            raise RuntimeError("the caller failed")
    await _set(store, 2)
    assert await _hq_role(store) == 2  # not the old snapshot's 1


async def test_a_unit_of_work_inside_a_read_block_is_refused(database: Database) -> None:
    store = GuildStore(database, GUILD)
    async with store.read():
        with pytest.raises(RuntimeError, match="unit of work inside a unit of work"):
            await _set(store, 5)
    assert await _hq_role(store) is None


@pytest.mark.sqlite_only
async def test_an_in_memory_database_reads_through_its_one_connection() -> None:
    """SQLite's in-memory database: one connection, no reader beside it."""
    database = await Database.open(":memory:")
    try:
        await database.migrate()
        store = GuildStore(database, GUILD)
        await _set(store, 6)
        assert await _hq_role(store) == 6
        assert not Path(":memory:").exists()
    finally:
        await database.close()


async def test_a_read_inside_a_unit_of_work_sees_its_writes(database: Database) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=7)
        assert await _hq_role(store) == 7


async def test_a_lone_query_sees_the_last_commit_and_inside_a_block_its_snapshot(
    database: Database,
) -> None:
    """`fetch` reads a published site in one query, on every backend."""
    store = GuildStore(database, GUILD)
    async with store.change(1, "setup.web", "web") as uow:
        await uow.web_sites.publish("club")
    first = await published_site(database, "club")
    assert first is not None and first[0] == GUILD
    async with store.read():
        assert await published_site(database, "club") == first
        await asyncio.create_task(_set(store, 2))  # another task commits meanwhile
        assert await published_site(database, "club") == first  # the block's own snapshot
    last = await published_site(database, "club")
    assert last is not None and last[1] > first[1]
    assert await published_site(database, "other") is None


async def test_a_lone_query_of_another_task_waits_for_a_read_block_not_inside_it(
    database: Database,
) -> None:
    """`fetch` from another task does not run inside an open read block's snapshot: it waits
    for the block to end, then sees the last commit."""
    store = GuildStore(database, GUILD)
    async with store.change(1, "setup.web", "web") as uow:
        await uow.web_sites.publish("club")
    first = await published_site(database, "club")
    assert first is not None
    async with store.read():
        assert await published_site(database, "club") == first
        await asyncio.create_task(_set(store, 2))  # another task commits meanwhile
        pending = asyncio.create_task(published_site(database, "club"))
        await asyncio.sleep(0)
    last = await pending
    assert last is not None and last[1] > first[1]
