"""CL-21 with chess.com down (issue 19 item 5), through the real command tree and the bot's
scheduler on a virtual clock: a removal for timeouts while chess.com answers 503 is not put
to the directors ("ratio unknown") — it waits, saying so; chess.com answering 40 % an hour
later verifies it with no motion; an outage lasting the documented 13 tries over 6 hours
opens the forfeit motion, saying chess.com did not answer."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.app.arbiter import ArbiterBot
from bot.league.rosters.removal_checks import CHESSCOM_RETRY, CHESSCOM_TRIES
from storage.guild import GuildStore
from storage.league.motions import Motion
from tests.support.chesscom_fake import FakeChessCom
from tests.support.command_world import CommandWorld, copy_world, league_bot, members
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Outcome

STATS = "player/a2/stats"
FORTY = {"chess_daily": {"record": {"win": 5, "loss": 5, "draw": 0, "timeout_percent": 40}}}


async def _motions(bot: ArbiterBot) -> list[Motion]:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        return [m for m in await view.motions.recent() if m.kind == "forfeit"]


async def _remove_a2_while_down(fake: FakeChessCom, harness: DiscordHarness) -> Outcome:
    """With chess.com answering 503, A's admin removes a2 for timeouts; the reply."""
    fake.serve_status(STATS, 503)
    return await harness.command(
        "roster remove",
        user=members(harness)["club admin"],
        club="A",
        player="a2",
        reason="timeouts",
    )


async def test_cl_21_a_brief_outage_waits_and_an_answer_verifies_without_a_motion(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, fake: FakeChessCom
) -> None:
    async with league_bot(copy_world(world_file, tmp_path), base_url=fake.base_url) as (
        bot,
        harness,
        clock,
    ):
        outcome = await _remove_a2_while_down(fake, harness)
        text = outcome.replies[-1].content or ""
        assert "Not verified yet: chess.com did not answer" in text and "6 hours" in text, text
        await clock.advance(CHESSCOM_RETRY)  # a retry: still down, still nothing decided
        assert await _motions(bot) == []
        fake.serve(STATS, FORTY)
        await clock.advance(CHESSCOM_RETRY + dt.timedelta(minutes=1))
        posts = [p.content or "" for p in harness.sent.values()]
        assert any("Roster removal verified (CL-21)" in p and "40 %" in p for p in posts), posts
        assert await _motions(bot) == []


async def test_cl_21_an_outage_lasting_6_hours_puts_the_removal_to_the_directors(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, fake: FakeChessCom
) -> None:
    async with league_bot(copy_world(world_file, tmp_path), base_url=fake.base_url) as (
        bot,
        harness,
        clock,
    ):
        await _remove_a2_while_down(fake, harness)
        await clock.advance(CHESSCOM_RETRY * (CHESSCOM_TRIES - 2))
        assert await _motions(bot) == []  # 12 tries, 5½ hours: still waiting
        await clock.advance(CHESSCOM_RETRY + dt.timedelta(minutes=1))
        [motion] = await _motions(bot)
        assert "chess.com did not answer in 13 tries over 6 hours" in motion.reason
        assert len(fake.seen(STATS)) >= CHESSCOM_TRIES
