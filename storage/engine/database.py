"""An Arbiter database: a writer connection and a read-only reader beside it, migrated.

Every access goes through `read()` or `transaction()`. Transactions take the writer one at a
time. A `read()` block outside a transaction reads one snapshot on the reader, so it neither
waits behind a write nor sees half of one. Use cases open a unit of work in storage/guild.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from storage.engine.connection import Connection, Parameters, SqliteConnection
from storage.engine.errors import DatabaseError
from storage.engine.migrations import MIGRATIONS_DIR, apply_migrations, sqlite_tables

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The current instant, timezone-aware in UTC."""
    return datetime.now(UTC)


class DatabaseUnavailable(Exception):
    """The database cannot be opened."""


class Database:
    """An open Arbiter database."""

    BEGIN_WRITE = "BEGIN IMMEDIATE"
    """How a unit of work's transaction begins."""
    BEGIN_READ = "BEGIN"
    """How a read block's snapshot begins."""

    def serialising(self, guild_id: int | None) -> list[tuple[str, tuple[int, ...]]]:
        """The statements after BEGIN that keep one guild's units of work in turn."""
        return []

    def commit_notices(self, guild_id: int) -> list[tuple[str, tuple[object, ...]]]:
        """What a unit that left jobs or messages runs before COMMIT, to wake other processes."""
        return []

    def __init__(
        self,
        connection: Connection,
        clock: Clock,
        *,
        location: str,
        reader: Connection | None = None,
    ) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[object] | None = None
        self._reader = reader
        """The read-only connection for `read()` outside a transaction."""
        self._read_lock = asyncio.Lock()
        self._reader_owner: asyncio.Task[object] | None = None
        self.location = location
        """Where the database is, as the configuration names it. It may hold a password, so show
        `name` instead."""
        self.clock = clock

    @property
    def name(self) -> str:
        """The database for messages and logs."""
        return self.location

    @classmethod
    async def open(
        cls, path: Path | str, *, busy_timeout_ms: int = 5000, clock: Clock = utc_now
    ) -> SqliteDatabase:
        """Open and configure the SQLite database at `path`. No migration."""
        kind = cls if issubclass(cls, SqliteDatabase) else SqliteDatabase
        return await kind.open_file(Path(path), busy_timeout_ms, clock)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply the pending migrations of `directory`, each in its own transaction."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The version of the last migration applied."""
        raise NotImplementedError

    async def tables(self) -> dict[str, tuple[str, ...]]:
        """Arbiter's tables, each with the tables its foreign keys point to, in creation order."""
        raise NotImplementedError

    async def after_copy(self) -> None:
        """After rows were copied in with their ids, makes sure new rows get new ids."""

    async def close(self) -> None:
        """Close the connections. It may be called again."""
        if self._reader is not None:
            await self._reader.close()
        await self._connection.close()

    @property
    def trips(self) -> int:
        """Calls made to the database so far, both connections together."""
        reader = self._reader
        reader_trips = 0 if reader is None or reader is self._connection else reader.trips
        return self._connection.trips + reader_trips

    def in_transaction_of_this_task(self) -> bool:
        """Whether the current task holds the writer."""
        return self._owner is not None and self._owner is asyncio.current_task()

    def _reading_in_this_task(self) -> bool:
        """Whether the current task is inside a `read()` block on the reader."""
        return self._reader_owner is not None and self._reader_owner is asyncio.current_task()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield
            finally:
                self._owner = None

    @asynccontextmanager
    async def writer(self) -> AsyncIterator[Connection]:
        """The writer connection for the block, with no transaction opened, for maintenance."""
        if self.in_transaction_of_this_task():
            raise RuntimeError("the writer inside a unit of work: use the unit of work")
        async with self._exclusive():
            yield self._connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """A connection for reads, exclusive for the block, or the open transaction's own."""
        if self.in_transaction_of_this_task():
            yield self._connection
            return
        if self._reader is None:
            async with self._exclusive():
                yield self._connection
            return
        if self._reading_in_this_task():
            yield self._reader
            return
        async with self._read_lock:
            reader = self._reader
            self._reader_owner = asyncio.current_task()
            try:
                await reader.execute(self.BEGIN_READ)
                yield reader
            finally:
                self._reader_owner = None
                await reader.end_snapshot()

    async def fetch(self, sql: str, parameters: Parameters = ()) -> list[Any]:
        """The rows of one query read on its own, as a `read()` block would read them."""
        async with self.read() as connection:
            return await connection.execute_fetchall(sql, parameters)

    @asynccontextmanager
    async def transaction(
        self, after_commit: Callable[[], None] | None = None, *, guild_id: int | None = None
    ) -> AsyncIterator[Connection]:
        """One write transaction, rolled back whole if the block raises. Nesting is refused.

        `after_commit` runs once it committed, even if the task was cancelled during COMMIT.
        """
        if self.in_transaction_of_this_task() or self._reading_in_this_task():
            raise RuntimeError("a unit of work inside a unit of work: do all of it in one")
        async with self._exclusive():
            connection = self._connection
            try:
                # Inside the try: a cancellation while BEGIN waits for the write lock must
                # still roll back the transaction BEGIN opens once it gets the lock.
                connection.failed = None
                connection.in_unit = True
                await connection.execute(self.BEGIN_WRITE)
                for statement, parameters in self.serialising(guild_id):
                    await connection.execute(statement, parameters)
                yield connection
                if connection.failed is not None:  # caught in the block: still not committed
                    raise connection.failed
                cancelled = await _commit(connection)
            except BaseException:
                await connection.end_snapshot()  # closes the cursors
                raise
            finally:
                connection.in_unit = False
                connection.failed = None
        if after_commit is not None:
            after_commit()
        if cancelled is not None:
            raise cancelled


async def _commit(connection: Connection) -> asyncio.CancelledError | None:
    """COMMIT, even if the task is cancelled. Returns the cancellation that came meanwhile."""
    commit = asyncio.ensure_future(connection.commit_transaction())
    try:
        await asyncio.shield(commit)
        return None
    except asyncio.CancelledError as cancelled:
        while not commit.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait([commit])
        if commit.cancelled() or commit.exception() is not None:
            raise
        return cancelled


MEMORY = ":memory:"
"""The in-memory database's name: one connection only."""


class SqliteDatabase(Database):
    """The embedded default: one SQLite file, a writer and a query-only reader."""

    def __init__(
        self,
        connection: SqliteConnection,
        path: Path,
        clock: Clock,
        *,
        reader: SqliteConnection | None = None,
    ) -> None:
        super().__init__(connection, clock, location=str(path), reader=reader)
        self._sqlite = connection
        self.path = path

    @classmethod
    async def open_file(cls, path: Path, busy_timeout_ms: int, clock: Clock) -> SqliteDatabase:
        """Open and configure the database. No migration."""
        if path.is_dir():  # refused here: aiosqlite's failed connect leaves its thread behind
            raise DatabaseUnavailable(f"cannot open {path}: it is a folder")
        connection = await _connect(path, busy_timeout_ms, "PRAGMA journal_mode=WAL")
        reader = None
        if str(path) != MEMORY:
            try:
                reader = await _connect(path, busy_timeout_ms, "PRAGMA query_only=ON")
            except DatabaseUnavailable:
                await connection.close()
                raise
        return cls(connection, path, clock, reader=reader)

    @classmethod
    async def open_read_only(cls, path: Path, clock: Clock = utc_now) -> SqliteDatabase:
        """Open the existing database at `path` so that nothing can be written to it.

        SQLite itself refuses every write, and so does `query_only`. No migration. The one
        connection is also the reader, so a `read()` block is one snapshot even while another
        process writes the file.
        """
        if path.is_dir():
            raise DatabaseUnavailable(f"cannot open {path}: it is a folder")
        if not path.is_file():
            raise DatabaseUnavailable(f"cannot open {path}: no such file")
        try:
            inner = await aiosqlite.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
            )
            inner.row_factory = aiosqlite.Row
        except (OSError, sqlite3.Error) as error:
            raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
        connection = SqliteConnection(inner)
        try:
            await connection.execute("PRAGMA query_only=ON")
            await connection.execute("SELECT COUNT(*) FROM sqlite_master")
        except DatabaseError as error:  # e.g. "file is not a database"
            await connection.close()
            raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
        return cls(connection, path, clock, reader=connection)

    async def fetch(self, sql: str, parameters: Parameters = ()) -> list[Any]:
        """The rows of one query in one trip: on the reader, a lone statement is a snapshot of
        its own, so it needs no BEGIN and no ROLLBACK around it."""
        reader = self._reader
        if reader is None or self.in_transaction_of_this_task() or self._reading_in_this_task():
            return await super().fetch(sql, parameters)
        async with self._read_lock:
            return await reader.execute_fetchall(sql, parameters)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply pending migrations, each in its own transaction. Returns the versions applied."""
        async with self.writer():
            return await apply_migrations(self._sqlite, directory)

    async def schema_version(self) -> int:
        """The `PRAGMA user_version` of the database."""
        async with self.read() as connection:
            cursor = await connection.execute("PRAGMA user_version")
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def tables(self) -> dict[str, tuple[str, ...]]:
        """Arbiter's tables with the tables their foreign keys point to, in creation order."""
        async with self.read() as connection:
            return await sqlite_tables(connection)


async def _connect(path: Path, busy_timeout_ms: int, mode: str) -> SqliteConnection:
    """A configured connection in `mode`, or `DatabaseUnavailable`.

    It runs in autocommit mode, as transactions are opened explicitly. Rows are `aiosqlite.Row`,
    read by name and by position.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        inner = await aiosqlite.connect(str(path), isolation_level=None)
        inner.row_factory = aiosqlite.Row
        connection = SqliteConnection(inner)
    except (OSError, sqlite3.Error) as error:
        raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
    try:
        await connection.execute(mode)
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    except DatabaseError as error:  # e.g. "file is not a database"
        await connection.close()
        raise DatabaseUnavailable(f"cannot open {path}: {error}") from None
    return connection
