"""/match through the real tree on the populated league: challenge and acceptance (CL-15), a
result from a boards CSV with the score and ranks, a reschedule that moves the deadline,
`/match report` deferring before chess.com, and the list with its filters."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from storage.guild import GuildStore
from tests.support.command_world import (
    ADMINS,
    BOARDS_CSV,
    CommandWorld,
    copy_world,
    dump,
    league_bot,
    members,
)
from tests.support.discord_harness import DEFAULT_GUILD_ID, Upload


async def test_challenge_then_the_other_club_accepts(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _):
        admin_a = members(harness)["club admin"]
        admin_d = harness.member(user_id=ADMINS["D"][0])
        issued = await harness.command(
            "match challenge", user=admin_a, match=world.open_match, chesscom_match="12803"
        )
        assert "recorded" in (issued.reply.content or "") and ":R>" in (issued.reply.content or "")
        accepted = await harness.command("match accept", user=admin_d, match=world.open_match)
        assert not accepted.reply.ephemeral, accepted.reply.content
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            match = await view.matches.get(world.open_match)
        assert match is not None and match.chesscom_match_id == 12803
        shown = await harness.command("match show", user=admin_d, match=world.open_match)
        assert "<t:" in shown.reply.text()


async def test_an_arbiters_boards_csv_is_the_result_with_score_and_ranks(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        arbiter = members(harness)["arbiter"]
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            played = await view.matches.get(world.open_match)
        assert played is not None
        await clock.advance_to(played.start + dt.timedelta(hours=3))  # CL-14: after its start
        outcome = await harness.command(
            "match result",
            user=arbiter,
            match=world.open_match,
            file=Upload("boards.csv", BOARDS_CSV),
        )
        assert len(outcome.replies) == 1 and not outcome.reply.ephemeral
        text = outcome.reply.text()
        assert "1½" in text or "1.5" in text, text
        assert "A" in text and "D" in text
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            boards = await view.matches.boards(world.open_match)
        assert [(b.home_player, b.home_half, b.away_half) for b in boards] == [("a1", 3, 1)]


async def test_cl_13_a_director_reschedules_in_the_leagues_zone_and_the_deadline_moves(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-13, CL-22: the new start is read in the league's zone (America/Los_Angeles), or in
    the zone given; the reply shows the instant in both the league's zone and UTC, and the
    CL-15 deadline moves with it."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _):
        director = members(harness)["director"]
        outcome = await harness.command(
            "match reschedule", user=director, match=world.open_match, start="2026-04-15 18:00"
        )
        new = dt.datetime(2026, 4, 16, 1, tzinfo=dt.UTC)  # 18:00 Pacific daylight time
        text = outcome.reply.content or ""
        assert f"<t:{int(new.timestamp())}" in text
        assert "2026-04-15 18:00 America/Los_Angeles" in text and "2026-04-16 01:00 UTC" in text
        deadline = new - dt.timedelta(hours=120)
        assert f"<t:{int(deadline.timestamp())}:R>" in text
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            match = await view.matches.get(world.open_match)
        assert match is not None and match.start == new
        paris = await harness.command(
            "match reschedule",
            user=director,
            match=world.open_match,
            start="2026-04-20 20:00 Europe/Paris",
        )
        assert "2026-04-20 11:00 America/Los_Angeles" in (paris.reply.content or "")
        assert "2026-04-20 18:00 UTC" in (paris.reply.content or "")


async def test_report_defers_before_chesscom_and_answers_in_a_followup(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """The world's clubs have no chess.com club: the import is refused, after the defer —
    which is private, so the refusal is one private line and no public "could not be
    completed" message is left in the channel (issue 20)."""
    world = world_file[1]
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        admin_a = members(harness)["club admin"]
        before = dump(path)
        outcome = await harness.command(
            "match report", user=admin_a, match=world.open_match, chesscom_match="12803"
        )
        assert outcome.replies[0].type == 5
        assert "chess.com" in outcome.replies[-1].text()
        assert all(reply.ephemeral for reply in outcome.replies), outcome.replies
        assert not any("could not be completed" in r.text() for r in outcome.replies)
        assert not outcome.posts
        assert dump(path) == before


async def test_the_list_filters_by_round_club_and_mine(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        admin_b = members(harness)["other club's admin"]
        season = "Test season"
        every = (await harness.command("match list", user=admin_b, season=season)).reply.text()
        assert every.count("`#") == 6
        round_one = await harness.command("match list", user=admin_b, season=season, round=1)
        assert round_one.reply.text().count("`#") == 2
        mine = await harness.command("match list", user=admin_b, season=season, mine=True)
        assert mine.reply.text().count("`#") == 2 and " B " in mine.reply.text().replace("–", " ")
        of_c = await harness.command("match list", user=admin_b, season=season, club="C")
        assert of_c.reply.text().count("`#") == 2
        choices = await harness.autocomplete("match accept", user=admin_b, focused="match", match=1)
        assert 1 <= len(choices) <= 25
