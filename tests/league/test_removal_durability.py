"""CL-21 removals survive a crash: the removal and its `roster.verify` job are recorded in one
unit of work, so a removal never verified (the process died first) is verified by the next
bot at start-up — once: verifying it again opens no second forfeit motion (CL-23)."""

from __future__ import annotations

from pathlib import Path

from bot.chesscom.models import PlayerStats
from bot.kernel.actor import Actor
from bot.league.rosters.removal_checks import VERIFY_JOB, removal_subject, verify_removal
from bot.league.rosters.service import record_removal
from bot.runtime.clock import VirtualClock
from storage.engine.locations import open_database
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.motion_world import START, directors, import_test_season, running_bot, set_up


class _NoChessCom:
    """A stats source that must not be asked (a removal for `other` needs no chess.com)."""

    async def player_stats(self, username: str) -> PlayerStats:
        raise AssertionError(f"chess.com asked about {username}")


async def test_cl_21_a_removal_recorded_before_a_crash_is_verified_once_at_start_up(
    database_location: Path | str,
) -> None:
    """CL-21, CL-23: a removal recorded with nothing run after it (a crash) keeps its pending
    `roster.verify` job; the next bot on the same file runs it at start-up, which opens one
    forfeit motion (its id stored on the removal) and announces it; verifying the removal
    twice more changes nothing and opens no second motion."""
    path = database_location
    clock = VirtualClock(START)
    async with running_bot(path, clock) as (bot, first):
        await set_up(first)
        await import_test_season(bot.database)
        seated = directors(first, 3)
    # The "crashed" process: the removal is recorded, its verification never runs.
    database = await open_database(path, clock=clock)
    store = GuildStore(database, DEFAULT_GUILD_ID)
    try:
        event = await record_removal(
            store, Actor.system(), "Test season", "A", "a9", "other", "left the club"
        )
        async with store.read() as view:
            removal = await view.rosters.removal(event.removal_id)
            job = await view.jobs.pending(VERIFY_JOB, removal_subject(event.removal_id))
            assert await view.motions.recent() == []
    finally:
        await database.close()
    assert removal is not None and removal.verification == "pending"
    assert job is not None and job.due_at <= START

    async with running_bot(path, clock, first, seated) as (bot, harness):
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.read() as view:
            verified = await view.rosters.removal(event.removal_id)
            motions = await view.motions.recent()
            left = await view.jobs.pending(VERIFY_JOB, removal_subject(event.removal_id))
        again = await verify_removal(store, event.removal_id, _NoChessCom(), [d.id for d in seated])
        third = await verify_removal(store, event.removal_id, _NoChessCom(), None)
        async with store.read() as view:
            after = await view.motions.recent()
            still = await view.rosters.removal(event.removal_id)
        announced = [
            str(p.payload.get("content"))
            for p in harness.sent.values()
            if "Roster removal not verified" in str(p.payload.get("content"))
        ]
    assert [m.kind for m in motions] == ["forfeit"]
    [motion] = motions
    assert verified is not None and verified.verification == "motion"
    assert verified.motion_id == motion.id and left is None
    assert sorted(motion.electorate) == sorted(d.id for d in seated)
    assert again.earlier and again.motion is not None and again.motion.id == motion.id
    assert third.earlier and not third.deferred
    assert after == motions and still == verified
    assert len(announced) == 1 and f"Motion {motion.id}" in announced[0]
