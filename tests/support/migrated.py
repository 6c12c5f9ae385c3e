"""A migrated SQLite file made once per test process. A test's new database is a copy of it,
opened and migrated as usual (nothing left to apply), instead of a new file migrated from
scratch: each migration is a commit and a flush to disk, ~0.3 s a test on a loaded machine.
The migrations themselves still run here once per process, and in tests/storage from an
empty file."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from storage.engine.database import Clock, Database, utc_now

_template: Path | None = None


async def migrated_template() -> Path:
    """The process's migrated database file, made on first use and deleted at exit."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="arbiter-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "arbiter.db"
        database = await Database.open(path)
        await database.migrate()
        await database.close()
        beside = sorted(p.name for p in folder.iterdir() if p != path)
        assert beside == [], f"the closed template left {beside}: its WAL was not checkpointed"
        _template = path
    return _template


async def place_migrated(path: Path) -> None:
    """Put a copy of the migrated template at `path`, unless a database is already there (a
    test reopening its database, as a restart does, keeps it)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(await migrated_template(), path)


async def open_migrated(path: Path, clock: Clock = utc_now) -> Database:
    """The database at `path`, migrated, on `clock`: what `Database.open` then `migrate` give,
    from a copy of the template when `path` is new."""
    await place_migrated(path)
    database = await Database.open(path, clock=clock)
    await database.migrate()
    return database
