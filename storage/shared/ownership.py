"""One running bot per database.

The bot holds it while it runs, and the kernel or the server releases it when the process dies,
so a crash never leaves it stale. A second bot on the same database would fire every due
deadline twice.

- SQLite: an OS lock by `flock` on `<database>.owner` beside the file. A clean stop removes the
  file while still holding its lock, and an owner checks that the file it locked is still the
  one at the path.
- PostgreSQL: a session-level advisory lock on a connection of its own. A lone bot takes it
  exclusively. Shard processes take it shared, and each also takes an exclusive lock per shard
  it runs and its shard count's lock shared. A process restarted after a crash takes the
  locks again and runs what was left.

Backups, copies and migrations do not take it, since they are safe beside a running bot.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from storage.engine.database import Database, SqliteDatabase
from storage.engine.postgresql import OwnerConnection, OwnerLockTaken, PostgresDatabase
from storage.engine.shards import Shards


class DatabaseOwned(Exception):
    """Another running process already owns this database."""


class OwnerLock:
    """The held ownership of one database file. `release()` or process exit frees it."""

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
        """Gives up ownership and removes the lock file, and may be called again.

        A clean stop leaves nothing that looks like a running bot.
        """
        if self._descriptor is not None:
            if _same_file(self._descriptor, self.path):
                self.path.unlink(missing_ok=True)
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)
            os.close(self._descriptor)
            self._descriptor = None


def _same_file(descriptor: int, path: Path) -> bool:
    """Whether the open `descriptor` is the file now at `path` and not one removed since."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(descriptor)
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


@dataclass
class Ownership:
    """A held ownership of either engine's database. `await release()` gives it up."""

    lock: OwnerLock | OwnerConnection

    async def release(self) -> None:
        """Gives up ownership. Calling it again does nothing."""
        if isinstance(self.lock, OwnerLock):
            self.lock.release()
        else:
            await self.lock.release()

    async def listen(self, callback: Callable[[int], None]) -> None:
        """Calls `callback(guild_id)` whenever another process commits a unit of work of that guild.

        Only units that left jobs or messages count, heard through PostgreSQL's LISTEN/NOTIFY. On
        SQLite it does nothing, since one bot runs on a file and hears its own commits in process
        through `storage.guild.on_commit`.
        """
        if isinstance(self.lock, OwnerConnection):
            await self.lock.listen(callback)


async def own(
    database: Database, *, shared: bool = False, shards: Shards | None = None
) -> Ownership:
    """Owns `database` for this process, or raises `DatabaseOwned`.

    `shared`, for PostgreSQL shard processes only, lets other shared owners run beside this one.
    `shards` implies `shared` and names the shards this process runs alone.
    """
    shared = shared or shards is not None
    if isinstance(database, SqliteDatabase):
        if shared:
            raise DatabaseOwned(
                "a SQLite database has one bot: shard processes need PostgreSQL"
                ' ([database] url = "postgresql://…")'
            )
        return Ownership(OwnerLock.acquire(database.path))
    if not isinstance(database, PostgresDatabase):
        raise TypeError(f"no ownership for {type(database).__name__}")
    try:
        if shards is None:
            return Ownership(await database.lock_owner(shared=shared))
        return Ownership(
            await database.lock_owner(shared=True, shards=shards.ids, shard_count=shards.count)
        )
    except OwnerLockTaken as taken:
        if taken.shard is not None:
            raise DatabaseOwned(
                f"shard {taken.shard} is already run by another Arbiter on {database.name}:"
                " give each process its own --shards"
            ) from None
        if taken.other_count is not None:
            raise DatabaseOwned(
                f"Arbiter processes with --shard-count {taken.other_count} run on"
                f" {database.name}: every shard process needs the same --shard-count"
            ) from None
        how = "as shards" if not shared else "without shards"
        raise DatabaseOwned(
            f"another Arbiter is running on {database.name} ({how}); stop it first, or give"
            " this one its own database.url"
        ) from None
