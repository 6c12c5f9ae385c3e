"""Online backup of the database with SQLite's backup API: consistent while the bot writes."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""The live database file and the files SQLite keeps beside it."""


class BackupError(Exception):
    """A backup that cannot be made; nothing was written."""


def backup_database(
    source: Path,
    target: Path,
    *,
    pages: int = -1,
    progress: Callable[[int, int, int], object] | None = None,
) -> int:
    """Copy `source` to the new file `target` as one consistent snapshot; returns its pages.

    By default the copy is one backup step inside a read transaction: writers (WAL mode) are
    not blocked and the copy is the database as of one commit. With `pages` > 0 it is copied
    in steps; SQLite restarts the copy whenever another connection writes, so it stays
    consistent. `progress(status, remaining, total)` is called after each step.
    """
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.exists():
        raise BackupError(f"{target} already exists; choose a new file")
    if not target.parent.is_dir():
        raise BackupError(f"folder {target.parent} does not exist")
    live = source.resolve()
    if target.resolve() in {live.with_name(live.name + end) for end in _COMPANIONS}:
        raise BackupError(f"{target} is one of the database's own files; choose a new file")
    # A fresh, unique temporary name: never a file of the user's (it was `<target>.partial`,
    # which an existing file of that name was written over and then deleted).
    try:
        handle, temporary = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=".partial", dir=target.parent
        )
    except OSError as error:
        raise BackupError(f"cannot write in {target.parent}: {error}") from None
    os.close(handle)
    partial = Path(temporary)
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
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if isinstance(error, sqlite3.Error):
            raise BackupError(f"backup of {source} failed: {error}") from None
        raise
    if target.exists():  # appeared meanwhile: keep it, drop the copy
        partial.unlink()
        raise BackupError(f"{target} already exists; choose a new file")
    partial.rename(target)
    return pages
