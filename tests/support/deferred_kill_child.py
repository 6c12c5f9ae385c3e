"""The process tests/storage/test_deferred_kill9.py kills with SIGKILL halfway through a unit of
work.

`python -m tests.support.deferred_kill_child DATABASE MATCH` opens DATABASE, starts a unit of work
that replaces MATCH's boards and finishes it, then writes a batch of audit rows big enough to
spill pages into the WAL file before any COMMIT, prints `mid` and waits on stdin for a line that
never comes: the test kills it there."""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
from pathlib import Path

from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import BoardRecord

GUILD = 32
ROWS = 3000
"""Audit rows of about 1 kB each: more than the page cache holds, so SQLite writes them to the
WAL before the COMMIT that never comes."""


async def main(path: Path, match: int) -> None:
    """Write half a unit of work, say `mid`, then block until killed."""
    database = await Database.open(path)
    async with GuildStore(database, GUILD).change(1, "match.result", f"match:{match}") as uow:
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 3, 1)])
        await uow.matches.finish(match, dt.datetime(2024, 3, 4, 19, tzinfo=dt.UTC))
        scope = uow._scope
        await scope.execute("PRAGMA cache_size = 10")
        await scope.executemany(
            "INSERT INTO audit (guild_id, action, subject, at) VALUES (?, 'spill', ?, 'x')",
            [(GUILD, "s" * 1000) for _ in range(ROWS)],
        )
        print("mid", flush=True)
        sys.stdin.readline()  # blocks the whole process: the test kills it here
    await database.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
