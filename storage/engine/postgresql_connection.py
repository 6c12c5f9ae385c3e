"""The PostgreSQL connection units of work and reads use, with the same interface as the SQLite one.
Here the `?` placeholders become asyncpg's `$1, $2 …`."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from storage.engine.connection import Connection, Cursor, Parameters
from storage.engine.dialect import Dialect
from storage.engine.errors import DatabaseError
from storage.engine.postgresql_errors import IntegrityError, OperationalError

T = TypeVar("T")

_COUNTED = ("INSERT", "UPDATE", "DELETE", "SELECT", "MERGE", "COPY", "MOVE", "FETCH")
"""Command tags whose status ends with the rows affected."""


_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
"""A string literal or a `?` placeholder."""

_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)
"""A query, or a write that returns rows."""


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """`sql` with its `?` placeholders numbered as asyncpg takes them: `$1, $2 …`."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _rowcount(status: str) -> int:
    """The rows a command changed, read from its status, or -1 when it says none."""
    words = status.split()
    if words and words[0] in _COUNTED and words[-1].isdigit():
        return int(words[-1])
    return -1


def converted(error: Exception) -> DatabaseError:
    """asyncpg's error as storage's."""
    new: IntegrityError | OperationalError
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        new = IntegrityError(str(error))
    else:
        new = OperationalError(str(error))
    new.sqlstate = str(getattr(error, "sqlstate", "") or "")
    new.__cause__ = error
    return new


async def open_connection(
    url: str, statement_cache: int, settings: dict[str, str]
) -> PostgresConnection:
    """A connection to `url`. Raises OSError or ValueError when there is none."""
    try:
        inner = await asyncpg.connect(
            url, statement_cache_size=statement_cache, server_settings=settings
        )
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise ValueError(str(error)) from None
    return PostgresConnection(inner)


class PostgresCursor(Cursor):
    """A statement's outcome: its rows and row count."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self._rowcount = rowcount

    @property
    def rowcount(self) -> int:
        """The rows the statement changed or returned."""
        return self._rowcount

    async def fetchone(self) -> asyncpg.Record | None:
        """The next row, or None."""
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        """Every remaining row."""
        rows, self._next = self._rows[self._next :], len(self._rows)
        return rows


class PostgresConnection(Connection):
    """An asyncpg connection behind the shared interface."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, inner: asyncpg.Connection) -> None:
        super().__init__()
        self._inner = inner
        self._sent_since_end = False
        """Whether a statement went to the server since the last COMMIT or ROLLBACK."""
        self._trace: Callable[[str], object] | None = None

    @property
    def raw(self) -> asyncpg.Connection:
        """The asyncpg connection itself, for PostgreSQL's own features but not for repositories."""
        return self._inner

    async def _send(self, call: Awaitable[T]) -> T:
        """Make one round trip, counted in `trips`."""
        self.trips += 1
        self._sent_since_end = True
        failure: BaseException
        try:
            return await call
        except asyncpg.InFailedSQLTransactionError as error:
            failure = self.failed if self.failed is not None else converted(error)
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            failure = converted(error)
        self._note_failure(failure)
        raise failure

    async def _run(self, sql: str, parameters: Sequence[Any]) -> PostgresCursor:
        """One statement as PostgreSQL runs it."""
        text = numbered(sql)
        if self._trace is not None:
            self._trace(text)
        if _RETURNS_ROWS.search(sql):
            rows = await self._send(self._inner.fetch(text, *parameters))
            return PostgresCursor(rows, len(rows))
        status = await self._send(self._inner.execute(text, *parameters))
        return PostgresCursor([], _rowcount(status))

    async def _run_many(self, sql: str, rows: Sequence[Parameters]) -> None:
        """One statement over many rows, none returned."""
        text = numbered(sql)
        if self._trace is not None:
            self._trace(text)
        if rows:
            await self._send(self._inner.executemany(text, rows))

    async def execute(self, sql: str, parameters: Parameters = ()) -> PostgresCursor:
        """Run one statement."""
        self._refuse_if_failed(sql)
        return await self._run(sql, tuple(parameters))

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> PostgresCursor:
        """Run one statement over many rows."""
        self._refuse_if_failed(sql)
        many = [tuple(row) for row in rows]
        await self._run_many(sql, many)
        return PostgresCursor([], len(many))

    async def execute_fetchall(self, sql: str, parameters: Parameters = ()) -> list[asyncpg.Record]:
        """Run a query and read every row."""
        cursor = await self.execute(sql, parameters)
        return await cursor.fetchall()

    async def native(self, sql: str, *parameters: Any) -> list[asyncpg.Record]:
        """Run one statement with asyncpg's own `$1` placeholders and return its rows."""
        self._refuse_if_failed(sql)
        if self._trace is not None:
            self._trace(sql)
        rows: list[asyncpg.Record] = await self._send(self._inner.fetch(sql, *parameters))
        return rows

    async def executescript(self, script: str) -> None:
        """Run a script, a migration, as one simple-protocol message."""
        if not any(
            line.strip() and not line.lstrip().startswith("--") for line in script.split("\n")
        ):
            return  # nothing but comments (a migration that is SQLite's only): no trip
        await self._send(self._inner.execute(script))

    async def commit_transaction(self) -> None:
        """COMMIT. A transaction the server already aborted raises."""
        status = await self._send(self._inner.execute("COMMIT"))
        self._sent_since_end = False
        if status != "COMMIT":
            if self.failed is not None:
                raise self.failed
            raise OperationalError(f"the transaction was not committed (the server said {status})")

    async def end_snapshot(self) -> None:
        """End the transaction, if one may be open, by ROLLBACK."""
        if self._sent_since_end:
            await self._send(self._inner.execute("ROLLBACK"))
            self._sent_since_end = False

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""
        return bool(self._inner.is_in_transaction())

    async def set_trace_callback(self, handler: Callable[[str], object] | None) -> None:
        """Call `handler(sql)` for every statement run."""
        self._trace = handler

    async def close(self) -> None:
        """Close the connection. It may be called again."""
        if not self._inner.is_closed():
            await self._inner.close()
