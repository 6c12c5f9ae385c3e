"""Versioned schema migrations in `storage/migrations/NNNN_name.sql`, run by both engines.

Where PostgreSQL needs its own text, `migrations/postgresql/NNNN_name.sql` is its twin.
On SQLite each migration runs in one transaction that also sets `user_version`, so a failed
migration leaves nothing behind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.names import folded
from storage.engine.connection import Connection, Row, SqliteConnection
from storage.engine.errors import IntegrityError

MIGRATIONS_DIR = Path(__file__).parent.parent / "migrations"
POSTGRESQL = "postgresql"
"""The folder, inside the migrations', of the migrations PostgreSQL runs in a text of its own."""
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
REBUILDS = "-- rebuilds tables"
"""A migration whose first line is this runs with foreign keys off, outside a transaction. It
commits only if `foreign_key_check` then finds nothing."""


@dataclass(frozen=True)
class Migration:
    """One numbered SQL script."""

    version: int
    path: Path

    @property
    def sql(self) -> str:
        """The script as SQLite runs it."""
        return self.path.read_text(encoding="utf-8")

    @property
    def postgres_path(self) -> Path:
        """The script PostgreSQL runs: the twin in `postgresql/` if there is one."""
        twin = self.path.parent / POSTGRESQL / self.path.name
        return twin if twin.exists() else self.path

    @property
    def postgres_sql(self) -> str:
        """The script as PostgreSQL runs it."""
        return self.postgres_path.read_text(encoding="utf-8")


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Every migration in `directory`, by version. Versions must be 1, 2, 3 … without gaps."""
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration file name {path.name!r} is not NNNN_name.sql")
        migrations.append(Migration(int(match.group(1)), path))
    expected = list(range(1, len(migrations) + 1))
    if [m.version for m in migrations] != expected:
        raise ValueError(f"migrations in {directory} must be numbered 1..n without gaps")
    return migrations


async def apply_migrations(
    connection: SqliteConnection, directory: Path = MIGRATIONS_DIR
) -> list[int]:
    """Apply the migrations newer than `user_version`. Return the versions applied."""
    await connection.create_function(
        "arbiter_name_key", 1, _sql_name_key, deterministic=True
    )  # for migrations that rewrite name keys (0012)
    cursor = await connection.execute("PRAGMA user_version")
    row = await cursor.fetchone()
    current = int(row[0]) if row else 0
    migrations = discover(directory)
    if current > len(migrations):
        raise RuntimeError(
            f"database schema version {current} is newer than this program ({len(migrations)})"
        )
    applied = []
    for migration in migrations[current:]:
        sql = migration.sql
        rebuilds = sql.startswith(REBUILDS)
        script = f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {migration.version};\n"
        if rebuilds:
            await connection.execute("PRAGMA foreign_keys = OFF")
        try:
            await connection.executescript(script)
            if rebuilds:
                cursor = await connection.execute("PRAGMA foreign_key_check")
                if await cursor.fetchall():
                    raise IntegrityError(f"migration {migration.path.name} broke a reference")
            await connection.execute("COMMIT")
        except BaseException:
            await connection.end_snapshot()  # also after a cancelled BEGIN that opened one
            raise
        finally:
            if rebuilds:
                await connection.execute("PRAGMA foreign_keys = ON")
        applied.append(migration.version)
    return applied


def _sql_name_key(name: object) -> object:
    """`core.names.name_key` for SQL: a text's key."""
    if not isinstance(name, str):
        return name
    key = folded(name)
    return key or name


def postgres_scripts(directory: Path = MIGRATIONS_DIR) -> list[str]:
    """Every migration of `directory` as PostgreSQL runs it, by version."""
    return [migration.postgres_sql for migration in discover(directory)]


async def sqlite_tables(connection: Connection) -> dict[str, tuple[str, ...]]:
    """A SQLite database's tables in creation order, each with the tables it refers to."""
    rows: list[Row] = await connection.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
        " ORDER BY rowid"
    )
    tables = {}
    for row in rows:
        name = str(row[0])
        keys = await connection.execute_fetchall(f'PRAGMA foreign_key_list("{name}")')
        tables[name] = tuple(dict.fromkeys(str(key[2]) for key in keys))
    return tables
