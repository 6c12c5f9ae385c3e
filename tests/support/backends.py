"""What storage tests check the same way on both backends, done each backend's way: another
process writing beside the bot, and whether the reader still holds a snapshot."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import asyncpg

from bot.app.config import DatabaseConfig
from storage.backup import backup_database, backup_to_sqlite
from storage.database import Database, SqliteDatabase
from storage.dialect import postgres_statement
from storage.postgres import PostgresDatabase
from storage.postgres_connection import PostgresConnection


def database_config(location: Path | str) -> DatabaseConfig:
    """The configuration's [database] for `location`: `path` for a SQLite file, `url` for
    PostgreSQL."""
    if isinstance(location, str) and location.startswith(("postgresql://", "postgres://")):
        return DatabaseConfig(url=location)
    return DatabaseConfig(path=Path(location))


async def write_from_another_process(
    database: Database, sql: str, parameters: Sequence[Any] = ()
) -> None:
    """Run one write (SQLite's dialect) on a connection of its own, as another process (the
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
        await connection.execute(postgres_statement(sql).sql, *parameters)
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
