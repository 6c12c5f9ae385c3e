"""A shard process's background work keeps to its shards' guilds (issue 25 item 4): the
scheduler puts only their jobs on its timer (at start-up and from commits), the pin refresher
repairs and follows only their pins. The reads themselves are tested on both engines in
tests/storage/test_shards.py; the processes in tests/process/test_shard_processes.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.runtime.clock import VirtualClock
from bot.runtime.pin_refresher import PinRefresher, Refreshed
from bot.runtime.scheduler import JobRegistry, Scheduler
from storage.engine.database import Database
from storage.engine.shards import Shards
from storage.guild import Committed, GuildStore, UnitOfWork
from storage.shared.jobs import Job

START = datetime(2026, 3, 1, 12, tzinfo=UTC)
MINE = Shards((0, 1), 4)


def guild_on(shard: int) -> int:
    """A guild id on `shard` of 4."""
    return ((shard + 4 * 1000) << 22) | 5


async def test_a_shard_scheduler_runs_and_follows_only_its_guilds_jobs(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    database = await Database.open(tmp_path / "arbiter.db", clock=clock)
    await database.migrate()
    ran: list[int] = []

    async def record(job: Job, uow: UnitOfWork) -> None:
        ran.append(job.guild_id)

    registry = JobRegistry()
    registry.register("test.job", record)
    try:
        for shard in range(4):  # overdue at start-up, and due within the horizon
            async with GuildStore(database, guild_on(shard)).change(None, "t", "x") as uow:
                await uow.jobs.schedule("test.job", "early", START - timedelta(minutes=1))
                await uow.jobs.schedule("test.job", "later", START + timedelta(hours=1))
        scheduler = Scheduler(database, registry, timer=clock, shards=MINE)
        recovery = await scheduler.recover()
        assert sorted(ran) == [guild_on(0), guild_on(1)] and recovery.scheduled == 2
        async with GuildStore(database, guild_on(2)).read() as view:
            theirs = await view.jobs.pending("test.job", "later")
        assert theirs is not None
        scheduler.on_commit(Committed(guild_on(2), (theirs,), ()))  # another shard's: ignored
        await scheduler.follow(guild_on(3))  # a notice of another shard's guild: ignored
        await clock.advance_to(START + timedelta(hours=2))
        assert sorted(ran) == [guild_on(0), guild_on(0), guild_on(1), guild_on(1)]
    finally:
        await database.close()


class _Source:
    """A pin source whose pins are stale in a guild of every shard; records what it refreshed."""

    def __init__(self) -> None:
        self.refreshed: list[int] = []

    def follows(self, committed: Committed) -> bool:
        return True

    async def stale_guilds(self, database: Database) -> list[int]:
        return [guild_on(shard) for shard in range(4)]

    async def refresh(self, store: GuildStore, uow: UnitOfWork) -> Refreshed:
        self.refreshed.append(store.guild_id)
        return Refreshed()


async def test_a_shard_pin_refresher_repairs_and_follows_only_its_guilds(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    database = await Database.open(tmp_path / "arbiter.db", clock=clock)
    await database.migrate()
    source = _Source()
    pins = PinRefresher(database, [source], timer=clock, shards=MINE)
    try:
        await pins.repair()
        assert source.refreshed == [guild_on(0), guild_on(1)]
        for shard in range(4):
            pins.on_commit(Committed(guild_on(shard), (), (), seasons=(1,)))
        await clock.advance_to(START)
        assert source.refreshed[2:] == [guild_on(0), guild_on(1)]
    finally:
        await database.close()
