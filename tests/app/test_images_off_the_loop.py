"""Images are drawn in a worker thread: while one guild's standings PNG is being drawn, the
bot still answers another guild's autocomplete (issue 34). The drawing is held on an event
the test sets only once the autocomplete is answered, so nothing sleeps. Were the drawing on
the event loop, the loop could not answer until the hold ran out and the test fails."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest

from bot.app.arbiter import ArbiterBot
from bot.formats.season_file import load_season
from bot.league.store import import_season
from bot.rendering.league.division_view import DivisionView
from storage.guild import GuildStore
from tests.support.discord_harness import OTHER_GUILD_ID, DiscordHarness
from tests.support.motion_world import import_test_season, set_up
from tests.support.rendering_season import generated_season

HOLD = 10.0
"""Seconds the held drawing waits at most for the test's release."""


async def test_an_autocomplete_is_answered_while_a_standings_image_is_drawn(
    harness: DiscordHarness, bot: ArbiterBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await set_up(harness)
    await import_test_season(bot.database, generated_season())
    async with GuildStore(bot.database, OTHER_GUILD_ID).change(None, "test", "season") as uow:
        await import_season(uow, load_season(generated_season()))
    drawing, release = threading.Event(), threading.Event()
    released_in_time: list[bool] = []
    # The module the bot loaded as an extension (discord.py loads a fresh copy).
    standings_cog = sys.modules[type(bot.get_cog("Standings")).__module__]
    draw = standings_cog.standings_png

    def held(view: DivisionView) -> bytes:
        drawing.set()
        released_in_time.append(release.wait(HOLD))
        return draw(view)

    monkeypatch.setattr(standings_cog, "standings_png", held)
    player = harness.member()
    image = asyncio.create_task(
        harness.command("standings", user=player, season="Test season", format="image")
    )
    try:
        assert await asyncio.to_thread(drawing.wait, HOLD)
        other = harness.member(guild_id=OTHER_GUILD_ID)
        choices = await harness.autocomplete("standings", user=other, focused="season", season="Te")
        assert not image.done()
    finally:
        release.set()
    assert [c["value"] for c in choices] == ["Test season"]
    outcome = await image
    assert released_in_time == [True]
    assert outcome.replies[-1].files == ["standings-test-season-p.png"]
