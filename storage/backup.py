"""Online backup of the database with SQLite's backup API: consistent while the bot writes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path


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
    partial = target.with_name(target.name + ".partial")
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
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"backup of {source} failed: {error}") from None
    partial.rename(target)
    return pages
