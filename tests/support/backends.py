"""What storage tests check the same way on both backends, done each backend's way: another
process writing beside the bot, and whether the reader still holds a snapshot."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import asyncpg

from bot.kernel.config import DatabaseConfig
from storage.engine.backup import backup_database, backup_to_sqlite
from storage.engine.database import Database, SqliteDatabase
from storage.engine.postgresql import PostgresDatabase
from storage.engine.postgresql_connection import PostgresConnection, numbered
from tests.support.postgres_server import run_aside


def database_config(location: Path | str) -> DatabaseConfig:
    """The configuration's [database] for `location`: `path` for a SQLite file, `url` for
    PostgreSQL."""
    if isinstance(location, str) and location.startswith(("postgresql://", "postgres://")):
        return DatabaseConfig(url=location)
    return DatabaseConfig(path=Path(location))


async def write_from_another_process(
    database: Database, sql: str, parameters: Sequence[Any] = ()
) -> None:
    """Run one write (`?` placeholders) on a connection of its own, as another process (the
    CLI, a second bot) would: sqlite3 on the file, or asyncpg on the server."""
    if isinstance(database, SqliteDatabase):
        other = sqlite3.connect(database.path, isolation_level=None)
        try:
            other.execute(sql, tuple(parameters))
        finally:
            other.close()
        return
    assert isinstance(database, PostgresDatabase)
    connection = await asyncpg.connect(database.url)
    try:
        await connection.execute(numbered(sql), *parameters)
    finally:
        await connection.close()


async def reader_holds_a_snapshot(database: Database) -> bool:
    """Whether the reader keeps a snapshot open between read blocks (SQLite: a checkpoint
    cannot reset the WAL; PostgreSQL: the reader's session is idle in a transaction)."""
    if isinstance(database, SqliteDatabase):
        async with database.writer() as connection:
            rows = list(await connection.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)"))
        return tuple(rows[0]) != (0, 0, 0)
    reader = cast(PostgresConnection, database._reader)
    async with database.writer() as connection:
        rows = await cast(PostgresConnection, connection).native(
            "SELECT state FROM pg_stat_activity WHERE pid = $1", reader.raw.get_server_pid()
        )
    return reader.in_transaction or rows[0][0] != "idle"


async def backup_to(database: Database, target: Path) -> int:
    """`arbiter db backup`'s copy of `database` into the new SQLite file `target`, each
    backend's way: SQLite's backup API on the file (its pages), or PostgreSQL's rows in one
    snapshot (their number)."""
    if isinstance(database, SqliteDatabase):
        return await asyncio.to_thread(backup_database, database.path, target)
    return await backup_to_sqlite(database, target)


def _is_url(location: Path | str) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def rows_at(
    location: Path | str, sql: str, parameters: Sequence[Any] = ()
) -> list[tuple[Any, ...]]:
    """The rows of one query (`?` placeholders) on a connection of its own, as another
    process reads them: sqlite3 on the file, or asyncpg on the server (from a thread of its
    own, so a test inside its event loop may call it)."""
    if not _is_url(location):
        connection = sqlite3.connect(location)
        try:
            return [tuple(row) for row in connection.execute(sql, tuple(parameters))]
        finally:
            connection.close()

    async def read() -> list[tuple[Any, ...]]:
        other = await asyncpg.connect(str(location))
        try:
            found = await other.fetch(numbered(sql), *parameters)
        finally:
            await other.close()
        return [tuple(row) for row in found]

    return run_aside(read())


def dump_at(location: Path | str) -> list[str]:
    """The whole database as text lines, read by a connection of its own: two dumps of one
    backend are equal iff no row changed (SQLite: `iterdump`; PostgreSQL: every table's rows,
    sorted, as lines of the same shape: `INSERT INTO "table" VALUES(…);`)."""
    if not _is_url(location):
        connection = sqlite3.connect(location)
        try:
            return list(connection.iterdump())
        finally:
            connection.close()

    async def read() -> list[str]:
        other = await asyncpg.connect(str(location))
        try:
            tables = await other.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                " ORDER BY tablename"
            )
            lines = []
            for (table,) in tables:
                found = await other.fetch(f'SELECT * FROM "{table}"')
                lines += sorted(f'INSERT INTO "{table}" VALUES{tuple(row)!r};' for row in found)
        finally:
            await other.close()
        return lines

    return run_aside(read())


def run_script_at(location: Path | str, *, sqlite: str, postgresql: str) -> None:
    """Run a script (e.g. a trigger, which the engines spell differently) on a connection of
    its own: `sqlite` on a SQLite file, `postgresql` on the server."""
    if not _is_url(location):
        connection = sqlite3.connect(location)
        try:
            connection.executescript(sqlite)
        finally:
            connection.close()
        return

    async def run() -> None:
        other = await asyncpg.connect(str(location))
        try:
            await other.execute(postgresql)
        finally:
            await other.close()

    run_aside(run())
