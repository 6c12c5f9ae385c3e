"""CL-21's `roster.verify` job at a production start-up: the scheduler runs the jobs missed
while down in `setup_hook`, before the gateway connects, so no guild is cached and the
directors cannot be read. The job then moves RETRY_AFTER later and writes nothing else; it
runs when the clock reaches that time, or as soon as the guild becomes available (its
GUILD_CREATE dispatches `guild_available`) — verified once, one forfeit motion (CL-23), one
announcement, across restarts too. A real ArbiterBot on a real file and a virtual clock."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.app.arbiter import ArbiterBot
from bot.kernel.actor import Actor
from bot.kernel.config import Config
from bot.league.rosters.removal_checks import RETRY_AFTER, VERIFY_JOB, removal_subject
from bot.league.rosters.service import record_removal
from bot.offline.discord_members import role_payload, user_payload
from bot.offline.discord_messages import BOT_USER_ID
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore
from storage.shared.jobs import Job
from tests.support.backends import database_config, dump_at, rows_at
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Member
from tests.support.motion_world import START, directors, import_test_season, running_bot, set_up

ANNOUNCED = "Roster removal not verified (CL-21)"


@dataclass(frozen=True)
class Pending:
    """A league whose removal was recorded by a process that died before verifying it."""

    path: Path | str
    first: DiscordHarness
    seated: list[Member]
    removal_id: int
    job: Job


async def _pending_removal(location: Path | str) -> Pending:
    """Roles and channels set up, the test season imported, three directors; then removal of
    a9 from A (reason `other`, which only the directors can judge) recorded with its
    `roster.verify` job due at START, and nothing run after it."""
    path = location
    async with running_bot(path, VirtualClock(START)) as (bot, first):
        await set_up(first)
        await import_test_season(bot.database)
        seated = directors(first, 3)
    database = await open_database(path, clock=lambda: START)
    try:
        event = await record_removal(
            GuildStore(database, DEFAULT_GUILD_ID),
            Actor.system(),
            "Test season",
            "A",
            "a9",
            "other",
            "left the club",
        )
        job = await _verify_job(database, event.removal_id)
    finally:
        await database.close()
    assert job is not None and job.due_at == START
    return Pending(path, first, seated, event.removal_id, job)


async def _verify_job(database: Database, removal_id: int) -> Job | None:
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        return await view.jobs.pending(VERIFY_JOB, removal_subject(removal_id))


@asynccontextmanager
async def production_start(
    pending: Pending, clock: VirtualClock
) -> AsyncIterator[tuple[ArbiterBot, DiscordHarness]]:
    """A bot started as in production, its scheduler and outbox on `clock`: `setup_hook` runs
    (recovering the missed jobs) with no guild cached yet — the gateway is not connected.
    Discord answers as before the restart (same ids; the messages sent before)."""
    database = await open_database(pending.path, clock=clock)
    bot = ArbiterBot(Config(database=database_config(pending.path)), database=database, timer=clock)
    harness = DiscordHarness(bot)
    harness.sent.update(pending.first.sent)
    for guild in list(bot.guilds):  # not connected: no GUILD_CREATE received yet
        bot._connection._remove_guild(guild)
    async with bot:
        await bot.setup_hook()
        try:
            yield bot, harness
        finally:
            assert bot.outbox is not None
            await clock.advance_to(clock())  # the sender's pass due now
            await bot.outbox.drained()
    harness.check()


def _guild_create(harness: DiscordHarness, members: list[Member]) -> dict[str, Any]:
    """The GUILD_CREATE Discord sends once connected (Server Members intent on): the guild's
    roles, channels and members — `members` and the bot."""
    roles = harness.roles[DEFAULT_GUILD_ID]
    channels = harness.channels[DEFAULT_GUILD_ID]
    bot_member = {**members[0].payload(), "user": user_payload(BOT_USER_ID, "Arbiter", bot=True)}
    bot_member["roles"] = []
    everyone = [m.payload() for m in members] + [bot_member]
    return {
        "id": str(DEFAULT_GUILD_ID),
        "name": f"Guild {DEFAULT_GUILD_ID}",
        "owner_id": "1",
        "roles": [role_payload(r, name, i) for i, (name, r) in enumerate(roles.items())],
        "channels": [
            {
                "id": str(c),
                "type": 0,
                "name": name,
                "position": i,
                "permission_overwrites": [],
                "guild_id": str(DEFAULT_GUILD_ID),
            }
            for i, (name, c) in enumerate(channels.items())
        ],
        "members": everyone,
        "member_count": len(everyone),
        "emojis": [],
        "stickers": [],
        "features": [],
        "large": False,
        "unavailable": False,
    }


async def _connect(bot: ArbiterBot, harness: DiscordHarness, members: list[Member]) -> None:
    """The gateway delivers the guild (real discord.py parsing); wait for the bot's
    `guild_available` listeners it dispatches."""
    bot._connection.parse_guild_create(_guild_create(harness, members))  # type: ignore[arg-type]
    listeners = [
        task
        for task in asyncio.all_tasks()
        if task.get_name() == "discord.py: on_guild_available" and not task.done()
    ]
    assert listeners, "GUILD_CREATE dispatched no guild_available to the bot"
    await asyncio.gather(*listeners)


def _changed(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """The dump lines gone and the lines new."""
    return sorted(set(before) - set(after)), sorted(set(after) - set(before))


async def _state(database: Database, removal_id: int) -> tuple[Any, list[Any], list[Job]]:
    """The removal, every motion, and every job of the removal's subject (its history)."""
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        removal = await view.rosters.removal(removal_id)
        motions = await view.motions.recent()
        jobs = await view.jobs.of_subject(removal_subject(removal_id))
    return removal, motions, jobs


def _announcements(location: Path | str) -> list[str]:
    rows = rows_at(location, "SELECT content FROM outbox ORDER BY id")
    return [str(row[0]) for row in rows if ANNOUNCED in str(row[0])]


async def test_cl_21_verify_job_at_start_up_retries_without_directors_then_verifies_once(
    database_location: Path | str,
) -> None:
    """CL-21, CL-23: at start-up the overdue `roster.verify` job finds no directors (no guild
    cached before the gateway connects): the same job moves RETRY_AFTER later and nothing
    else is written — no motion, no announcement, the removal still pending. When the clock
    reaches that time with the directors readable, the removal is verified once: one forfeit
    motion to the three directors, its id on the removal, one announcement; later time
    changes nothing."""
    pending = await _pending_removal(database_location)
    clock = VirtualClock(START)
    before = dump_at(pending.path)
    async with production_start(pending, clock) as (bot, harness):
        after_start = dump_at(pending.path)
        removal, motions, jobs = await _state(bot.database, pending.removal_id)
        gone, new = _changed(before, after_start)
        assert removal is not None and removal.verification == "pending"
        assert motions == [] and _announcements(pending.path) == []
        [job] = jobs
        assert job.id == pending.job.id and job.status == "pending"
        assert job.due_at == START + RETRY_AFTER
        assert [line for line in gone if "scheduled_jobs" not in line] == []
        assert [line for line in new if "scheduled_jobs" not in line] == [
            line for line in new if 'INSERT INTO "audit"' in line and "job.retry" in line
        ]
        assert len(new) == 2 and len(gone) == 1  # the job row moved; one audit entry

        # Connected later, without a guild_available (a silent cache fill): the timer runs it.
        harness.add_guild(DEFAULT_GUILD_ID, roles=("HQ", "Director", "Arbiter"))
        harness.seat(DEFAULT_GUILD_ID, pending.seated)
        await clock.advance(RETRY_AFTER - dt.timedelta(seconds=1))
        assert (await _state(bot.database, pending.removal_id))[1] == []  # not due yet
        await clock.advance(dt.timedelta(seconds=1))
        removal, motions, jobs = await _state(bot.database, pending.removal_id)
        await clock.advance(RETRY_AFTER * 3)  # nothing left to run
        assert await _state(bot.database, pending.removal_id) == (removal, motions, jobs)
    [motion] = motions
    assert motion.kind == "forfeit"
    assert sorted(motion.electorate) == sorted(m.id for m in pending.seated)
    assert removal is not None and removal.verification == "motion"
    assert removal.motion_id == motion.id
    assert [(j.id, j.status) for j in jobs] == [(pending.job.id, "done")]
    [announced] = _announcements(pending.path)
    assert f"Motion {motion.id}" in announced
    sent = [p for p in harness.sent.values() if ANNOUNCED in str(p.payload.get("content"))]
    assert len(sent) == 1


async def test_cl_21_verify_job_runs_when_the_guild_becomes_available_across_a_restart(
    database_location: Path | str,
) -> None:
    """CL-21, CL-23: a restart between the retry and its run loses nothing and runs nothing
    twice. The first start-up moves the job RETRY_AFTER later; the bot stops; the next
    start-up (before that time) finds no directors again and keeps the one job; when the
    gateway delivers the guild (`guild_available`) the job runs at once, not RETRY_AFTER
    later: verified once, one motion, one announcement; the retry time passing and a third
    start-up change nothing."""
    pending = await _pending_removal(database_location)
    clock = VirtualClock(START)
    async with production_start(pending, clock) as (bot, _):
        _, motions, [job] = await _state(bot.database, pending.removal_id)
    assert motions == [] and job.due_at == START + RETRY_AFTER and job.status == "pending"

    await clock.advance(RETRY_AFTER / 2)  # down for five minutes
    async with production_start(pending, clock) as (bot, harness):
        removal, motions, [job] = await _state(bot.database, pending.removal_id)
        assert removal is not None and removal.verification == "pending" and motions == []
        assert job.id == pending.job.id and job.status == "pending"
        assert job.due_at == START + RETRY_AFTER  # not yet due: not run at this start-up
        await _connect(bot, harness, pending.seated)
        await clock.advance(dt.timedelta(0))
        removal, motions, jobs = await _state(bot.database, pending.removal_id)
        assert clock() == START + RETRY_AFTER / 2  # at once, not at the retry time
        await clock.advance(RETRY_AFTER)
        assert await _state(bot.database, pending.removal_id) == (removal, motions, jobs)
    pending = Pending(pending.path, harness, pending.seated, pending.removal_id, job)
    await clock.advance(RETRY_AFTER)
    async with production_start(pending, clock) as (bot, harness):
        await _connect(bot, harness, pending.seated)
        await clock.advance(RETRY_AFTER)
        assert await _state(bot.database, pending.removal_id) == (removal, motions, jobs)
    [motion] = motions
    assert motion.kind == "forfeit"
    assert sorted(motion.electorate) == sorted(m.id for m in pending.seated)
    assert removal is not None and removal.verification == "motion"
    assert removal.motion_id == motion.id
    assert [(j.id, j.status) for j in jobs] == [(job.id, "done")]
    [announced] = _announcements(pending.path)
    assert f"Motion {motion.id}" in announced
