"""Reads together (`ReadScope.together`, `Connection.fetch_together`): independent reads of a
unit of work's repositories send their queries at once — on SQLite in one trip to the
database thread, after the deferred statements — and each gets exactly what it would have
read alone; a failing read fails alone (its error raised, the others served), a deferred
statement failing fails them all and the unit."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import warnings

import pytest

from storage.database import Database, SqliteDatabase
from storage.errors import DatabaseError, IntegrityError
from storage.guild import GuildStore, UnitOfWork
from storage.matches import BoardRecord
from tests.storage.test_deferred_statements import trips
from tests.storage.test_unit_of_work_costs import _season

GUILD = 32


async def _alone(uow: UnitOfWork, season: int, match: int) -> tuple[object, ...]:
    """The three reads one after the other."""
    return (
        await uow.seasons.get(season),
        await uow.matches.boards(match),
        await uow.matches.at_start(match),
    )


async def test_reads_together_read_what_each_reads_alone_in_one_trip(database: Database) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])  # deferred
        alone = await _alone(uow, season, match)
        with trips(database) as count:
            together = await uow.together(
                uow.seasons.get(season), uow.matches.boards(match), uow.matches.at_start(match)
            )
        assert together == alone
        assert together[1] == [BoardRecord(1, "a", "b", 4, 0)]  # the deferred write seen
        uow.abandon()
    if isinstance(database, SqliteDatabase):
        assert count[0] == 1
    else:  # PostgreSQL: one round trip per query, the same outcome
        assert count[0] == 3


async def test_a_read_asking_twice_gets_a_second_trip(database: Database) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)

    async def twice() -> tuple[object, object]:
        return await uow.seasons.get(season), await uow.matches.boards(match)

    async with store.change(1, "t", "x") as uow:
        with trips(database) as count:
            first, second = await uow.together(twice(), uow.matches.at_start(match))
        assert first == (await uow.seasons.get(season), [])
        assert second == []
        uow.abandon()
    if isinstance(database, SqliteDatabase):
        assert count[0] == 2


@pytest.mark.sqlite_only
async def test_a_failing_read_fails_alone(database: Database) -> None:
    """On SQLite a refused query leaves the transaction usable: the others are served, the
    failing read's own error is raised, and the unit may still commit what it wrote."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    served: list[object] = []

    async def kept() -> object:
        served.append(await uow.matches.boards(match))
        return served[-1]

    async def broken() -> object:
        return await uow.matches._scope.fetchall("SELECT * FROM no_such_table")

    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
        with pytest.raises(sqlite3.OperationalError, match="no_such_table"):
            await uow.together(kept(), broken())
        assert served == [[BoardRecord(1, "a", "b", 4, 0)]]
    async with store.read() as view:
        assert await view.matches.boards(match) == [BoardRecord(1, "a", "b", 4, 0)]


async def test_a_deferred_statement_failing_fails_every_read_and_the_unit(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    with pytest.raises(DatabaseError):
        async with store.change(1, "t", "x") as uow:
            # two boards of one number: the deferred insert breaks the primary key
            await uow.matches.replace_boards(
                match, [BoardRecord(1, "a", "b", 4, 0), BoardRecord(1, "c", "d", 4, 0)]
            )
            with pytest.raises(IntegrityError):
                await uow.together(uow.seasons.get(season), uow.matches.boards(match))
    async with store.read() as view:
        assert await view.matches.boards(match) == []


async def test_together_inside_together_is_refused(database: Database) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)

    async def nested() -> object:
        return await uow.together(uow.seasons.get(season), uow.matches.boards(match))

    async with store.change(1, "t", "x") as uow:
        with pytest.raises(RuntimeError, match="inside together"):
            await uow.together(nested(), uow.matches.boards(match))
        uow.abandon()


async def test_a_read_waiting_on_something_else_first_is_served_after_it(
    database: Database,
) -> None:
    """Reads run in the caller's task, step by step: one that waits on a lock or a pass of
    the event loop before its query gets there all the same, with the others' rows."""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    lock = asyncio.Lock()
    await lock.acquire()

    async def after_a_pass() -> object:
        await asyncio.sleep(0)
        return await uow.seasons.get(season)

    async def after_the_lock() -> object:
        async with lock:
            return await uow.matches.boards(match)

    async with store.change(1, "t", "x") as uow:
        asyncio.get_running_loop().call_soon(lock.release)
        passed, locked, alone = await uow.together(
            after_a_pass(), after_the_lock(), uow.matches.at_start(match)
        )
        assert passed == await uow.seasons.get(season)
        assert (locked, alone) == ([], [])
        uow.abandon()


async def test_a_read_waiting_on_another_reads_lock_is_not_left_waiting(
    database: Database,
) -> None:
    """One read holds a lock while its query is out, another waits on that lock: the queries
    asked go first, so both finish (as with gather)."""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    lock = asyncio.Lock()

    async def holding() -> object:
        async with lock:
            return await uow.matches.boards(match)

    async def waiting() -> object:
        async with lock:
            return await uow.seasons.get(season)

    async with store.change(1, "t", "x") as uow:
        held, got = await asyncio.wait_for(uow.together(holding(), waiting()), 10)
        assert held == [] and got == await uow.seasons.get(season)
        uow.abandon()


async def test_cancelling_together_passes_a_lock_handed_to_a_read_on(
    database: Database,
) -> None:
    """Cancelled while a read waits on a lock that was just handed to it, `together` stops
    the read as a task is stopped: the lock goes on to the next waiter."""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    lock = asyncio.Lock()
    await lock.acquire()
    async with store.read() as view:

        async def locked() -> object:
            async with lock:
                return await view.matches.boards(match)

        async def third() -> str:
            async with lock:
                return "the third got the lock"

        main = asyncio.ensure_future(view.together(locked(), view.seasons.get(season)))
        for _ in range(5):
            await asyncio.sleep(0)  # main now waits on the lock
        other = asyncio.ensure_future(third())
        await asyncio.sleep(0)  # queued behind main's read
        lock.release()  # handed to main's read ...
        main.cancel()  # ... cancelled before it runs on
        with pytest.raises(asyncio.CancelledError):
            await main
        assert await asyncio.wait_for(other, 10) == "the third got the lock"


@pytest.mark.sqlite_only
async def test_another_tasks_query_on_the_scope_meanwhile_is_its_own(
    database: Database,
) -> None:
    """A read of `together` that hands a query to a task of its own (or any other task on
    the scope) is answered: only the calling task's queries wait for the batch. (SQLite's
    thread takes one call after another; a PostgreSQL connection refuses two queries at
    once from two tasks, with or without `together`, as with `gather`.)"""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    async with store.read() as view:

        async def through_a_task() -> object:
            return await asyncio.ensure_future(view.seasons.get(season))

        spawned, boards = await asyncio.wait_for(
            view.together(through_a_task(), view.matches.boards(match)), 10
        )
        assert spawned == await view.seasons.get(season) and boards == []


async def test_a_bad_argument_is_refused_and_leaves_the_unit_usable(database: Database) -> None:
    """Something that is not awaitable among the reads: refused before any read runs (the
    reads given are closed, never left unawaited), and the unit of work goes on as before."""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        read = uow.seasons.get(season)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a coroutine never awaited would warn
            with pytest.raises(AttributeError, match="__await__"):
                await uow.together(read, 42)  # type: ignore[call-overload]
            gc.collect()
        assert read.cr_frame is None  # closed
        record, boards = await uow.together(uow.seasons.get(season), uow.matches.boards(match))
        assert record is not None and record.id == season and boards == []
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
    async with store.read() as view:
        assert await view.matches.boards(match) == [BoardRecord(1, "a", "b", 4, 0)]
