"""`/roster remove` (CL-21) through the real command tree, in the reply branches the cog tests
do not reach: the directors unreadable (their role deleted in Discord) → "Not verified yet"
with nothing decided and the verification job still pending; and a removal that cannot be
verified but for which no forfeit motion can be opened (fewer directors than CL-23's quorum;
the club has no match left) → "Not verified … No motion: …", recorded as refuted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.app.arbiter import ArbiterBot
from bot.league.rosters.removal_checks import VERIFY_JOB, removal_subject
from bot.runtime.clock import VirtualClock
from storage.guild import GuildStore
from storage.league.motions import Motion
from storage.league.rosters import Removal
from storage.shared.jobs import Job
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Member, Outcome
from tests.support.motion_world import (
    START,
    club_admin,
    directors,
    league_ready,
    running_bot,
)

RECORDED = "Removal of **a9** from **A** recorded (other)."


async def _only_removal(bot: ArbiterBot) -> Removal:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        record = await view.seasons.by_name("Test season")
        assert record is not None
        [removal] = await view.rosters.removals(record.id)
    return removal


async def _remove_a9(
    bot: ArbiterBot, harness: DiscordHarness, admin: Member
) -> tuple[Outcome, Removal, list[Motion], Job | None]:
    """A's admin removes a9 for `other` (note "left"): the reply, the removal, the motions
    and the removal's pending verification job."""
    outcome = await harness.command(
        "roster remove", user=admin, club="A", player="a9", reason="other", note="left"
    )
    removal = await _only_removal(bot)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        motions = await view.motions.recent()
        job = await view.jobs.pending(VERIFY_JOB, removal_subject(removal.id))
    return outcome, removal, motions, job


def _outbox(path: Path) -> list[str]:
    connection = sqlite3.connect(path)
    try:
        return [str(r[0]) for r in connection.execute("SELECT content FROM outbox ORDER BY id")]
    finally:
        connection.close()


async def test_cl_21_remove_with_the_director_role_deleted_replies_not_verified_yet(
    tmp_path: Path,
) -> None:
    """CL-21: the director role was deleted in Discord (a real GUILD_ROLE_DELETE), so the
    directors cannot be read: the removal is recorded, the reply says "Not verified yet" and
    why, nothing is decided (no motion, no announcement, still pending) and its
    `roster.verify` job stays pending to try again."""
    path = tmp_path / "a.db"
    async with running_bot(path, VirtualClock(START)) as (bot, harness):
        await league_ready(bot, harness)
        directors(harness, 3)
        admin = await club_admin(bot, harness, "A")
        bot._connection.parse_guild_role_delete(
            {"guild_id": str(DEFAULT_GUILD_ID), "role_id": str(harness.role("Director"))}
        )
        sent_before = _outbox(path)
        outcome, removal, motions, job = await _remove_a9(bot, harness, admin)
        sent_after = _outbox(path)
    assert outcome.replies[0].type == 5  # deferred before the verification
    text = outcome.replies[-1].content or ""
    assert text == (
        f"{RECORDED}\nNot verified yet: the directors could not be read: the director role was"
        " deleted (set it again with `/setup set director_role`); the bot tries again later."
    ), text
    assert removal.verification == "pending" and removal.motion_id is None
    assert motions == [] and sent_after == sent_before
    assert job is not None and job.due_at == START


async def test_cl_21_remove_without_a_quorum_of_directors_replies_no_motion(
    tmp_path: Path,
) -> None:
    """CL-21, CL-23: a removal for `other` is not verified, but with one director no motion
    can be opened (CL-23 needs three): the reply says "Not verified" and "No motion" with
    CL-23's refusal; the removal is recorded as refuted, announced once, its job done."""
    path = tmp_path / "a.db"
    async with running_bot(path, VirtualClock(START)) as (bot, harness):
        await league_ready(bot, harness)
        directors(harness, 1)
        admin = await club_admin(bot, harness, "A")
        outcome, removal, motions, job = await _remove_a9(bot, harness, admin)
    text = outcome.replies[-1].content or ""
    first, second = text.split("\n")
    assert first == RECORDED
    assert second.startswith("Not verified: ") and "Motion #" not in second
    assert second.endswith(
        "No motion: CL-23: a motion needs at least 3 directors; the director role has 1 member."
    ), second
    assert removal.verification == "refuted" and removal.motion_id is None
    assert motions == [] and job is None
    announced = [m for m in _outbox(path) if "Roster removal not verified (CL-21)" in m]
    assert len(announced) == 1
    assert announced[0].endswith(
        "No motion opened: CL-23: a motion needs at least 3 directors; the director role has "
        "1 member."
    ), announced[0]


async def test_cl_21_remove_from_a_club_with_no_match_left_replies_no_motion(
    tmp_path: Path,
) -> None:
    """CL-21: B has played all its matches of the season, so there is no match to forfeit:
    the reply says "No motion" and why; recorded as refuted, no motion opened."""
    path = tmp_path / "a.db"
    async with running_bot(path, VirtualClock(START)) as (bot, harness):
        await league_ready(bot, harness)
        directors(harness, 3)
        admin = await club_admin(bot, harness, "B")
        outcome = await harness.command(
            "roster remove", user=admin, club="B", player="b9", reason="other"
        )
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            record = await view.seasons.by_name("Test season")
            assert record is not None
            [removal] = await view.rosters.removals(record.id)
            motions = await view.motions.recent()
    text = outcome.replies[-1].content or ""
    assert text.startswith("Removal of **b9** from **B** recorded (other).\nNot verified: ")
    assert text.endswith("No motion: B has no match left in Test season to forfeit."), text
    assert removal.verification == "refuted" and motions == []
