"""Units of work and read blocks cancelled at every await (BEGIN, a statement in flight, COMMIT
in flight, the read snapshot opening): afterwards neither connection is left in a
transaction, nothing of the unit leaks into the next one, the unit is all or nothing, and
a unit that did commit is announced to the listeners even though its task was cancelled."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import pytest

from storage.engine.connection import Connection
from storage.engine.database import Database, SqliteDatabase
from storage.guild import Committed, GuildStore, on_commit
from tests.support.services_world import dump

GUILD = 41
TURNS = 40
"""Event-loop turns the read sweep lets a task run before cancelling it."""


async def _role(database: Database) -> int | None:
    async with GuildStore(database, GUILD).read() as view:
        return (await view.settings.get()).hq_role_id


async def _unit(database: Database, role: int) -> None:
    """A unit with a read, some writes and a job row, so BEGIN, the statements and COMMIT
    each have their own await."""
    async with GuildStore(database, GUILD).change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.get()
        await uow.settings.update(hq_role_id=role)
        await uow._scope.execute(
            "UPDATE guild_settings SET announcements_channel_id = ? WHERE guild_id = ?",
            (role, GUILD),
        )
        await uow.jobs.schedule("t.job", f"s:{role}", uow.now)


async def _after_turns(task: asyncio.Task[object], turns: int) -> None:
    """Cancel `task` after letting the event loop turn `turns` times (unless it ended)."""
    for _ in range(turns):
        if task.done():
            return
        await asyncio.sleep(0)
    task.cancel()


async def _writer_is_clean(database: Database) -> None:
    async with database.writer() as connection:
        await connection.execute("SELECT 1")
        assert not connection.in_transaction


@contextmanager
def cancelled_at_trip(
    connection: Connection, trip: int, task: list[asyncio.Task[None]]
) -> Iterator[list[int]]:
    """Cancel `task[0]` as `connection` makes its `trip`-th hand-off to its thread (counted
    from 1, at `Connection._send`, the one place every call into aiosqlite passes), the
    statement already queued: the task's await of that trip is the one cancelled (a pending
    cancellation strikes at the first suspension, which is after aiosqlite queued the call).
    Yields `[trips made]`."""
    made = [0]
    original = connection._send

    async def hooked(call: Awaitable[Any]) -> Any:
        made[0] += 1
        if made[0] == trip:
            task[0].cancel()
        return await original(call)

    connection._send = hooked  # type: ignore[method-assign]
    try:
        yield made
    finally:
        del connection._send


async def test_a_unit_of_work_cancelled_at_each_trip_is_all_or_nothing(
    database: Database,
) -> None:
    committed: list[Committed] = []
    on_commit(database, committed.append)
    await _unit(database, 1)
    committed.clear()
    outcomes = []
    for trip in range(1, 30):
        role = 100 + trip
        before = await dump(database)
        task: list[asyncio.Task[None]] = []
        with cancelled_at_trip(database._connection, trip, task) as made:
            task.append(asyncio.create_task(_unit(database, role)))
            try:
                await task[0]
                cancelled = False
            except asyncio.CancelledError:
                cancelled = True
        await _writer_is_clean(database)
        if await _role(database) == role:  # it committed: wholly, and the listeners know
            outcomes.append(("committed", cancelled))
            assert [j.subject for c in committed for j in c.jobs] == [f"s:{role}"], trip
            async with GuildStore(database, GUILD).read() as view:
                settings = await view.settings.get()
            assert settings.announcements_channel_id == role
        else:  # nothing of it
            outcomes.append(("nothing", cancelled))
            assert await dump(database) == before, trip
            assert committed == [], trip
        committed.clear()
        if not cancelled:
            break
    trips = made[0]  # the last, uncancelled unit's trips; its last one is COMMIT
    commit = 1  # COMMIT alone is waited for to its end, even when cancelled
    # cancelled at every trip before the commit: nothing; in it (queued): committed, and told
    assert outcomes == [("nothing", True)] * (trips - commit) + [("committed", True)] * commit + [
        ("committed", False),
    ], outcomes
    await _unit(database, 7)
    assert await _role(database) == 7


@pytest.mark.parametrize("how", ["cancel", "timeout"])
async def test_a_unit_cancelled_while_its_commit_is_in_flight_still_tells_the_listeners(
    database: Database, how: str
) -> None:
    """COMMIT is on the database thread when the task is cancelled (`task.cancel()`, or an
    `asyncio.timeout` expiring): it commits, so the scheduler and the outbox sender must hear
    of it (else its jobs wait for a restart), and the caller sees a plain cancellation (a
    timeout still becomes TimeoutError)."""
    committed: list[Committed] = []
    on_commit(database, committed.append)
    store = GuildStore(database, GUILD)
    gate = threading.Event()
    started = asyncio.Event()
    loop = asyncio.get_running_loop()
    timeouts: list[asyncio.Timeout] = []

    released = asyncio.Event()

    def hold(sql: str) -> None:  # on the thread, as COMMIT begins: a slow disk
        if sql == "COMMIT":
            loop.call_soon_threadsafe(started.set)
            gate.wait(10)

    async with database.writer() as connection:
        if isinstance(database, SqliteDatabase):
            await connection.set_trace_callback(hold)
        else:  # PostgreSQL's COMMIT is a round trip on the loop: held there, as it is sent
            send = connection.commit_transaction

            async def held() -> None:
                started.set()
                await released.wait()
                await send()

            connection.commit_transaction = held  # type: ignore[method-assign]

    async def unit() -> None:
        async with asyncio.timeout(None) as timeout:
            timeouts.append(timeout)
            async with store.change(1, "setup.set", "guild_settings") as uow:
                await uow.settings.update(hq_role_id=5)
                await uow.jobs.schedule("t.job", "s:5", uow.now)

    task = asyncio.create_task(unit())
    await started.wait()  # the unit's COMMIT is on the thread, held there
    if how == "cancel":
        task.cancel()
    else:
        timeouts[0].reschedule(loop.time())
        await asyncio.sleep(0)  # the timeout fires: the task is cancelled
    gate.set()
    released.set()
    expected = asyncio.CancelledError if how == "cancel" else TimeoutError
    with pytest.raises(expected):
        await task
    await _writer_is_clean(database)
    assert await _role(database) == 5  # COMMIT was already queued: the unit committed
    assert [j.subject for c in committed for j in c.jobs] == ["s:5"]


async def test_a_read_cancelled_at_any_await_leaves_no_snapshot_open(database: Database) -> None:
    store = GuildStore(database, GUILD)
    await _unit(database, 1)

    async def reading() -> None:
        async with store.read() as view:
            await view.settings.get()
            await view.jobs.pending("t.job", "s:1")
            await view.settings.get()

    for turns in range(TURNS):
        task: asyncio.Task[object] = asyncio.create_task(reading())
        await _after_turns(task, turns)
        with suppress(asyncio.CancelledError):
            await task
        await _unit(database, 200 + turns)
        assert await _role(database) == 200 + turns  # a fresh snapshot, not an old one
        async with database.read() as connection:
            assert connection.in_transaction  # the new block's own snapshot
        await _reader_is_clean(database)


async def _reader_is_clean(database: Database) -> None:
    reader = database._reader
    assert reader is not None
    await reader.execute("SELECT 1")  # a trip: its state is settled
    assert not reader.in_transaction


async def test_wait_for_timeouts_around_reads_and_units_leave_both_connections_usable(
    database: Database,
) -> None:
    await _unit(database, 1)
    for timeout in (0, 1e-6, 1e-5, 1e-4, 1e-3):
        for make in (lambda: _unit(database, 9), lambda: _role(database)):
            with suppress(TimeoutError):
                await asyncio.wait_for(make(), timeout)
            await _writer_is_clean(database)
            await _reader_is_clean(database)
    await _unit(database, 11)
    assert await _role(database) == 11
