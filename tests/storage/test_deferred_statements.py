"""Deferred statements (storage/connection.py): a unit of work's writes whose outcome nobody
reads travel with its next statement, so it makes fewer trips to the database thread, and
every guarantee holds — its reads see them, a failing one rolls the whole unit back, a
rollback never sends them later, a savepoint undoes its own."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from storage.connection import Carried
from storage.connection import Deferred as _Deferred
from storage.database import Database
from storage.dialect import Dialect
from storage.errors import IntegrityError
from storage.guild import GuildStore
from storage.matches import BoardRecord
from tests.storage.test_unit_of_work_costs import _season
from tests.support.services_world import dump

GUILD = 30
FINISH = dt.datetime(2024, 3, 4, 19, 0, tzinfo=dt.UTC)


@contextmanager
def trips(database: Database) -> Iterator[list[int]]:
    """Counts the hand-offs to the database's threads in the block (`[count]`, set at its
    end), as `Database.trips` counts them: every call into aiosqlite passes one place."""
    count = [0]
    before = database.trips
    try:
        yield count
    finally:
        count[0] = database.trips - before


async def _boards(database: Database, match: int) -> list[tuple[int, int, int]]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT board, home_half, away_half FROM boards WHERE match_id = ? ORDER BY board",
            (match,),
        )
    return [tuple(row) for row in rows]  # type: ignore[misc]


@pytest.mark.sqlite_only
async def test_writes_nobody_reads_go_with_the_commit_in_one_trip(database: Database) -> None:
    """SQLite's trip saving: the deferred statements ride to aiosqlite's thread with the next
    one (PostgreSQL sends each before the next statement: the same semantics, one round trip
    each; test_postgres_trips_are_one_per_statement counts them there)."""
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
    async with store.read() as view:
        version = await view.seasons.version(season)
    with trips(database) as count:
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.with_chesscom(match, 5)  # one query: BEGIN goes with it
            await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 3, 1)])
            await uow.matches.finish(match, FINISH)
    # BEGIN + the query; version bump, DELETE, INSERT, UPDATE, audit row + COMMIT
    assert count[0] == 2
    assert await _boards(database, match) == [(1, 3, 1)]
    async with store.read() as view:
        [entry] = [e for e in await view.audit.recent() if e.action == "match.result"]
        assert (await view.seasons.version(season)) == version + 1
    assert entry.details["matches_finished"] == [{"match": match}]


async def test_many_rows_go_as_multi_row_inserts_of_at_most_a_hundred(database: Database) -> None:
    """`insert_rows_later`: on SQLite 250 boards are three INSERT statements (100, 100, 50
    rows) sent with the commit; on PostgreSQL one executemany of single-row statements (one
    round trip there). Every row stored once; a replacement leaves exactly its own rows; rows
    of different widths are refused before anything is sent."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    statements: list[str] = []
    async with database.writer() as connection:
        await connection.set_trace_callback(statements.append)
    try:
        many = [BoardRecord(n, f"h{n}", f"a{n}", 4, 0) for n in range(1, 251)]
        async with store.change(1, "t", "many") as uow:
            await uow.matches.replace_boards(match, many)
    finally:
        async with database.writer() as connection:
            await connection.set_trace_callback(None)
    inserts = [sql for sql in statements if sql.lstrip().upper().startswith("INSERT INTO BOARDS")]
    rows_each = [sql.count("), (") + 1 for sql in inserts]  # rows a statement
    assert rows_each == ([100, 100, 50] if database.dialect is Dialect.SQLITE else [1])
    assert await _boards(database, match) == [(n, 4, 0) for n in range(1, 251)]
    async with store.change(1, "t", "fewer") as uow:
        await uow.matches.replace_boards(match, many[:3])
        with pytest.raises(ValueError, match="same columns"):
            uow._scope.insert_rows_later("INSERT INTO boards (guild_id) VALUES", [(1,), (1, 2)])
    assert await _boards(database, match) == [(1, 4, 0), (2, 4, 0), (3, 4, 0)]


async def test_boards_read_empty_in_the_unit_are_not_deleted_first(database: Database) -> None:
    """A first result (the unit read the match's boards: none) sends no DELETE before its
    boards; a correction (boards read) and a second replacement in the same unit do, so each
    leaves exactly its own boards."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)

    async def replaced(boards: list[list[BoardRecord]]) -> list[str]:
        statements: list[str] = []
        async with database.writer() as connection:
            await connection.set_trace_callback(statements.append)
        try:
            async with store.change(1, "t", "boards") as uow:
                await uow.matches.boards(match)
                for each in boards:
                    await uow.matches.replace_boards(match, each)
        finally:
            async with database.writer() as connection:
                await connection.set_trace_callback(None)
        return [sql for sql in statements if sql.lstrip().upper().startswith("DELETE")]

    three = [BoardRecord(n, f"h{n}", f"a{n}", 2, 2) for n in (1, 2, 3)]
    assert await replaced([three]) == []  # nothing stored: nothing to delete
    assert await _boards(database, match) == [(1, 2, 2), (2, 2, 2), (3, 2, 2)]
    assert len(await replaced([three[:2]])) == 1  # a correction deletes the stored ones
    assert await _boards(database, match) == [(1, 2, 2), (2, 2, 2)]
    async with store.change(1, "t", "clear") as uow:
        await uow.matches.replace_boards(match, [])
    assert len(await replaced([three, three[:1]])) == 1  # the second replaces the first's
    assert await _boards(database, match) == [(1, 2, 2)]


async def test_a_read_in_the_unit_sees_its_deferred_writes(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 2, 2)])
        assert [(b.board, b.home_half) for b in await uow.matches.boards(match)] == [(1, 2)]


async def test_a_failing_deferred_write_rolls_the_whole_unit_back(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.finish(match, FINISH)
            # 5 + 0 is not 2 × 2 games: the boards' CHECK refuses it, at COMMIT's trip
            await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 5, 0)])
    assert await dump(database) == before  # no finish, no bump, no audit row
    async with database.writer() as connection:
        assert not connection.in_transaction and connection.deferred == 0
    async with store.change(1, "t", "x") as uow:  # the connection is fine afterwards
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 1, 3)])
    assert await _boards(database, match) == [(1, 1, 3)]


async def test_a_unit_that_raises_never_sends_its_deferred_writes(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(RuntimeError):
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
            await uow.matches.replace_boards(match, [BoardRecord(2, "a", "b", 5, 0)])  # bad
            raise RuntimeError("the service refused after writing")
    assert await dump(database) == before
    # the next unit (another use case) must not carry the dropped writes with its own
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=9)
    assert await _boards(database, match) == []


async def test_a_savepoint_undoes_its_own_deferred_writes_and_the_unit_goes_on(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.finish(match, FINISH)
        with pytest.raises(IntegrityError):
            async with uow.savepoint():
                await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 9, 9)])
        with pytest.raises(RuntimeError):
            async with uow.savepoint():
                await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
                await uow.matches.replace_boards(match, [BoardRecord(2, "a", "b", 5, 0)])
                raise RuntimeError("the part failed after writing")
    assert await _boards(database, match) == []
    async with store.read() as view:
        assert (await view.matches.get(match)).finished_at == FINISH  # type: ignore[union-attr]


async def test_a_read_block_without_a_query_makes_no_trip(database: Database) -> None:
    with trips(database) as count:
        async with database.read():
            pass
    assert count[0] == 0


@pytest.mark.sqlite_only
async def test_deferred_statements_travel_only_through_the_connections_own_class(
    database: Database,
) -> None:
    """SQLite's carrying: the deferred statements ride in place of the next statement's
    parameters to the sqlite3 connection class aiosqlite runs
    (`sqlite3.connect(factory=ThreadConnection)`): a plain sqlite3 connection refuses such a
    `Carried` loudly instead of dropping what it carries, so a change in how aiosqlite hands
    parameters on cannot lose a write silently."""
    carried = Carried([_Deferred("SELECT 1", (), False)], (), database._connection)
    plain = sqlite3.connect(":memory:")
    try:
        with pytest.raises(sqlite3.ProgrammingError, match="unsupported type"):
            plain.execute("SELECT 1", carried)  # type: ignore[arg-type]
    finally:
        plain.close()
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 2, 2)])
        assert uow._scope.connection.deferred > 0  # waiting, then carried by the next trip
    assert await _boards(database, match) == [(1, 2, 2)]


async def test_postgres_trips_are_one_per_statement(database: Database) -> None:
    """How many round trips a unit makes: on SQLite the deferred writes ride with COMMIT (2
    trips for the unit above); on PostgreSQL each statement is one of its own, in order: BEGIN,
    the guild's unit-of-work lock, the query, the deferred writes (the boards' DELETE and
    INSERT, the finish, the audit row) and COMMIT."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    with trips(database) as count:
        async with store.change(1, "match.result", f"match:{match}") as uow:
            await uow.matches.with_chesscom(match, 5)
            await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 3, 1)])
            await uow.matches.finish(match, FINISH)
    assert count[0] == (2 if database.dialect is Dialect.SQLITE else 9)
    assert await _boards(database, match) == [(1, 3, 1)]
