"""The PostgreSQL connection units of work and reads use, with the same interface as the SQLite one.
Here the `?` placeholders become asyncpg's `$1, $2 …`."""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import asyncpg

from storage.engine.connection import Connection, Cursor, Parameters, returns_rows
from storage.engine.errors import DatabaseError

T = TypeVar("T")

_COUNTED = ("INSERT", "UPDATE", "DELETE", "SELECT", "MERGE", "COPY", "MOVE", "FETCH")
"""Command tags whose status ends with the rows affected."""


_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
"""A string literal or a `?` placeholder."""


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


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a change by a constraint, SQLSTATE class 23."""

    sqlstate: str = ""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL refused a statement. An empty sqlstate means the connection failed."""

    sqlstate: str = ""


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


class PostgresConnection(Connection):
    """An asyncpg connection behind the shared interface."""

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

    def _statement(self, sql: str) -> str:
        """`sql` as asyncpg runs it, refused in a failed unit, and shown to the trace."""
        self._refuse_if_failed(sql)
        text = numbered(sql)
        if self._trace is not None:
            self._trace(text)
        return text

    async def execute(self, sql: str, parameters: Parameters = ()) -> Cursor:
        """Run one statement, reading its rows if it returns any."""
        text = self._statement(sql)
        if returns_rows(sql):
            rows = await self._send(self._inner.fetch(text, *parameters))
            return Cursor(rows, len(rows))
        status = await self._send(self._inner.execute(text, *parameters))
        return Cursor([], _rowcount(status))

    async def executemany(self, sql: str, rows: Iterable[Parameters]) -> Cursor:
        """Run one statement over many rows."""
        text = self._statement(sql)
        many = [tuple(row) for row in rows]
        if many:
            await self._send(self._inner.executemany(text, many))
        return Cursor([], len(many))

    async def native(self, sql: str, *parameters: Any) -> list[asyncpg.Record]:
        """Run one statement with asyncpg's own `$1` placeholders and return its rows."""
        text = self._statement(sql)  # no `?` to number
        rows: list[asyncpg.Record] = await self._send(self._inner.fetch(text, *parameters))
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
