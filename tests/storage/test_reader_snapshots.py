"""The reader keeps no snapshot open once its `read()` blocks are done — after a block that
read only part of a query, raised, or ran long while many units committed — so a checkpoint
can always reset SQLite's WAL file (it would otherwise grow without bound behind an idle
reader), and PostgreSQL's reader is never left idle in a transaction (holding back vacuum).
A read that waited for the reader reads the last commit, and a read that gives up waiting
leaves no snapshot open."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.backends import reader_holds_a_snapshot, write_from_another_process

GUILD = 33


async def _commit(store: GuildStore, role: int) -> None:
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=role)


async def _checkpoint(database: Database) -> tuple[int, int, int]:
    """`PRAGMA wal_checkpoint(TRUNCATE)` on the writer: (busy, log frames, checkpointed)."""
    async with database.writer() as connection:
        rows = list(await connection.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
    return tuple(rows[0])  # type: ignore[return-value]


async def test_a_half_read_query_leaves_no_snapshot_after_its_block(database: Database) -> None:
    store = GuildStore(database, GUILD)
    for role in range(50):
        await _commit(store, role)
    async with database.read() as connection:
        cursor = await connection.execute("SELECT * FROM audit")  # 50 rows
        assert await cursor.fetchone() is not None  # one read, the statement still running
    await _commit(store, 99)
    assert not await reader_holds_a_snapshot(database)  # nothing pins the old frames
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 99


async def test_a_half_read_query_does_not_leave_the_next_block_an_old_snapshot(
    database: Database,
) -> None:
    """A statement not read to its end keeps its snapshot even after ROLLBACK: a later block
    on the reader would see the data of then, not the last commit."""
    store = GuildStore(database, GUILD)
    for role in range(3):
        await _commit(store, role)
    async with database.read() as connection:
        cursor = await connection.execute("SELECT * FROM audit")
        assert await cursor.fetchone() is not None
    await _commit(store, 42)
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 42
    assert cursor is not None  # the half-read cursor is still referenced here


@pytest.mark.sqlite_only
async def test_a_long_read_sees_one_snapshot_and_the_wal_resets_after_it(
    database: Database,
) -> None:
    """SQLite's WAL file: held by the open snapshot, reset after it (PostgreSQL keeps no such
    file; one snapshot per block is test_database_reader's, on both)."""
    store = GuildStore(database, GUILD)
    await _commit(store, 1)
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 1
        for role in range(2, 102):  # another task commits (this one is reading)
            await asyncio.create_task(_commit(store, role))
            assert (await view.settings.get()).hq_role_id == 1
        # the open snapshot holds the checkpoint back: the WAL cannot be reset under it
        assert await _checkpoint(database) != (0, 0, 0)
        wal = database.path.with_name(database.path.name + "-wal")
        assert wal.stat().st_size > 0
    assert await _checkpoint(database) == (0, 0, 0)
    assert wal.stat().st_size == 0
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 101


async def test_reads_that_raise_leave_no_snapshot(database: Database) -> None:
    store = GuildStore(database, GUILD)
    await _commit(store, 1)
    for role in range(2, 6):
        with contextlib.suppress(ZeroDivisionError):
            async with store.read() as view:
                await view.settings.get()
                _ = 1 / 0
        await _commit(store, role)
        assert not await reader_holds_a_snapshot(database)


async def test_a_unit_that_half_read_a_query_does_not_lock_out_the_next_unit(
    database: Database,
) -> None:
    """The writer too: a statement of a committed unit not read to its end kept that unit's
    snapshot, and once another connection (the CLI) committed, the next BEGIN IMMEDIATE
    failed at once with 'database is locked' (a stale snapshot cannot become a writer).
    On PostgreSQL the fetched result holds nothing: the same steps pass there too."""
    store = GuildStore(database, GUILD)
    for role in range(3):
        await _commit(store, role)
    async with store.change(1, "t", "x") as uow:
        cursor = await uow._scope.execute("SELECT * FROM audit")
        assert await cursor.fetchone() is not None
        await uow.settings.update(hq_role_id=10)
    await write_from_another_process(
        database, "UPDATE guild_settings SET director_role_id = 8 WHERE guild_id = ?", (GUILD,)
    )
    await _commit(store, 11)
    async with store.read() as view:
        settings = await view.settings.get()
    assert (settings.hq_role_id, settings.director_role_id) == (11, 8)
    assert cursor is not None  # the half-read cursor is still referenced here


async def _queued_behind(
    database: Database, store: GuildStore, first_block: str
) -> tuple[int | None, int | None]:
    """A read holding the reader (`first_block`: "whole" reads its query to the end, "half"
    leaves it running) while a second read waits and another task commits: (what the first
    read, what the second read)."""
    holding, waiting = asyncio.Event(), asyncio.Event()
    seen: list[int | None] = []

    async def second() -> None:
        waiting.set()
        async with store.read() as view:
            seen.append((await view.settings.get()).hq_role_id)

    async with store.read() as view:
        seen.append((await view.settings.get()).hq_role_id)
        if first_block == "half":
            async with database.read() as connection:
                cursor = await connection.execute("SELECT * FROM audit")
                assert await cursor.fetchone() is not None  # still running
        task = asyncio.create_task(second())
        await waiting.wait()
        await asyncio.sleep(0)  # it waits for the reader now
        holding.set()
        await asyncio.create_task(_commit(store, 77))
    await task
    return seen[0], seen[1]


async def test_a_read_waiting_for_the_reader_reads_the_last_commit(database: Database) -> None:
    store = GuildStore(database, GUILD)
    await _commit(store, 1)
    for first_block in ("whole", "half"):
        await _commit(store, 1)
        before, after = await _queued_behind(database, store, first_block)
        assert (before, after) == (1, 77)
        assert not await reader_holds_a_snapshot(database)


async def test_a_read_that_gives_up_waiting_leaves_no_snapshot(database: Database) -> None:
    store = GuildStore(database, GUILD)
    await _commit(store, 1)
    waiting = asyncio.Event()

    async def second() -> None:
        waiting.set()
        async with store.read() as view:
            await view.settings.get()

    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 1
        task = asyncio.create_task(second())
        await waiting.wait()
        await asyncio.sleep(0)
    task.cancel()  # woken for the reader, cancelled before it ran a query
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert not await reader_holds_a_snapshot(database)
    await _commit(store, 5)
    async with store.read() as view:
        assert (await view.settings.get()).hq_role_id == 5


async def test_a_read_that_raises_with_another_waiting_ends_its_snapshot_itself(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    await _commit(store, 1)
    waiting, proceed = asyncio.Event(), asyncio.Event()

    async def second() -> int | None:
        waiting.set()
        async with store.read() as view:
            await proceed.wait()
            return (await view.settings.get()).hq_role_id

    with contextlib.suppress(ZeroDivisionError):
        async with store.read() as view:
            await view.settings.get()
            task = asyncio.create_task(second())
            await waiting.wait()
            await asyncio.sleep(0)
            _ = 1 / 0
    await _commit(store, 6)
    proceed.set()
    assert await task == 6
    assert not await reader_holds_a_snapshot(database)
