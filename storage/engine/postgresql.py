"""The PostgreSQL database: the same `Database` as SQLite's (units of work, read snapshots,
the same repositories and SQL text), on two asyncpg connections.

- Units of work take the writer one at a time in this process (as on SQLite), each one
  transaction `BEGIN ISOLATION LEVEL READ COMMITTED … COMMIT`: a claim such as the scheduler's
  `UPDATE … WHERE status = 'pending'` re-checks its condition on the row it waited for, so two
  processes sharing the database never both win it.
- A `read()` block is one snapshot on the reader: `REPEATABLE READ, READ ONLY` (the reader
  connection refuses writes as SQLite's query-only one does).
- The schema is storage/migrations/ (with PostgreSQL's twins in its `postgresql/` folder),
  applied in order, each migration in one transaction with its version in `arbiter_schema_version`,
  under a transaction-level advisory lock: processes starting together migrate once.
- Ownership (`storage/shared/ownership.py`): a session-level advisory lock on a connection of its
  own, exclusive for a lone bot; the server drops it when that process dies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast
from urllib.parse import urlsplit, urlunsplit

from storage.engine.database import Clock, Database, DatabaseUnavailable, utc_now
from storage.engine.dialect import Dialect
from storage.engine.migrations import MIGRATIONS_DIR, postgres_scripts

if TYPE_CHECKING:  # asyncpg is imported when a server is connected to, not by every command
    from storage.engine.postgresql_connection import PostgresConnection

SCHEMA_TABLE = "arbiter_schema_version"
"""The one-row table holding the version of the last migration applied."""

MIGRATION_LOCK = 0x4172_6269_7465_7201
"""The advisory lock key migrations hold (transaction-level): one process migrates at a time."""

OWNER_LOCK = 0x4172_6269_7465_7202
"""The advisory lock key of the bot owning the database (`storage.shared.ownership`)."""

SHARD_LOCK_CLASS = 0x4172_626A
"""The first key of the shard locks: (SHARD_LOCK_CLASS, shard id), held exclusively by the
process running that shard (`storage.shared.ownership`)."""

SHARD_COUNT_CLASS = 0x4172_626B
"""The first key of the shard-count locks: (SHARD_COUNT_CLASS, count), held shared by every
shard process; processes that split the guilds by different counts refuse to run together."""

COMMIT_CHANNEL = "arbiter_commit"
"""The LISTEN/NOTIFY channel a unit of work that left jobs or messages notifies (payload: its
guild id), so the process running that guild's shard wakes its scheduler and outbox."""

UNIT_LOCK_CLASS = 0x4172_6269
"""The first key of the per-guild unit-of-work locks (`PostgresDatabase.serialising`)."""

STATEMENT_CACHE = 1024
"""Prepared statements asyncpg keeps per connection (Arbiter has a few hundred texts)."""


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
    """A connection to `url` (read-only: every transaction on it refuses writes), or
    `DatabaseUnavailable` saying why."""
    from storage.engine.postgresql_connection import open_connection

    settings = {"application_name": "arbiter"}
    if read_only:
        settings["default_transaction_read_only"] = "on"
    try:
        return await open_connection(url, STATEMENT_CACHE, settings)
    except (OSError, ValueError) as error:
        raise DatabaseUnavailable(f"cannot connect to {shown_url(url)}: {error}") from None


class PostgresDatabase(Database):
    """An Arbiter database on a PostgreSQL server; build with
    `await PostgresDatabase.connect(url)` (or `storage.engine.locations.open_database(url)`)."""

    dialect = Dialect.POSTGRESQL
    BEGIN_WRITE = "BEGIN ISOLATION LEVEL READ COMMITTED"
    BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

    def serialising(self, guild_id: int | None) -> list[tuple[str, tuple[int, ...]]]:
        """A transaction-level advisory lock per guild (all units of work of unknown guild
        share one): a unit of work that reads, decides and writes sees every unit of its guild
        that committed before it, as on SQLite, whose BEGIN IMMEDIATE does this for the whole
        file — READ COMMITTED alone would let two processes both decide on the same old row.
        Units of different guilds still run side by side (two int4 keys: the guild's id folded
        into 31 bits; a clash only makes two guilds wait for each other)."""
        key = 0 if guild_id is None else guild_id % 2_147_483_647
        return [("SELECT pg_advisory_xact_lock(?, ?)", (UNIT_LOCK_CLASS, key))]

    def commit_notices(self, guild_id: int) -> list[tuple[str, tuple[object, ...]]]:
        """`pg_notify` on `COMMIT_CHANNEL` with the guild's id: the server delivers it to every
        listener when (and only if) the transaction commits."""
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
        """The database for messages (the URL without its password)."""
        return shown_url(self.url)

    @classmethod
    async def connect(cls, url: str, *, clock: Clock = utc_now) -> PostgresDatabase:
        """Connect the writer and the reader to the database at `url`; no migration."""
        writer = await connect(url)
        try:
            reader = await connect(url, read_only=True)
        except DatabaseUnavailable:
            await writer.close()
            raise
        return cls(writer, reader, url, clock)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> list[int]:
        """Apply pending migrations, each in its own transaction under the
        migration lock; returns the versions applied."""
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
        """The schema version (0 when there is no version table yet)."""
        [exists] = await writer.native("SELECT to_regclass($1) IS NOT NULL", SCHEMA_TABLE)
        if not exists[0]:
            return 0
        [row] = await writer.native(f"SELECT coalesce(max(version), 0) FROM {SCHEMA_TABLE}")
        return int(row[0])

    async def schema_version(self) -> int:
        """The version of the last migration applied (0: none yet)."""
        async with self.read() as connection:
            return await self._version(cast("PostgresConnection", connection))

    async def tables(self) -> dict[str, tuple[str, ...]]:
        """Arbiter's tables (of the current schema) with the tables their foreign keys
        point to, in creation order."""
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

    async def identity_columns(self) -> dict[str, str]:
        """Each table's identity column (its ids come from a sequence a copy must move on)."""
        async with self.read() as connection:
            rows = await cast("PostgresConnection", connection).native(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            )
        return {str(row[0]): str(row[1]) for row in rows}

    async def after_copy(self) -> None:
        """Move the identity sequences past the ids copied in (`restart_identities`)."""
        await self.restart_identities()

    async def restart_identities(self) -> None:
        """Move every identity sequence past its table's largest id (after rows were copied
        in with their ids, which do not move it)."""
        identities = await self.identity_columns()
        async with self.writer():
            for table, column in identities.items():
                await self._writer.native(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                    f" coalesce(max({column}), 0) + 1, false) FROM {table}"
                )

    async def lock_owner(
        self, *, shared: bool, shards: tuple[int, ...] = (), shard_count: int | None = None
    ) -> OwnerConnection:
        """Hold the owner lock on a connection of its own: exclusive (a lone bot), or shared
        (shard processes, which divide the work among themselves), then — for shard processes
        — `shard_count`'s lock shared and each of `shards`' locks exclusively (the process
        runs those shards' guilds alone). `OwnerLockTaken` (nothing held) if any is taken."""
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
    """The owner lock is held by another process (exclusively, or shared when `shared` was
    not asked for); or `shard`'s lock is (another process runs it); or processes with
    another shard count (`other_count`) run on the database."""

    def __init__(
        self, shared: bool, *, shard: int | None = None, other_count: int | None = None
    ) -> None:
        super().__init__(shared)
        self.shared = shared
        self.shard = shard
        self.other_count = other_count


@dataclass
class OwnerConnection:
    """The connection holding the owner (and shard) locks: closing it releases them. It also
    listens for other processes' commits (`listen`): it is otherwise idle."""

    connection: PostgresConnection
    own_pid: int
    """The server process of this process's writer (its notifications are not news here)."""

    async def listen(self, callback: Callable[[int], None]) -> None:
        """Call `callback(guild_id)` for each unit of work another process commits with jobs
        or messages (`COMMIT_CHANNEL`), for as long as the lock is held."""

        def heard(_connection: object, pid: int, _channel: str, payload: str) -> None:
            if pid != self.own_pid and payload.isdigit():
                callback(int(payload))

        await self.connection.raw.add_listener(COMMIT_CHANNEL, heard)

    async def release(self) -> None:
        """Give the lock up (closing its connection; idempotent)."""
        await self.connection.close()
