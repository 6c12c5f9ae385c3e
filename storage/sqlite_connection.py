"""The SQLite connection units of work and reads use: aiosqlite's, through its public API
only, plus statements held back until the next one (`defer`), sent in that same trip
(`storage/connection.py` says what every engine's connection keeps to).

Every trip to aiosqlite's thread costs a hand-off there and back through the event loop, and a
unit of work's trips are serial, so a loop busy with other tasks stretches every one of them.
A statement whose outcome nobody reads (a BEGIN, an audit row, a version bump) is deferred
and runs, in order, just before whatever the connection runs next (a query, a write, COMMIT),
so a read in the same transaction still sees it; an error in it surfaces there.

How it travels: aiosqlite runs each call on a `sqlite3.Connection` on its thread, of the class
`sqlite3.connect(factory=...)` names (a documented argument, which `aiosqlite.connect` passes
on). Ours, `ThreadConnection`, accepts a `Carried` in place of a statement's parameters: the
deferred statements to run first, then the statement with its own parameters. Were aiosqlite
ever to hand parameters on otherwise, sqlite3 would refuse a `Carried` loudly ("unsupported
type"), never drop the statements it carries.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.connection import Connection, Cursor, Deferred, Parameters
from storage.dialect import Dialect
from storage.errors import DatabaseError, IntegrityError

T = TypeVar("T")


class Carried:
    """What one trip carries in place of its statement's parameters: the deferred statements
    to run first, on the thread, and the statement's own parameters."""

    __slots__ = ("closing", "deferred", "parameters")

    def __init__(
        self,
        deferred: Sequence[Deferred],
        parameters: Parameters | Iterable[Parameters],
        *,
        closing: bool = False,
    ) -> None:
        self.deferred = tuple(deferred)
        self.parameters = parameters
        self.closing = closing
        """The statement ends the transaction (COMMIT): close the cursors handed out first."""

    def run_first(self, connection: ThreadConnection) -> Any:
        """On the thread: the deferred statements in order (one failing raises: the trip's
        failure, and so the unit's), the cursors closed when `closing`; returns the
        statement's own parameters."""
        for statement in self.deferred:
            if statement.many:
                sqlite3.Connection.executemany(connection, statement.sql, statement.parameters)
            else:
                sqlite3.Connection.execute(connection, statement.sql, statement.parameters)
        if self.closing:
            connection.close_cursors()
        return self.parameters


class ThreadConnection(sqlite3.Connection):
    """The sqlite3 connection aiosqlite drives on its thread: runs what a `Carried` carries
    before the statement, and closes the cursors it handed out before COMMIT (`Carried.closing`)
    and ROLLBACK (`rollback()`): a statement not read to its end keeps its snapshot even after
    the transaction ended, so the next BEGIN on this connection would read that old snapshot
    again, and a BEGIN IMMEDIATE fail once another connection committed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handed_out: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        """The cursors handed out and still referenced (`close_cursors` closes them)."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """`sqlite3.Connection.execute`, after what a `Carried` carries; the cursor noted."""
        if isinstance(parameters, Carried):
            parameters = parameters.run_first(self)
        cursor = super().execute(sql, parameters)
        self.handed_out.add(cursor)
        return cursor

    def executemany(self, sql: str, rows: Any, /) -> sqlite3.Cursor:
        """`sqlite3.Connection.executemany`, after what a `Carried` carries; the cursor noted."""
        if isinstance(rows, Carried):
            rows = rows.run_first(self)
        cursor = super().executemany(sql, rows)
        self.handed_out.add(cursor)
        return cursor

    def commit(self) -> None:
        """COMMIT if a transaction is open (as sqlite3's), after closing the cursors."""
        self.close_cursors()
        super().commit()

    def rollback(self) -> None:
        """ROLLBACK if a transaction is open (as sqlite3's), after closing the cursors."""
        self.close_cursors()
        super().rollback()

    def close_cursors(self) -> None:
        """Close (reset) every cursor handed out and still referenced."""
        for cursor in list(self.handed_out):
            cursor.close()
        self.handed_out.clear()


class SqliteCursor(Cursor):
    """A statement's outcome on a `SqliteConnection`: `rowcount`, `lastrowid`, and its rows
    (each fetch one trip, counted by the connection)."""

    def __init__(self, connection: SqliteConnection, inner: aiosqlite.Cursor) -> None:
        self._connection = connection
        self._inner = inner

    @property
    def rowcount(self) -> int:
        """The rows the statement changed (-1 for a query)."""
        return self._inner.rowcount

    @property
    def lastrowid(self) -> int | None:
        """The rowid of the row an INSERT added (SQLite only: repositories use RETURNING)."""
        return self._inner.lastrowid

    async def fetchone(self) -> aiosqlite.Row | None:
        """The next row, or None."""
        row: aiosqlite.Row | None = await self._connection._send(self._inner.fetchone())
        return row

    async def fetchall(self) -> list[aiosqlite.Row]:
        """Every remaining row."""
        rows: Iterable[aiosqlite.Row] = await self._connection._send(self._inner.fetchall())
        return list(rows)

    async def close(self) -> None:
        """Close the cursor (its statement reset)."""
        await self._connection._send(self._inner.close())


def converted(error: sqlite3.Error) -> DatabaseError:
    """sqlite3's error as storage's (the message kept, the original its cause)."""
    kind = IntegrityError if isinstance(error, sqlite3.IntegrityError) else DatabaseError
    new = kind(str(error))
    new.__cause__ = error
    return new


class SqliteConnection(Connection):
    """A database connection (aiosqlite's, autocommit: transactions are opened explicitly) with
    `defer`: statements held until the next trip, then run first in that same trip. `trips`
    counts the hand-offs to its thread (its cursors' fetches included)."""

    dialect = Dialect.SQLITE

    def __init__(self, inner: aiosqlite.Connection) -> None:
        super().__init__()
        self._inner = inner

    def _carry(
        self, parameters: Parameters | Iterable[Parameters], *, closing: bool = False
    ) -> Any:
        """The parameters to hand aiosqlite for the next trip: as given, or a `Carried` with
        the deferred statements (which are then no longer waiting)."""
        if not self._deferred and not closing:
            return parameters
        batch, self._deferred = self._deferred, []
        return Carried(batch, parameters, closing=closing)

    async def _send(self, call: Awaitable[T]) -> T:
        """Make one trip: `call` is one of aiosqlite's coroutines, queued for its thread as
        it is awaited here (the one place every trip passes, counted in `trips`); sqlite3's
        errors come back as storage's, and inside a unit of work the first is its failure."""
        self.trips += 1
        try:
            return await call
        except sqlite3.Error as error:
            failure = converted(error)
            self._note_failure(failure)
            raise failure from error

    async def execute(self, sql: str, parameters: Parameters = ()) -> SqliteCursor:
        """Run one statement (after the deferred ones, same trip)."""
        self._refuse_if_failed(sql)
        carried = self._carry(tuple(parameters))
        return SqliteCursor(self, await self._send(self._inner.execute(sql, carried)))

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> SqliteCursor:
        """Run one statement over many rows (after the deferred ones, same trip)."""
        self._refuse_if_failed(sql)
        carried = self._carry([tuple(row) for row in rows])
        return SqliteCursor(self, await self._send(self._inner.executemany(sql, carried)))

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[aiosqlite.Row]:
        """Run a query and read every row, in one trip (after the deferred statements)."""
        self._refuse_if_failed(sql)
        carried = self._carry(tuple(parameters))
        return list(await self._send(self._inner.execute_fetchall(sql, carried)))

    async def executescript(self, script: str) -> None:
        """Run an SQL script (migrations); nothing may be deferred (a script takes none)."""
        if self._deferred:
            raise RuntimeError("a script with deferred statements waiting: flush them first")
        await self._send(self._inner.executescript(script))

    async def flush(self) -> None:
        """Send the deferred statements now (one trip; none when nothing waits)."""
        if self._deferred:
            await self.execute("")

    async def commit_transaction(self) -> None:
        """Send the deferred statements, close the cursors handed out (see `ThreadConnection`)
        and COMMIT, in one trip."""
        await self._send(self._inner.execute("COMMIT", self._carry((), closing=True)))

    async def end_snapshot(self) -> None:
        """End the transaction, if one is open, by ROLLBACK after closing the cursors handed
        out (see `ThreadConnection`). One trip; the deferred statements dropped."""
        self._deferred.clear()
        await self._send(self._inner.rollback())

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (as the thread last left it)."""
        return self._inner.in_transaction

    @property
    def row_factory(self) -> type | None:
        """The class rows are read as (`aiosqlite.Row`: by name and by position)."""
        return self._inner.row_factory

    @row_factory.setter
    def row_factory(self, factory: type | None) -> None:
        self._inner.row_factory = factory

    async def set_trace_callback(self, handler: Callable[[str], object] | None) -> None:
        """Call `handler(sql)` on the thread for every statement run (benchmarks, tests)."""
        await self._send(self._inner.set_trace_callback(handler))  # type: ignore[arg-type]

    def iterdump(self) -> Any:
        """The database as SQL text, line by line (`async for`): tests compare dumps."""
        return self._inner.iterdump()

    async def close(self) -> None:
        """Close the connection and stop its thread (idempotent)."""
        self._deferred.clear()
        await self._inner.close()


async def connect(path: Path) -> SqliteConnection:
    """Open `path` (or `:memory:`) in autocommit mode: transactions are opened explicitly."""
    inner = await aiosqlite.connect(str(path), isolation_level=None, factory=ThreadConnection)
    return SqliteConnection(inner)
