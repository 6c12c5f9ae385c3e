"""Issue 19, what counts, announced once, through the real command tree and the bot's
scheduler (CL-6, CL-14, CL-15, CL-18, CL-ADJ, CL-DQ): a result post and reply say what the
match counts as and why; a later CL-18 finding lists the earlier matches it changed, once; a
disqualification at a deadline shared by a round is announced once; `/match show` shows the
boards and what counts; the standings pin is edited when a deadline changes the table."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.app.arbiter import ArbiterBot
from bot.kernel.actor import Actor
from bot.league.matches import service as matches
from bot.league.matches.jobs import schedule_jobs
from storage.guild import GuildStore
from tests.support.cl_seasons import match, season
from tests.support.command_world import CommandWorld, copy_world, league_bot, members
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Upload
from tests.support.motion_world import import_test_season

TO_ACCEPT_START = dt.datetime(2026, 3, 10, 18, tzinfo=dt.UTC)
OPEN_START = dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC)


def _posts(harness: DiscordHarness) -> list[str]:
    return [p.content or "" for p in harness.sent.values()]


async def _schedule(bot: ArbiterBot, name: str) -> None:
    """The jobs of season `name`'s matches still to play, as scheduling stores them."""
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "t", "jobs") as uow:
        record = await uow.seasons.by_name(name)
        assert record is not None
        for m in await uow.matches.of_season(record.id):
            if m.finished_at is None:
                await schedule_jobs(uow, m.id, m.start, record.rules)


async def test_cl_6_a_result_says_it_counts_as_a_forfeit_and_why(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-6, CL-FF: E was over the 1700 average at E - A's start; the arbiter's boards
    (13 – 17-like, here 2 – 0 for E) are shown with "counts as a forfeit: E over the 1700
    daily average at the start (CL-6)" in the reply, the announcement and `/match show`,
    which also shows the score on the boards."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        admin_a = members(harness)["club admin"]
        await harness.command("match accept", user=admin_a, match=world.to_accept)
        await clock.advance_to(TO_ACCEPT_START + dt.timedelta(minutes=1))
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.read() as view:
            e_club = await view.clubs.find("E")
        assert e_club is not None
        await matches.record_at_start(
            store,
            Actor.system(),
            world.to_accept,
            e_club.id,
            members=120,
            avg_rating=1750.0,
            players=1,
            observed_at=TO_ACCEPT_START,
        )
        await clock.advance(dt.timedelta(days=3))
        result = await harness.command(
            "match result",
            user=members(harness)["arbiter"],
            match=world.to_accept,
            file=Upload("boards.csv", b"1,e1,a1,2,0\n"),
        )
        why = "counts as a forfeit: E over the 1700 daily average at the start (CL-6)"
        assert why in result.reply.text()
        await clock.advance(dt.timedelta(0))
        [post] = [p for p in _posts(harness) if p.startswith("Result (entered by an arbiter)")]
        assert "2 – 0 **A** on the boards; " + why in post
        shown = await harness.command("match show", user=admin_a, match=world.to_accept)
        text = shown.reply.text()
        assert "Score on the boards" in text and "2 – 0" in text and why in text


async def test_cl_18_a_later_finding_lists_the_earlier_matches_it_changed_once(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-18, CL-ADJ: c1 played twice for C (matches 2 and 3); once for E it is tolerated,
    but a second match for another club (D) makes c1 a multi-team player: every board of
    c1's is adjusted for the whole season, and that result's announcement lists the earlier
    matches that count otherwise now — once, in the same post."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, clock):
        admin_a = members(harness)["club admin"]
        arbiter = members(harness)["arbiter"]
        await harness.command("match accept", user=admin_a, match=world.to_accept)
        await clock.advance_to(OPEN_START + dt.timedelta(hours=1))
        await harness.command(
            "match result",
            user=arbiter,
            match=world.to_accept,
            file=Upload("boards.csv", b"1,c1,a3,1,1\n"),
        )
        await clock.advance(dt.timedelta(0))
        assert not [p for p in _posts(harness) if "changes how earlier matches count" in p]

        async def entered(boards: bytes) -> list[str]:
            """The open match's result entered by the arbiter; the posts that list changes."""
            await harness.command(
                "match result",
                user=arbiter,
                match=world.open_match,
                file=Upload("boards.csv", boards),
            )
            await clock.advance(dt.timedelta(0))
            return [p for p in _posts(harness) if "changes how earlier matches count" in p]

        changed = await entered(b"1,a4,c1,1,1\n")
        assert len(changed) == 1, changed
        # c1's boards now count for the opponent: C - D and E - A change; A - C (c1 lost
        # both games there) counts as before and is not listed.
        assert "2 C 0 – 2 D (was 1 – 1)" in changed[0]
        assert "6 E 0 – 2 A (was 1 – 1)" in changed[0] and "3 A" not in changed[0]
        # CL-18: the correction that takes c1 off D's board ends the finding: the earlier
        # matches count as played again, and the correction's post says so (the stored
        # board's player is asked about, not only the new one's).
        changed = await entered(b"1,a4,d9,1,1\n")
        assert len(changed) == 2, changed
        assert "2 C 1 – 1 D (was 0 – 2)" in changed[1], changed[1]


ROUND_SEASON = season(
    [
        match("1", "D", "A", week=1, challenge=None, division="R"),
        match("2", "D", "B", week=2, challenge=None, division="R"),
        match("3", "D", "C", start=OPEN_START, finished=False, challenge=None, division="R"),
        match("4", "A", "E", start=OPEN_START, finished=False, challenge=None, division="R"),
        match("5", "B", "F", start=OPEN_START, finished=False, challenge=None, division="R"),
    ],
    {"R": ["A", "B", "C", "D", "E", "F"]},
)
"""D failed to start two matches (CL-15); a round of three at one start where nobody issues
a challenge: at that deadline D's third failure disqualifies it."""


async def test_cl_dq_a_disqualification_at_a_rounds_deadline_is_announced_once(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-DQ: the three matches of a round are judged at one deadline; D's disqualification
    (its third CL-15 forfeit) is announced once — by the match that caused it — not by each
    match judged then; the division's pin is edited once the table changed."""
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        await import_test_season(bot.database, {**ROUND_SEASON, "name": "Round"})
        await _schedule(bot, "Round")
        pin = await harness.command(
            "standings-pin", user=members(harness)["HQ"], season="Round", division="R"
        )
        assert pin.reply.ephemeral
        await clock.advance(dt.timedelta(0))
        pinned = [m for m, p in harness.sent.items() if p.embeds]
        await clock.advance_to(OPEN_START - dt.timedelta(hours=119))
        out = [p for p in _posts(harness) if "**D** is disqualified" in p]
        assert len(out) == 1, out
        assert len([p for p in _posts(harness) if "Challenge deadline" in p]) == 3
        assert any(p.edited for m, p in harness.sent.items() if m in pinned)
