"""The database connection units of work, reads and repositories use.

`Connection` is what every engine's connection offers. `SqliteConnection` implements it on
aiosqlite's public API for the embedded default. On PostgreSQL a failed statement aborts the
transaction and later statements raise that failure again. On SQLite a caught refusal leaves the
transaction usable.
"""

from __future__ import annotations

import sqlite3
import weakref
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from storage.engine.dialect import Dialect

Parameters = Sequence[Any]
T = TypeVar("T")


class Row(Protocol):
    """A result row: its values by position or by column name."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def keys(self) -> Any: ...


_UNDOING = ("ROLLBACK",)
"""Statements a failed unit may still run: they end it, or undo a savepoint's part."""


class Cursor(ABC):
    """A statement's outcome: `rowcount` and its rows."""

    @property
    @abstractmethod
    def rowcount(self) -> int:
        """The rows the statement changed, or -1 for a query."""

    @abstractmethod
    async def fetchone(self) -> Any:
        """The next row, or None."""

    @abstractmethod
    async def fetchall(self) -> list[Any]:
        """Every remaining row."""

    async def close(self) -> None:  # noqa: B027 (nothing to close for a fetched result)
        """Close the cursor."""


class Connection(ABC):
    """A database connection with the unit-of-work failure rule."""

    dialect: Dialect

    def __init__(self) -> None:
        self.failed: BaseException | None = None
        """The failure of the open unit, even one its caller caught. The unit must not commit."""
        self.in_unit = False
        """Whether a unit of work's transaction is open on this connection."""
        self.trips = 0
        """Calls made to the database so far."""

    def _refuse_if_failed(self, sql: str) -> None:
        """In a failed unit, raise its failure instead of running `sql`, unless `sql` ends it."""
        if (
            self.failed is not None
            and self.in_unit
            and not sql.lstrip().upper().startswith(_UNDOING)
        ):
            raise self.failed

    def _note_failure(self, error: BaseException) -> None:
        """Record `error` as the unit's failure."""
        if self.in_unit and self.failed is None:
            self.failed = error

    async def _send(self, call: Awaitable[T]) -> T:
        """Make one call to the database, counted in `trips`."""
        self.trips += 1
        return await call

    @abstractmethod
    async def execute(self, sql: str, parameters: Parameters = ()) -> Cursor:
        """Run one statement."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> Cursor:
        """Run one statement over many rows."""

    @abstractmethod
    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[Any]:
        """Run a query and read every row."""

    @abstractmethod
    async def executescript(self, script: str) -> None:
        """Run a script of statements in this engine's own dialect."""

    @abstractmethod
    async def commit_transaction(self) -> None:
        """COMMIT the open transaction."""

    @abstractmethod
    async def end_snapshot(self) -> None:
        """End the transaction, if one is open, by ROLLBACK."""

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""

    @abstractmethod
    async def set_trace_callback(self, handler: Callable[[str], object] | None) -> None:
        """Call `handler(sql)` for every statement run."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection. It may be called again."""


class ThreadConnection(sqlite3.Connection):
    """The sqlite3 connection aiosqlite drives on its thread.

    It closes its cursors before COMMIT and ROLLBACK, since an unread cursor keeps its snapshot.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handed_out: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        """The cursors handed out and still referenced."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        """`sqlite3.Connection.execute`, the cursor noted."""
        cursor = super().execute(sql, parameters)
        self.handed_out.add(cursor)
        return cursor

    def executemany(self, sql: str, rows: Any, /) -> sqlite3.Cursor:
        """`sqlite3.Connection.executemany`, the cursor noted."""
        cursor = super().executemany(sql, rows)
        self.handed_out.add(cursor)
        return cursor

    def commit(self) -> None:
        """COMMIT if a transaction is open, after closing the cursors."""
        self.close_cursors()
        super().commit()

    def rollback(self) -> None:
        """ROLLBACK if a transaction is open, after closing the cursors."""
        self.close_cursors()
        super().rollback()

    def close_cursors(self) -> None:
        """Close every cursor handed out and still referenced."""
        for cursor in list(self.handed_out):
            cursor.close()
        self.handed_out.clear()


class SqliteCursor(Cursor):
    """A statement's outcome on a `SqliteConnection`: `rowcount` and its rows."""

    def __init__(self, connection: SqliteConnection, inner: aiosqlite.Cursor) -> None:
        self._connection = connection
        self._inner = inner

    @property
    def rowcount(self) -> int:
        """The rows the statement changed, or -1 for a query."""
        return self._inner.rowcount

    async def fetchone(self) -> aiosqlite.Row | None:
        """The next row, or None."""
        row: aiosqlite.Row | None = await self._connection._send(self._inner.fetchone())
        return row

    async def fetchall(self) -> list[aiosqlite.Row]:
        """Every remaining row."""
        rows: Iterable[aiosqlite.Row] = await self._connection._send(self._inner.fetchall())
        return list(rows)

    async def close(self) -> None:
        """Close the cursor."""
        await self._connection._send(self._inner.close())


class SqliteConnection(Connection):
    """A database connection."""

    dialect = Dialect.SQLITE

    def __init__(self, inner: aiosqlite.Connection) -> None:
        super().__init__()
        self._inner = inner

    async def execute(self, sql: str, parameters: Parameters = ()) -> SqliteCursor:
        """Run one statement."""
        return SqliteCursor(self, await self._send(self._inner.execute(sql, tuple(parameters))))

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> SqliteCursor:
        """Run one statement over many rows."""
        many = [tuple(row) for row in rows]
        return SqliteCursor(self, await self._send(self._inner.executemany(sql, many)))

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[aiosqlite.Row]:
        """Run a query and read every row."""
        return list(await self._send(self._inner.execute_fetchall(sql, tuple(parameters))))

    async def executescript(self, script: str) -> None:
        """Run an SQL script."""
        await self._send(self._inner.executescript(script))

    async def commit_transaction(self) -> None:
        """Close the cursors handed out (see `ThreadConnection`) and COMMIT."""
        await self._send(self._inner.commit())

    async def end_snapshot(self) -> None:
        """Rolls back the open transaction, if any, after closing the cursors handed out."""
        await self._send(self._inner.rollback())

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
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
        """Make the Python `function` callable from SQL as `name`."""
        await self._send(
            self._inner.create_function(name, arguments, function, deterministic=deterministic)
        )

    async def set_trace_callback(self, handler: Callable[[str], object] | None) -> None:
        """Call `handler(sql)` on the thread for every statement run."""
        await self._send(self._inner.set_trace_callback(handler))  # type: ignore[arg-type]

    async def close(self) -> None:
        """Close the connection and stop its thread. It may be called again."""
        await self._inner.close()


async def connect(path: Path) -> SqliteConnection:
    """Open `path` (or `:memory:`) in autocommit mode: transactions are opened explicitly."""
    inner = await aiosqlite.connect(str(path), isolation_level=None, factory=ThreadConnection)
    return SqliteConnection(inner)
