"""Several `arbiter run --shards … --shard-count 4` processes on one PostgreSQL database (the
suite's embedded server) and the Discord double (issue 25 item 4): each process runs its
shards' gateways and its guilds' jobs and announcements; a deadline burst is scheduled from
another process (this test's) while they run, so it reaches the owners by LISTEN/NOTIFY; one
process is killed with SIGKILL during the burst and restarted with the same shards; then
every guild's CL-15 deadline was judged exactly once (one `job.done` audit row) and its
forfeit announced exactly once (one message in its channel), none lost.

By default 2 processes and 12 guilds (a few seconds each start); `ARBITER_SOAK=1` runs 2 and
then 4 processes with 48 guilds.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.formats.season_file import load_season
from bot.league.matches.jobs import DEADLINE, subject
from bot.league.store import import_season
from core.league.season import CHALLENGE_DEADLINE_HOURS
from storage.engine.database import utc_now
from storage.engine.postgresql import PostgresDatabase
from storage.guild import GuildStore
from tests.discord_double import DiscordDouble
from tests.discord_double.world import Guild, shard_of
from tests.support.arbiter_process import ArbiterProcess, write_config
from tests.support.cl_seasons import unchallenged_pair
from tests.support.postgres_server import open_postgres_test_database

SOAK = bool(os.environ.get("ARBITER_SOAK"))
SHARD_COUNT = 4
GUILDS = 48 if SOAK else 12
PROCESS_COUNTS = (2, 4) if SOAK else (2,)
BURST_IN = dt.timedelta(seconds=1.5)
"""The burst's deadlines fall due this long after they are scheduled (while the bots run)."""


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    """A double allowing 16 concurrent IDENTIFYs, so shards of several processes start at once."""
    server = DiscordDouble(max_concurrency=16, heartbeat_interval_ms=1000)
    server.recommended_shards = SHARD_COUNT
    await server.start()
    yield server
    await server.stop()


def season(deadline: dt.datetime) -> dict[str, object]:
    """The one-match season whose deadline is `deadline` (`unchallenged_pair`)."""
    return unchallenged_pair(deadline, CHALLENGE_DEADLINE_HOURS)


async def schedule_deadline(database: PostgresDatabase, guild: Guild, at: dt.datetime) -> None:
    """The guild's announcements channel, a season, and its match's CL-15 deadline job at
    `at`, in one unit of work (its commit notifies the process owning the guild's shard)."""
    async with GuildStore(database, guild.id).change(None, "test.seed", "shards") as uow:
        await uow.settings.update(announcements_channel_id=guild.channel("announcements").id)
        record = await import_season(uow, load_season(season(at)))
        (match,) = await uow.matches.of_season(record.id)
        await uow.jobs.schedule(DEADLINE, subject(match.id), at, {"match": match.id})


def shard_ranges(processes: int) -> list[str]:
    """`--shards` of each of `processes` processes splitting SHARD_COUNT shards."""
    each = SHARD_COUNT // processes
    return [f"{n * each}-{(n + 1) * each - 1}" for n in range(processes)]


async def start_shards(config: Path, double: DiscordDouble, shards: str) -> ArbiterProcess:
    """`arbiter run --shards SHARDS`, ready (restarted while the server still holds a killed
    process's shard locks: it notices the dead session within moments)."""
    for _ in range(20):
        process = ArbiterProcess(
            config, double, "run", "--shards", shards, "--shard-count", str(SHARD_COUNT)
        )
        await process.start()
        try:
            await process.wait_line("ready:")
            return process
        except AssertionError:
            await process.kill()
            if "already run by another Arbiter" not in process.log():
                raise
            await asyncio.sleep(0.2)
    raise AssertionError(f"shards {shards} never started")


def forfeits(double: DiscordDouble, guild: Guild) -> list[str]:
    """The forfeit announcements in the guild's announcements channel."""
    channel = guild.channel("announcements")
    return [
        m.content
        for m in double.channel_messages(channel, posted_only=True)
        if (m.content or "").startswith("Challenge deadline")
    ]


async def judged(database: PostgresDatabase, guild: Guild) -> list[object]:
    """The outcomes of the guild's `job.done` audit rows."""
    async with GuildStore(database, guild.id).read() as view:
        entries = [e for e in await view.audit.recent(limit=100) if e.action == "job.done"]
    return [e.details.get("outcome") for e in entries]


@pytest.mark.parametrize("processes", PROCESS_COUNTS)
async def test_shard_processes_judge_every_deadline_once_across_a_sigkill(
    tmp_path: Path, double: DiscordDouble, processes: int
) -> None:
    database = await open_postgres_test_database(utc_now)
    guilds = [double.add_guild(f"Guild {n}") for n in range(GUILDS)]
    assert {shard_of(g.id, SHARD_COUNT) for g in guilds} == set(range(SHARD_COUNT))
    before, burst = guilds[: GUILDS // 3], guilds[GUILDS // 3 :]
    now = dt.datetime.now(dt.UTC)
    for guild in before:  # overdue when the processes start: each runs its own at start-up
        await schedule_deadline(database, guild, now - dt.timedelta(seconds=1))
    config = write_config(tmp_path, "http://127.0.0.1:9/pub", database_url=database.url)
    ranges = shard_ranges(processes)
    running: list[ArbiterProcess] = []
    try:
        running += await asyncio.gather(*(start_shards(config, double, r) for r in ranges))
        await double.wait_ready(SHARD_COUNT, timeout=30)
        for shard in range(SHARD_COUNT):  # each shard's session is its process's, with its guilds
            connection = double.gateway.connected(shard)
            assert connection is not None and connection.session is not None
            assert connection.session.shard_count == SHARD_COUNT
        await double.wait_for(
            lambda: all(forfeits(double, g) for g in before), timeout=30, what="start-up"
        )
        due = dt.datetime.now(dt.UTC) + BURST_IN
        for guild in burst:  # from another process: the owners hear of them by NOTIFY
            await schedule_deadline(database, guild, due)
        victim = 0
        victims = [g for g in burst if shard_of(g.id, SHARD_COUNT) < SHARD_COUNT // processes]
        survivors = [g for g in burst if g not in victims]
        assert victims and survivors
        if SOAK:  # killed once the burst has begun (some of its own may be judged already)
            await double.wait_for(
                lambda: any(forfeits(double, g) for g in burst), timeout=30, what="the burst"
            )
        await running[victim].kill()  # SIGKILL, its burst pending: no clean-up of any kind
        await double.wait_for(  # the others' jobs reached them by NOTIFY alone, and ran
            lambda: all(forfeits(double, g) for g in survivors), timeout=30, what="survivors"
        )
        running[victim] = await start_shards(config, double, ranges[victim])
        await double.wait_for(
            lambda: all(forfeits(double, g) for g in guilds), timeout=30, what="every deadline"
        )
        for guild in guilds:
            assert len(forfeits(double, guild)) == 1, (guild.id, forfeits(double, guild))
            assert "both clubs forfeit" in forfeits(double, guild)[0]
            assert await judged(database, guild) == ["forfeit"], guild.id
        # Each shard identified once, the restarted process's once more. A restart within
        # 5 s of its shards' last IDENTIFY may be refused first (op 9): Discord's session
        # start limit is the application's, not the process's, and the bot identifies again.
        accepted = [shard for _, shard, _ in double.gateway.identifies]
        restarted = range(SHARD_COUNT // processes)
        for shard in range(SHARD_COUNT):
            assert accepted.count(shard) == (2 if shard in restarted else 1), accepted
        assert double.gateway.refused_identifies <= 2 * len(restarted)
    finally:
        codes = []
        for process in running:
            if process.running:
                codes.append((await process.terminate(timeout=15))[0])
        await database.close()
    assert codes == [0] * processes, [p.log()[-2000:] for p in running]
    for process in running:
        assert "Traceback" not in process.log(), process.log()[-3000:]
