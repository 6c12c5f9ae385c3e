"""The SQLite database: one aiosqlite connection (WAL, foreign keys, busy timeout), migrated.

Every access goes through `read()` or `transaction()`; a lock serialises them so a transaction
on the shared connection never interleaves with another task's statements. Services do not use
these directly: they open a unit of work on a guild's store (`storage/guild.py`), which runs
its repositories and its audit row inside one `transaction()`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import aiosqlite

from storage.migrations import apply_migrations, rollback_if_open

if TYPE_CHECKING:
    from storage.guild import Committed

Clock = Callable[[], datetime]
CommitListener = Callable[["Committed"], None]


def utc_now() -> datetime:
    """The current instant, timezone-aware in UTC (the default clock)."""
    return datetime.now(UTC)


def to_text(instant: datetime) -> str:
    """An aware instant as the ISO 8601 UTC text stored in the database."""
    if instant.tzinfo is None:
        raise ValueError("stored instants must be timezone-aware")
    return instant.astimezone(UTC).isoformat(timespec="seconds")


def from_text(text: str) -> datetime:
    """The aware UTC instant stored by `to_text`."""
    return datetime.fromisoformat(text).astimezone(UTC)


class DatabaseUnavailable(Exception):
    """The database file cannot be opened as SQLite (a folder, not a database, no access)."""


class Database:
    """An open Arbiter database; build with `await Database.open(path)`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None
        self._listeners: list[CommitListener] = []
        self.path = path
        self.clock = clock

    @classmethod
    async def open(
        cls, path: Path | str, *, busy_timeout_ms: int = 5000, clock: Clock = utc_now
    ) -> Database:
        """Open (creating the file and its folder) and configure the database; no migration."""
        path = Path(path)
        if path.is_dir():  # refused here: aiosqlite's failed connect leaves its thread behind
            raise DatabaseUnavailable(f"cannot open {path}: it is a folder")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
        try:
            connection.row_factory = aiosqlite.Row
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        except sqlite3.Error as error:  # e.g. "file is not a database"
            await connection.close()
            raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
        return cls(connection, path, clock)

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; returns the versions applied."""
        async with self._exclusive():
            return await apply_migrations(self._connection)

    async def schema_version(self) -> int:
        """The `PRAGMA user_version` of the database (the last migration applied)."""
        async with self.read() as connection:
            cursor = await connection.execute("PRAGMA user_version")
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        await self._connection.close()

    def on_commit(self, listener: CommitListener) -> None:
        """Call `listener(committed)` after every unit of work that commits (the scheduler
        learns of its jobs, the outbox sender of its messages). Listeners must not raise."""
        self._listeners.append(listener)

    def notify(self, committed: Committed) -> None:
        """Hand a committed unit of work's jobs and messages to every listener."""
        for listener in self._listeners:
            listener(committed)

    def in_transaction_of_this_task(self) -> bool:
        """Whether the current task holds the connection (inside `read()` or `transaction()`)."""
        return self._owner is not None and self._owner is asyncio.current_task()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for reads, exclusive for the block (inside a transaction: its own)."""
        if self.in_transaction_of_this_task():
            yield self._connection
            return
        async with self._exclusive():
            yield self._connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT), rolled back whole if the block
        raises or the commit is refused. Nesting is refused: one use case, one transaction."""
        if self.in_transaction_of_this_task():
            raise RuntimeError("a unit of work inside a unit of work: do all of it in one")
        async with self._exclusive():
            connection = self._connection
            try:
                # Inside the try: a cancellation while BEGIN waits for the write lock must
                # still roll back the transaction BEGIN opens once it gets the lock.
                await connection.execute("BEGIN IMMEDIATE")
                yield connection
                await connection.execute("COMMIT")
            except BaseException:
                await rollback_if_open(connection)
                raise
