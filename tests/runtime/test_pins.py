"""Standings pins kept up to date (bot/league/standings/pin.py): a result that moves the
table edits the pin's message exactly once through the outbox; a pin left stale by a change the
bot never followed (a crash) is edited once at the next start; an unchanged season edits
nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.app.arbiter import ArbiterBot
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import BoardRecord
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Post, Upload
from tests.support.motion_world import START, import_test_season, league_ready, running_bot, set_up

SEASON = "Test season"


async def _settle(bot: ArbiterBot) -> None:
    """Let the refresher follow the last commit and the outbox send what it queued."""
    assert bot.pins is not None and bot.outbox is not None
    await bot.pins.drained()
    await bot.outbox.drained()


def _edits(harness: DiscordHarness) -> list[Post]:
    return [post for post in harness.posts if post.edited]


async def _pin(harness: DiscordHarness) -> Post:
    hq = harness.member("HQ")
    outcome = await harness.command("standings-pin", user=hq, season=SEASON, division="P")
    [post] = outcome.posts
    return post


async def test_a_result_that_moves_the_table_edits_the_pin_once(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "bot.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        post = await _pin(harness)
        assert "A" in post.embeds[0]["description"]
        await _settle(bot)
        assert _edits(harness) == []

        # A player linking an account changes no season: nothing to edit.
        await harness.command("roster link", user=harness.member(), chesscom_username="someone")
        await _settle(bot)
        assert _edits(harness) == []

        arbiter = harness.member("Arbiter")  # corrects B - D (D had won it 2:0)
        boards = Upload("boards.csv", b"1,b1,d1,2,0\n2,b2,d2,2,0\n")
        await harness.command("match result", user=arbiter, match=ids["4"], file=boards)
        await _settle(bot)
        [edit] = _edits(harness)
        assert edit.message_id == post.message_id and edit.channel_id == post.channel_id
        assert edit.embeds[0]["description"] != post.embeds[0]["description"]
        assert bot.pins is not None
        assert await bot.pins.refresh(DEFAULT_GUILD_ID) == 0  # idempotent: nothing stale
        await _settle(bot)
        assert len(_edits(harness)) == 1


async def test_a_restart_with_a_stale_pin_edits_it_once_and_an_unchanged_one_not(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    clock = VirtualClock(START)
    async with running_bot(path, clock) as (bot, first):
        await set_up(first)
        ids = await import_test_season(bot.database)
        post = await _pin(first)
        await _settle(bot)

    # A result committed while no refresher listened (the bot crashed before its edit).
    database = await Database.open(path, clock=clock)
    async with GuildStore(database, DEFAULT_GUILD_ID).change(None, "test", "result") as uow:
        boards = [BoardRecord(1, "b1", "d1", 4, 0), BoardRecord(2, "b2", "d2", 4, 0)]
        await uow.matches.replace_boards(ids["4"], boards)  # B - D corrected: B wins
    await database.close()

    async with running_bot(path, clock, previous=first) as (bot, second):
        await _settle(bot)
        [edit] = _edits(second)
        assert edit.message_id == post.message_id

    clock = VirtualClock(START + dt.timedelta(hours=1))
    async with running_bot(path, clock, previous=second) as (bot, third):
        await _settle(bot)
        assert _edits(third) == []


async def test_a_change_that_leaves_the_table_as_shown_records_the_version_without_an_edit(
    tmp_path: Path,
) -> None:
    """A season change that moves nothing in the pinned division's table (here: the season's
    version bumped by a change of no result) asks Discord for no edit; the pin is no longer
    stale (the version it shows is recorded), so nothing is redone at the next refresh."""
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "bot.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        await _pin(harness)
        await _settle(bot)
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "t", "s") as uow:
            record = await uow.seasons.by_name(SEASON)
            assert record is not None
            await uow.seasons.bump(record.id)
        await _settle(bot)
        assert _edits(harness) == []
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            assert await view.pins.stale() == []
            [pin] = await view.pins.of_season(record.id)
            assert pin.rendered_version == pin.season_version
