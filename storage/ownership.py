"""One running bot per database: a lock file beside the database, held while the bot runs.

The bot that runs jobs treats a `running` job at start-up as interrupted by a crash and
fires every due deadline; a second bot on the same file would fire them twice. The lock is
an OS lock (`flock`) on `<database>.owner`, so the kernel drops it when the process dies:
a crash never leaves it stale. Backups and migrations do not take it (they are safe beside
a running bot).
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
        os.ftruncate(descriptor, 0)
        os.write(descriptor, str(os.getpid()).encode("ascii"))
        return cls(path, descriptor)

    def release(self) -> None:
        """Give up ownership (idempotent); the lock file stays for the next owner."""
        if self._descriptor is not None:
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
            os.close(self._descriptor)
            self._descriptor = None
