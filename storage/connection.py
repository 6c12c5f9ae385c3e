"""What a database connection offers the units of work, read blocks and repositories, whichever
engine is behind it (`storage/sqlite_connection.py`, `storage/postgres_connection.py`): run a
statement (SQLite's dialect, `?` placeholders: one text for both), defer one until the next
trip, and end the transaction. Both implementations keep the same rules:

- Deferred statements (`defer`) run, in order, before whatever the connection runs next; a
  read in the same transaction sees them; one that fails is the transaction's failure.
- Inside a unit of work (`in_unit`), the first statement that fails is the unit's failure
  (`failed`), even if its caller catches the error: every later statement of the unit raises
  it again (only a savepoint's ROLLBACK TO undoes it) and the unit does not commit.
  PostgreSQL aborts such a transaction anyway; SQLite is held to the same rule, so a use case
  behaves the same on both.
- `trips` counts the round trips (to aiosqlite's thread, or to the server), every one
  passing `_send`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

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
    """One held-back statement: `sql` with its parameters, or over many rows (`many`)."""

    sql: str
    parameters: Parameters | list[Parameters]
    many: bool


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
        """The first failure inside the open unit of work (None: none). It may have surfaced
        at someone else's statement, who may have caught it: the unit must not commit
        (`Database.transaction()` raises it again instead)."""
        self.in_unit = False
        """Whether a unit of work's transaction is open on this connection (failures count)."""
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
