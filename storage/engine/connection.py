"""The database connection units of work, reads and repositories use.

`Connection` is what every engine's connection offers. `SqliteConnection` implements it on
aiosqlite's public API for the embedded default. On PostgreSQL a failed statement aborts the
transaction and later statements raise that failure again. On SQLite a caught refusal leaves the
transaction usable.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

import aiosqlite

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


_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|PRAGMA)\b|\bRETURNING\b", re.IGNORECASE)
"""A query, or a write that returns rows. Its rows are read whole by the statement's one call."""


def returns_rows(sql: str) -> bool:
    """Whether `sql` is a query or a write that returns rows."""
    return _RETURNS_ROWS.search(sql) is not None


class Cursor:
    """A statement's outcome, read whole: its rows and `rowcount`.

    No statement is left half-read on a connection, so none holds an old snapshot open.
    """

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        """The rows the statement changed or returned."""

    async def fetchone(self) -> Any:
        """The next row, or None."""
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[Any]:
        """Every remaining row."""
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows


class Connection(ABC):
    """A database connection with the unit-of-work failure rule."""

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

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[Any]:
        """Run a query and read every row."""
        return await (await self.execute(sql, parameters)).fetchall()

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


class SqliteConnection(Connection):
    """A database connection."""

    def __init__(self, inner: aiosqlite.Connection) -> None:
        super().__init__()
        self._inner = inner

    async def execute(self, sql: str, parameters: Parameters = ()) -> Cursor:
        """Run one statement, reading its rows if it returns any."""
        if returns_rows(sql):
            rows = list(await self._send(self._inner.execute_fetchall(sql, tuple(parameters))))
            return Cursor(rows, len(rows))
        inner = await self._send(self._inner.execute(sql, tuple(parameters)))
        return Cursor([], inner.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> Cursor:
        """Run one statement over many rows."""
        many = [tuple(row) for row in rows]
        return Cursor([], (await self._send(self._inner.executemany(sql, many))).rowcount)

    async def executescript(self, script: str) -> None:
        """Run an SQL script."""
        await self._send(self._inner.executescript(script))

    async def commit_transaction(self) -> None:
        """COMMIT the open transaction."""
        await self._send(self._inner.commit())

    async def end_snapshot(self) -> None:
        """Rolls back the open transaction, if any."""
        await self._send(self._inner.rollback())

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
        return self._inner.in_transaction

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
