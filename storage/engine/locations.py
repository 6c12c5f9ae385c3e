"""Where a database is, and `open_database` opening it behind the one `Database` interface.

A location is a SQLite path or `sqlite:PATH`, or a `postgresql://` URL.
"""

from __future__ import annotations

from pathlib import Path

from storage.engine.database import Clock, Database, utc_now
from storage.engine.postgresql import PostgresDatabase, is_postgres_url, shown_url

SQLITE_PREFIX = "sqlite:"


def sqlite_path(location: str | Path) -> Path | None:
    """The SQLite file `location` names, or None for a PostgreSQL URL."""
    if isinstance(location, Path):
        return location
    if is_postgres_url(location):
        return None
    return Path(location.removeprefix(SQLITE_PREFIX))


async def open_database(
    location: str | Path, *, busy_timeout_ms: int = 5000, clock: Clock = utc_now
) -> Database:
    """Opens the database at `location` without migrating it."""
    path = sqlite_path(location)
    if path is None:
        return await PostgresDatabase.connect(str(location), clock=clock)
    return await Database.open(path, busy_timeout_ms=busy_timeout_ms, clock=clock)


def shown(location: str | Path) -> str:
    """`location` for messages: a file's path, or a URL without its password."""
    return str(location) if sqlite_path(location) is not None else shown_url(str(location))
