"""The database connection units of work, reads and repositories use: `Connection`, what every
engine's connection offers (run a statement written once, in SQLite's dialect with `?`
placeholders; defer one until the next trip; end the transaction), and its SQLite
implementation on aiosqlite's public API, the embedded default (`SqliteConnection`, here; the
PostgreSQL one is storage/postgres_connection.py).

Every trip to aiosqlite's thread costs a hand-off there and back through the event loop, and a
unit of work's trips are serial, so a loop busy with other tasks stretches every one of them.
A statement whose outcome nobody reads (a BEGIN, an audit row, a version bump) is deferred
and runs, in order, just before whatever the connection runs next (a query, a write, COMMIT),
so a read in the same transaction still sees it; an error in it surfaces there, and is the
transaction's failure (`failed`) even if the statement it surfaced at was caught.

How it travels: aiosqlite runs each call on a `sqlite3.Connection` on its thread, of the class
`sqlite3.connect(factory=...)` names (a documented argument, which `aiosqlite.connect` passes
on). Ours, `ThreadConnection`, accepts a `Carried` in place of a statement's parameters: the
deferred statements to run first, then the statement with its own parameters. Were aiosqlite
ever to hand parameters on otherwise, sqlite3 would refuse a `Carried` loudly ("unsupported
type"), never drop the statements it carries.

On PostgreSQL any failed statement aborts the transaction: there `failed` is the unit's first
failure, whatever raised it (`in_unit`), and later statements raise it again; on SQLite only a
deferred statement's failure is recorded (a caught refusal of a statement one awaited leaves
the transaction usable, as sqlite3 does).
"""

from __future__ import annotations

import sqlite3
import weakref
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from storage.dialect import Dialect

Parameters = Sequence[Any]
T = TypeVar("T")


class Row(Protocol):
    """A result row: its values by position or by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class Deferred:
    """One held-back statement: `sql` with its parameters, or over many rows (`many`); or,
    `ends_snapshot`, the end of the read snapshot left open (`defer_end_snapshot`)."""

    sql: str
    parameters: Parameters | list[Parameters]
    many: bool
    ends_snapshot: bool = False


_UNDOING = ("ROLLBACK",)
"""Statements a failed unit may still run: they end it, or undo a savepoint's part."""


class Cursor(ABC):
    """A statement's outcome: `rowcount` (rows changed; -1 for a query) and its rows."""

    @property
    @abstractmethod
    def rowcount(self) -> int:
        """The rows the statement changed (-1 for a query)."""

    @abstractmethod
    async def fetchone(self) -> Any:
        """The next row, or None."""

    @abstractmethod
    async def fetchall(self) -> list[Any]:
        """Every remaining row."""

    async def close(self) -> None:  # noqa: B027 (nothing to close for a fetched result)
        """Close the cursor (a cursor holding its rows already has nothing to close)."""


class Connection(ABC):
    """A database connection with deferred statements and the unit-of-work failure rule."""

    dialect: Dialect

    def __init__(self) -> None:
        self._deferred: list[Deferred] = []
        self.failed: BaseException | None = None
        """The failure of the open unit of work (None: none): on SQLite a deferred statement's,
        on PostgreSQL any statement's (the first). It may have surfaced at someone else's
        statement, who may have caught it: the unit must not commit (`Database.transaction()`
        raises it again instead)."""
        self.in_unit = False
        """Whether a unit of work's transaction is open on this connection (PostgreSQL: its
        statements' failures count, `_note_failure`)."""
        self.trips = 0

    def defer(self, sql: str, parameters: Parameters = ()) -> None:
        """Run `sql` before the next statement (its cursor is not returned)."""
        self._deferred.append(Deferred(sql, tuple(parameters), False))

    def defer_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        """`executemany(sql, rows)` before the next statement."""
        self._deferred.append(Deferred(sql, [tuple(row) for row in rows], True))

    @property
    def deferred(self) -> int:
        """How many statements wait for the next trip."""
        return len(self._deferred)

    def discard_deferred(self) -> None:
        """Forget the statements not sent yet (before a rollback: they must not run)."""
        self._deferred.clear()

    multi_row_inserts = False
    """Whether one multi-row INSERT costs less than `executemany` of its rows (SQLite: each
    row of an executemany is a step of its own on the database thread; PostgreSQL's
    executemany goes in one round trip)."""

    carries_snapshot_end = False
    """Whether `defer_end_snapshot` ends a read snapshot in the next trip at no cost of its
    own (SQLite, whose deferred statements travel in that trip; not PostgreSQL, which sends
    each as its own round trip)."""

    def defer_end_snapshot(self) -> None:
        """End the open read snapshot first thing in the next trip, as `end_snapshot` would."""
        raise NotImplementedError("this connection ends its snapshots at once (end_snapshot)")

    def _refuse_if_failed(self, sql: str) -> None:
        """Inside a unit that already failed, raise that failure instead of running `sql`
        (unless `sql` ends or undoes the transaction)."""
        if (
            self.failed is not None
            and self.in_unit
            and not sql.lstrip().upper().startswith(_UNDOING)
        ):
            raise self.failed

    def _note_failure(self, error: BaseException) -> None:
        """Record `error` as the unit's failure (the first one counts)."""
        if self.in_unit and self.failed is None:
            self.failed = error

    async def _send(self, call: Awaitable[T]) -> T:
        """Make one trip (the one place every trip passes, counted in `trips`)."""
        self.trips += 1
        return await call

    @abstractmethod
    async def execute(self, sql: str, parameters: Parameters = ()) -> Cursor:
        """Run one statement (after the deferred ones)."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> Cursor:
        """Run one statement over many rows (after the deferred ones)."""

    @abstractmethod
    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[Any]:
        """Run a query and read every row (after the deferred statements)."""

    async def fetch_together(
        self, queries: Sequence[tuple[str, Parameters]]
    ) -> list[list[Any] | BaseException]:
        """Run `queries` in order (after the deferred statements), each read to its end: its
        rows, or the error it raised — one query's failure is its own, the others still run
        (on PostgreSQL a failure aborts the transaction, so those after it raise that).
        Here one after the other; SQLite's sends them in one trip."""
        outcomes: list[list[Any] | BaseException] = []
        for sql, parameters in queries:
            try:
                outcomes.append(await self.execute_fetchall(sql, parameters))
            except Exception as error:
                outcomes.append(error)
        return outcomes

    @abstractmethod
    async def executescript(self, script: str) -> None:
        """Run a script of statements in this engine's own dialect (migrations)."""

    @abstractmethod
    async def flush(self) -> None:
        """Send the deferred statements now (none when nothing waits)."""

    @abstractmethod
    async def commit_transaction(self) -> None:
        """Send the deferred statements and COMMIT."""

    @abstractmethod
    async def end_snapshot(self) -> None:
        """End the transaction, if one is open, by ROLLBACK; the deferred statements dropped."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""

    @abstractmethod
    async def set_trace_callback(self, handler: Callable[[str], object] | None) -> None:
        """Call `handler(sql)` for every statement run (benchmarks, tests)."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (idempotent)."""


class Carried:
    """What one trip carries in place of its statement's parameters: the deferred statements
    to run first, on the thread, and the statement's own parameters."""

    __slots__ = ("closing", "deferred", "outcomes", "owner", "parameters", "queries")

    def __init__(
        self,
        deferred: Sequence[Deferred],
        parameters: Parameters | Iterable[Parameters],
        owner: Connection,
        *,
        closing: bool = False,
        queries: Sequence[tuple[str, Parameters]] = (),
    ) -> None:
        self.deferred = tuple(deferred)
        self.parameters = parameters
        self.owner = owner
        """The connection whose statements these are: told of a deferred one that fails."""
        self.closing = closing
        """The statement ends the transaction (COMMIT): close the cursors handed out first."""
        self.queries = tuple(queries)
        """Queries to run after the deferred statements, each read to its end (`outcomes`)."""
        self.outcomes: list[list[Any] | BaseException] = []
        """Each of `queries`' rows, or the error it raised, once the trip has run."""

    def run_first(self, connection: ThreadConnection) -> Any:
        """On the thread: the deferred statements in order (one failing is noted on the owner,
        `Connection.failed`, and raised), the cursors closed when `closing`; returns the
        statement's own parameters."""
        try:
            for statement in self.deferred:
                if statement.ends_snapshot:  # as `end_snapshot`: cursors closed, if one is open
                    connection.rollback()
                elif statement.many:
                    sqlite3.Connection.executemany(connection, statement.sql, statement.parameters)
                else:
                    sqlite3.Connection.execute(connection, statement.sql, statement.parameters)
        except BaseException as error:
            self.owner.failed = error
            raise
        for sql, parameters in self.queries:
            try:
                cursor = sqlite3.Connection.execute(connection, sql, parameters)
                try:
                    self.outcomes.append(cursor.fetchall())
                finally:
                    cursor.close()
            except Exception as error:
                if self.owner.in_unit and not connection.in_transaction:
                    # SQLite rolled the unit's transaction back itself (a full disk, an I/O
                    # error): the unit has failed, and nothing more of this trip may run
                    self.owner.failed = error
                    raise
                self.outcomes.append(error)
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
        return Carried(batch, parameters, self, closing=closing)

    async def _send(self, call: Awaitable[T]) -> T:
        """Make one trip: `call` is one of aiosqlite's coroutines, queued for its thread as
        it is awaited here (the one place every trip passes, counted in `trips`)."""
        self.trips += 1
        return await call

    async def execute(self, sql: str, parameters: Parameters = ()) -> SqliteCursor:
        """Run one statement (after the deferred ones, same trip)."""
        carried = self._carry(tuple(parameters))
        return SqliteCursor(self, await self._send(self._inner.execute(sql, carried)))

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> SqliteCursor:
        """Run one statement over many rows (after the deferred ones, same trip)."""
        carried = self._carry([tuple(row) for row in rows])
        return SqliteCursor(self, await self._send(self._inner.executemany(sql, carried)))

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[aiosqlite.Row]:
        """Run a query and read every row, in one trip (after the deferred statements)."""
        carried = self._carry(tuple(parameters))
        return list(await self._send(self._inner.execute_fetchall(sql, carried)))

    async def fetch_together(
        self, queries: Sequence[tuple[str, Parameters]]
    ) -> list[list[Any] | BaseException]:
        """As `Connection.fetch_together`, in one trip: the deferred statements, every query
        but the last carried (`Carried.queries`), then the last as the trip's own."""
        if not queries:
            return []
        *first, (sql, parameters) = queries
        batch, self._deferred = self._deferred, []
        carried = Carried(batch, tuple(parameters), self, queries=first)
        try:
            last: list[Any] | BaseException = list(
                await self._send(self._inner.execute_fetchall(sql, carried))
            )
        except Exception as error:
            if len(carried.outcomes) < len(first):  # a deferred statement failed: all fail
                raise
            last = error
        return [*carried.outcomes, last]

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

    carries_snapshot_end = True
    multi_row_inserts = True

    def defer_end_snapshot(self) -> None:
        """End the open read snapshot (as `end_snapshot`: its cursors closed, ROLLBACK if a
        transaction is open) on the thread, first thing in the next trip."""
        self._deferred.append(Deferred("ROLLBACK", (), False, ends_snapshot=True))

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

    async def create_function(
        self, name: str, arguments: int, function: Callable[..., object], *, deterministic: bool
    ) -> None:
        """Make the Python `function` callable from SQL as `name` (a migration's helper)."""
        await self._send(
            self._inner.create_function(name, arguments, function, deterministic=deterministic)
        )

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
