"""One running bot per database: a lock file beside the database, held while the bot runs.

The bot that runs jobs treats a `running` job at start-up as interrupted by a crash and
fires every due deadline; a second bot on the same file would fire them twice. The lock is
an OS lock (`flock`) on `<database>.owner`, so the kernel drops it when the process dies:
a crash never leaves it stale. A clean stop removes the file (while still holding its lock;
an owner checks, once locked, that the file it locked is still the one at the path, so a
file removed meanwhile is never owned twice). Backups and migrations do not take it (they
are safe beside a running bot).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class DatabaseOwned(Exception):
    """Another running process already owns this database."""


class OwnerLock:
    """The held ownership of one database file; `release()` (or process exit) frees it."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def acquire(cls, database: Path) -> OwnerLock:
        """Own `database`, or raise `DatabaseOwned` naming the process that does."""
        path = database.with_name(database.name + ".owner")
        while True:
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.read(descriptor, 32).decode("ascii", "replace").strip() or "unknown"
                os.close(descriptor)
                raise DatabaseOwned(
                    f"another Arbiter (process {holder}) is running on {database}; "
                    "stop it first, or give this one its own database.path"
                ) from None
            if _same_file(descriptor, path):
                break
            os.close(descriptor)  # the owner before removed it as we locked it: again
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode("ascii"))
        return cls(path, descriptor)

    def release(self) -> None:
        """Give up ownership and remove the lock file (idempotent): a clean stop leaves
        nothing that looks like a running bot."""
        if self._descriptor is not None:
            if _same_file(self._descriptor, self.path):
                self.path.unlink(missing_ok=True)
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
            os.close(self._descriptor)
            self._descriptor = None


def _same_file(descriptor: int, path: Path) -> bool:
    """Whether the open `descriptor` is the file now at `path` (not one removed since)."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)
