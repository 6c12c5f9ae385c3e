"""Online backup of the database, consistent while the bot writes.

A SQLite database is copied with SQLite's backup API. A PostgreSQL one becomes a new SQLite file
holding every row of one snapshot, which `arbiter db copy` restores.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from storage.engine.database import Database

_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The live database file and the files SQLite keeps beside it."""


_PREFIX_CHARS = 100
"""How much of the target's name the temporary file borrows, to keep its name short enough."""


def _short(path: Path) -> str:
    """A path for a message, cut after 120 characters: a huge name is not echoed whole."""
    text = str(path)
    return text if len(text) <= 120 else text[:120] + "…"


class BackupError(Exception):
    """A backup that cannot be made. Nothing was written."""


class BackupFailed(BackupError):
    """A backup that was begun but could not be written or finished."""


def _check_target(target: Path) -> None:
    """Refuses an existing target, a folder or a missing folder."""
    if target.is_dir():
        raise BackupError(f"{_short(target)} is a folder; give a new file's name")
    if target.exists():
        raise BackupError(f"{_short(target)} already exists; choose a new file")
    if not target.parent.is_dir():
        raise BackupError(f"folder {target.parent} does not exist")


def _check_paths(source: Path, target: Path) -> None:
    """Refuses a missing source, an existing target or folder, or the live database's files."""
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    _check_target(target)
    live = source.resolve()
    if target.resolve() in {live.with_name(live.name + end) for end in _COMPANIONS}:
        raise BackupError(f"{target} is one of the database's own files; choose a new file")


def _partial(target: Path) -> Path:
    """A fresh, unique temporary file beside `target`, never a file of the user's."""
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name[:_PREFIX_CHARS]}.", suffix=".partial", dir=target.parent
    )
    os.close(handle)
    return Path(temporary)


def _put_in_place(partial: Path, target: Path) -> None:
    """Renames the finished copy to `target`, unless `target` appeared meanwhile."""
    if target.exists():
        raise BackupError(f"{target} already exists; choose a new file")
    partial.rename(target)


def backup_database(
    source: Path,
    target: Path,
    *,
    pages: int = -1,
    progress: Callable[[int, int, int], object] | None = None,
) -> int:
    """Copies `source` to the new file `target` as one consistent snapshot. Returns its pages.

    Writers are not blocked, and the copy is the database as of one commit.
    """
    try:
        _check_paths(source, target)
    except OSError as error:  # e.g. a name longer than the file system allows
        raise BackupError(f"cannot use {_short(target)}: {error.strerror or error}") from None
    try:
        partial = _partial(target)
    except OSError as error:
        raise BackupFailed(
            f"cannot write in {_short(target.parent)}: {error.strerror or error}"
        ) from None
    # A percent-encoded URI: '#', '?' or '%' in the path must not cut it short (that opened
    # or created another, empty, database and "backed up" that).
    uri = source.resolve().as_uri() + "?mode=rw"
    try:
        src = sqlite3.connect(uri, uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst, pages=pages, progress=progress)
                pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
            finally:
                dst.close()
        finally:
            src.close()
        _put_in_place(partial, target)
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
            raise BackupError(f"{source} is not a database: {error}") from None
        if isinstance(error, sqlite3.Error):
            raise BackupFailed(f"backup of {source} failed: {error}") from None
        if isinstance(error, OSError):
            raise BackupFailed(
                f"cannot write {_short(target)}: {error.strerror or error}"
            ) from None
        raise
    return pages


async def backup_to_sqlite(database: Database, target: Path) -> int:
    """Copies every row of `database` as of one snapshot into the new SQLite file `target`.

    The file is written under a temporary name first, so it appears only once complete.
    """
    from storage.engine.copy import CopyMismatch, CopyRefused, copy_database

    try:
        _check_target(target)
        partial = _partial(target)
    except OSError as error:
        raise BackupError(f"cannot use {_short(target)}: {error.strerror or error}") from None
    partial.unlink()  # SQLite creates it
    try:
        copy = await Database.open(partial)
        try:
            report = await copy_database(database, copy)
        finally:
            await copy.close()
        _put_in_place(partial, target)
    except BaseException as error:
        for end in _COMPANIONS:
            partial.with_name(partial.name + end).unlink(missing_ok=True)
        if isinstance(error, CopyRefused | CopyMismatch | sqlite3.Error | OSError):
            raise BackupFailed(f"backup of {database.name} failed: {error}") from None
        raise
    return report.total
