"""The PostgreSQL database: the same `Database` as SQLite's, on two asyncpg connections.

Units of work run at READ COMMITTED, so a claim such as `UPDATE … WHERE status = 'pending'`
re-checks its row and two processes never both win it. A `read()` block is one REPEATABLE READ,
READ ONLY snapshot. Migrations run under an advisory lock, so processes starting together
migrate once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlsplit, urlunsplit

from storage.engine.database import Clock, Database, DatabaseUnavailable, utc_now
from storage.engine.migrations import MIGRATIONS_DIR, postgres_scripts

if TYPE_CHECKING:  # asyncpg is imported when a server is connected to, not by every command
    from storage.engine.postgresql_connection import PostgresConnection

SCHEMA_TABLE = "arbiter_schema_version"
"""The one-row table holding the version of the last migration applied."""

MIGRATION_LOCK = 0x4172_6269_7465_7201
"""The advisory lock key migrations hold: one process migrates at a time."""

OWNER_LOCK = 0x4172_6269_7465_7202
"""The advisory lock key of the bot owning the database."""

SHARD_LOCK_CLASS = 0x4172_626A
"""The first key of the shard locks, held exclusively by the process running that shard."""

SHARD_COUNT_CLASS = 0x4172_626B
"""The first key of the shard-count locks, held shared by every shard process."""

COMMIT_CHANNEL = "arbiter_commit"
"""The channel a unit of work that left jobs or messages notifies, to wake the guild's shard."""

UNIT_LOCK_CLASS = 0x4172_6269
"""The first key of the per-guild unit-of-work locks."""

STATEMENT_CACHE = 1024
"""Prepared statements asyncpg keeps per connection."""


def is_postgres_url(location: object) -> bool:
    """Whether `location` is a PostgreSQL URL (`postgresql://…` or `postgres://…`)."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def shown_url(url: str) -> str:
    """`url` for messages and logs: its password replaced by `***`."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


async def connect(url: str, *, read_only: bool = False) -> PostgresConnection:
    """A connection to `url`, read-only if asked, or `DatabaseUnavailable` saying why."""
    import asyncpg

    from storage.engine.postgresql_connection import PostgresConnection

    settings = {"application_name": "arbiter"}
    if read_only:
        settings["default_transaction_read_only"] = "on"
    try:
        inner = await asyncpg.connect(
            url, statement_cache_size=STATEMENT_CACHE, server_settings=settings
        )
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnavailable(f"cannot connect to {shown_url(url)}: {error}") from None
    return PostgresConnection(inner)


class PostgresDatabase(Database):
    """An Arbiter database on a PostgreSQL server, opened by `PostgresDatabase.connect`."""

    BEGIN_WRITE = "BEGIN ISOLATION LEVEL READ COMMITTED"
    BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    def serialising(self, guild_id: int | None) -> list[tuple[str, tuple[int, ...]]]:
        """A lock per guild, so a unit sees every earlier unit of its guild, as on SQLite."""
        key = 0 if guild_id is None else guild_id % 2_147_483_647
        return [("SELECT pg_advisory_xact_lock(?, ?)", (UNIT_LOCK_CLASS, key))]

    def commit_notices(self, guild_id: int) -> list[tuple[str, tuple[object, ...]]]:
        """Notifies `COMMIT_CHANNEL` of the guild, heard when the transaction commits."""
        return [("SELECT pg_notify(?, ?)", (COMMIT_CHANNEL, str(guild_id)))]

    @property
    def server_pid(self) -> int:
        """The server process of the writer: the sender of this process's own notifications."""
        return int(self._writer.raw.get_server_pid())

    def __init__(
        self, writer: PostgresConnection, reader: PostgresConnection, url: str, clock: Clock
    ) -> None:
        super().__init__(writer, clock, location=url, reader=reader)
        self._writer = writer
        self.url = url

    @property
    def name(self) -> str:
        """The database for messages."""
        return shown_url(self.url)

    @classmethod
    async def connect(cls, url: str, *, clock: Clock = utc_now) -> PostgresDatabase:
        """Connect the writer and the reader to the database at `url`. No migration."""
        writer = await connect(url)
        try:
            reader = await connect(url, read_only=True)
        except DatabaseUnavailable:
            await writer.close()
            raise
        return cls(writer, reader, url, clock)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply pending migrations, each in its own transaction under the migration lock."""
        scripts = postgres_scripts(directory)
        applied = []
        async with self.writer() as connection:
            writer = self._writer
            if await self._version(writer) == len(scripts):
                return []  # the common case, in two trips
            for version, script in enumerate(scripts, 1):
                await writer.native("BEGIN")
                try:
                    await writer.native("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await writer.native(
                        f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version BIGINT)"
                    )
                    current = await self._version(writer)
                    if current > len(scripts):
                        raise RuntimeError(
                            f"database schema version {current} is newer than this program"
                            f" ({len(scripts)})"
                        )
                    if current < version:
                        await writer.executescript(script)
                        await writer.native(f"DELETE FROM {SCHEMA_TABLE}")
                        await writer.native(f"INSERT INTO {SCHEMA_TABLE} VALUES ($1)", version)
                    await connection.commit_transaction()
                except BaseException:
                    await connection.end_snapshot()
                    raise
                if current < version:
                    applied.append(version)
        return applied

    async def _version(self, writer: PostgresConnection) -> int:
        """The schema version."""
        [exists] = await writer.native("SELECT to_regclass($1) IS NOT NULL", SCHEMA_TABLE)
        if not exists[0]:
            return 0
        [row] = await writer.native(f"SELECT coalesce(max(version), 0) FROM {SCHEMA_TABLE}")
        return int(row[0])

    async def schema_version(self) -> int:
        """The version of the last migration applied."""
        async with self.read() as connection:
            return await self._version(cast("PostgresConnection", connection))

    async def tables(self) -> dict[str, tuple[str, ...]]:
        """Arbiter's tables with the tables their foreign keys point to, in creation order."""
        async with self.read() as connection:
            rows = await cast("PostgresConnection", connection).native(
                "SELECT c.relname, ARRAY(SELECT DISTINCT r.relname FROM pg_constraint AS k"
                " JOIN pg_class AS r ON r.oid = k.confrelid"
                " WHERE k.conrelid = c.oid AND k.contype = 'f' ORDER BY r.relname)"
                " FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace"
                " WHERE c.relkind = 'r' AND n.nspname = current_schema() AND c.relname <> $1"
                " ORDER BY c.oid",
                SCHEMA_TABLE,
            )
        return {str(row[0]): tuple(str(name) for name in row[1]) for row in rows}

    async def after_copy(self) -> None:
        """Move every identity sequence past its table's largest id, after ids were copied in."""
        async with self.writer():
            identities = await self._writer.native(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            )
            for table, column in identities:
                await self._writer.native(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" coalesce(max({column}), 0) + 1, false) FROM {table}"
                )

    async def lock_owner(
        self, *, shared: bool, shards: tuple[int, ...] = (), shard_count: int | None = None
    ) -> OwnerConnection:
        """Hold the owner lock, and a shard process's shard locks, on a connection of its own.

        Raises `OwnerLockTaken`, holding nothing, if any of them is taken.
        """
        connection = await connect(self.url)
        try:
            raw = connection.raw
            function = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
            if not await raw.fetchval(f"SELECT {function}($1)", OWNER_LOCK):
                raise OwnerLockTaken(shared)
            if shard_count is not None:
                await raw.fetchval(
                    "SELECT pg_try_advisory_lock_shared($1, $2)", SHARD_COUNT_CLASS, shard_count
                )
                other = await raw.fetchval(
                    "SELECT min(objid) FROM pg_locks WHERE locktype = 'advisory'"
                    " AND classid = $1 AND objsubid = 2 AND objid <> $2 AND granted",
                    SHARD_COUNT_CLASS,
                    shard_count,
                )
                if other is not None:
                    raise OwnerLockTaken(shared, other_count=int(other))
            for shard in shards:
                if not await raw.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK_CLASS, shard
                ):
                    raise OwnerLockTaken(shared, shard=shard)
        except BaseException:
            await connection.close()  # the server releases whatever it took
            raise
        return OwnerConnection(connection, self.server_pid)


class OwnerLockTaken(Exception):
    """Another process holds the owner lock or `shard`'s lock."""

    def __init__(
        self, shared: bool, *, shard: int | None = None, other_count: int | None = None
    ) -> None:
        super().__init__(shared)
        self.shared = shared
        self.shard = shard
        self.other_count = other_count


@dataclass
class OwnerConnection:
    """The connection holding the owner locks, which closing releases. It hears other commits."""

    connection: PostgresConnection
    own_pid: int
    """The server process of this process's writer."""

    async def listen(self, callback: Callable[[int], None]) -> None:
        """Call `callback` with the guild of each unit another process commits with work."""

        def heard(_connection: object, pid: int, _channel: str, payload: str) -> None:
            if pid != self.own_pid and payload.isdigit():
                callback(int(payload))

        await self.connection.raw.add_listener(COMMIT_CHANNEL, heard)

    async def release(self) -> None:
        """Give the lock up by closing its connection. It may be called again."""
        await self.connection.close()
