"""The bot's one chess.com client serves every command (issue 21): two commands that read
the same chess.com path share its ETag cache — the second is answered by a 304 — and, with
no contact configured (chess.com requires one), a command that must read chess.com refuses
privately and changes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.app.arbiter import ArbiterBot
from tests.support.chesscom_fake import running_fake
from tests.support.command_world import CommandWorld, copy_world, dump, invoke, league_bot, members
from tests.support.discord_harness import DiscordHarness

DEV = "chess-com-developer-community"
PROFILE = f"club/{DEV}"


async def test_two_commands_share_the_bots_client_and_its_etag_cache(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, fixtures_dir: Path
) -> None:
    with running_fake(fixtures_dir) as fake:
        path = copy_world(world_file, tmp_path)
        async with league_bot(path, base_url=fake.base_url) as (bot, harness, _):
            client = bot.chesscom
            assert client is not None
            cast = members(harness)
            player = cast["player"]
            second = harness.member(user_id=301, name="second")
            await invoke(harness, "club register", player, {"chesscom_club": DEV, "admin2": second})
            await harness.command("club approve", user=cast["HQ"], club=DEV)
            card = await harness.command("club info", user=player, club=DEV)
            text = "".join(reply.text() for reply in card.replies)
            assert "14905" in text.replace(",", "")  # the 304 answered with the cached body
            assert bot.chesscom is client
    seen = fake.seen(PROFILE)
    assert [request.status for request in seen] == [200, 304]
    assert seen[0].if_none_match is None and seen[1].if_none_match is not None


async def test_without_a_contact_a_command_that_reads_chesscom_refuses_privately(
    bot: ArbiterBot, harness: DiscordHarness, tmp_path: Path
) -> None:
    assert not bot.config.chesscom.contact and bot.chesscom is None
    player, second = harness.member(name="p"), harness.member(name="q")
    before = dump(bot.database.path)
    outcome = await invoke(
        harness, "club register", player, {"chesscom_club": DEV, "admin2": second}
    )
    [reply] = outcome.replies
    assert reply.ephemeral and "chess.com is not configured" in (reply.content or "")
    assert "`[chesscom] contact`" in (reply.content or "")
    assert dump(bot.database.path) == before
