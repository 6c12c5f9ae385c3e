"""The SQLite database: one aiosqlite connection (WAL, foreign keys, busy timeout), migrated.

Every access goes through `read()` or `change()`; a lock serialises them so a transaction on
the shared connection never interleaves with another task's statements. `change()` writes
the audit row in the same transaction as the change it records.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage.migrations import apply_migrations, rollback_if_open

Clock = Callable[[], datetime]


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


@dataclass
class Transaction:
    """An open write transaction: its connection, its instant (from the database clock, also
    the audit row's `at`) and the audit details it will record."""

    connection: aiosqlite.Connection
    now: datetime
    details: dict[str, Any]
    unchanged: bool = False

    def abandon(self) -> None:
        """Nothing to change after all: roll back at the end of the block, with no audit row."""
        self.unchanged = True

    async def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> aiosqlite.Cursor:
        """Run one statement inside the transaction."""
        return await self.connection.execute(sql, parameters)

    async def execute_or_abandon(self, sql: str, parameters: tuple[Any, ...] = ()) -> None:
        """Run the statement that is the whole change; one that touches no row (a conditional
        UPDATE or DELETE that matched nothing, an INSERT OR IGNORE of a duplicate) abandons it."""
        cursor = await self.connection.execute(sql, parameters)
        if cursor.rowcount == 0:
            self.abandon()


class Database:
    """An open Arbiter database; build with `await Database.open(path)`."""

    def __init__(self, connection: aiosqlite.Connection, path: Path, clock: Clock) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None
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

    def _held_by_this_task(self) -> bool:
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
        """The connection for reads, exclusive for the block (inside `change()`: its own)."""
        if self._held_by_this_task():
            yield self._connection
            return
        async with self._exclusive():
            yield self._connection

    @asynccontextmanager
    async def change(
        self,
        *,
        guild_id: int,
        actor_id: int | None,
        action: str,
        subject: str,
        details: dict[str, Any] | None = None,
    ) -> AsyncIterator[Transaction]:
        """One write transaction plus its audit row; rolled back whole if the block raises.

        The block may add to `transaction.details` before the audit row is written. Reads in
        the block see the transaction; a nested `change()` is refused (one service call, one
        transaction).
        """
        if self._held_by_this_task():
            raise RuntimeError("change() inside change(): do all of it in one transaction")
        async with self._exclusive():
            connection = self._connection
            transaction = Transaction(connection, self.clock(), dict(details or {}))
            try:
                # Inside the try: a cancellation while BEGIN waits for the write lock must
                # still roll back the transaction BEGIN opens once it gets the lock.
                await connection.execute("BEGIN IMMEDIATE")
                yield transaction
                if transaction.unchanged:
                    await connection.execute("ROLLBACK")
                    return
                await connection.execute(
                    "INSERT INTO audit (guild_id, actor_id, action, subject, details, at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        actor_id,
                        action,
                        subject,
                        json.dumps(transaction.details, sort_keys=True, default=str),
                        to_text(transaction.now),
                    ),
                )
                await connection.execute("COMMIT")
            except BaseException:
                await rollback_if_open(connection)
                raise
