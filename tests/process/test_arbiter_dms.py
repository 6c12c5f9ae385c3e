"""`arbiter run` delivers direct messages to the Discord double: the rows `notify` queued before
the bot started reach the members they concern once each, over Discord's real routes. A member
whose DMs are closed is mentioned in the channel instead, and one who left the server or is
another server's member gets nothing."""

from __future__ import annotations

from pathlib import Path

from bot.kernel.notifications import Kind
from bot.offline.chesscom_standin import ChessComStandIn
from bot.rendering.tour.automation import dm_report_buttons
from bot.runtime.notify import jump_link, notify
from storage.guild import GuildStore
from storage.shared.outbox import OutboxMessage
from tests.discord_double import DiscordDouble
from tests.discord_double.ratelimits import Fault
from tests.support.arbiter_process import ArbiterProcess, write_config
from tests.support.migrated import open_migrated
from tests.support.report_season import drained

WAIT = 30.0
CONTENT = "Your opponent reported game 5: you lost. Confirm or dispute it."


async def _queue(path: Path, guild_id: int, channel_id: int, users: list[int]) -> None:
    """What a game report's unit of work queues: `notify` for the player who must confirm."""
    database = await open_migrated(path)
    try:
        async with GuildStore(database, guild_id).change(None, "test.notify", "game:5") as uow:
            chosen = await notify(
                uow,
                Kind.CONFIRM,
                users,
                channel_id=channel_id,
                content=CONTENT,
                components=dm_report_buttons(guild_id, 5),
            )
        assert chosen == users  # confirm is on by default
    finally:
        await database.close()


async def _rows(path: Path, guild_id: int) -> list[OutboxMessage]:
    database = await open_migrated(path)
    try:
        async with GuildStore(database, guild_id).read() as view:
            rows = [await view.outbox.get(number) for number in range(1, 10)]
        return [row for row in rows if row is not None]
    finally:
        await database.close()


async def _closed(path: Path, guild_id: int, users: list[int]) -> set[int]:
    database = await open_migrated(path)
    try:
        async with GuildStore(database, guild_id).read() as view:
            return await view.notifications.closed(users)
    finally:
        await database.close()


async def test_arbiter_run_sends_direct_messages_once_and_falls_back_in_the_channel(
    tmp_path: Path,
) -> None:
    double = DiscordDouble(heartbeat_interval_ms=1000)
    await double.start()
    chesscom = ChessComStandIn()
    await chesscom.start()
    guild = double.add_guild("Notify", channels=("general", "announcements"))
    elsewhere = double.add_guild("Elsewhere")
    alice, bob = double.add_member(guild, "alice"), double.add_member(guild, "bob")
    carol = double.add_member(guild, "carol")
    stranger = double.add_member(elsewhere, "stranger")
    announcements = guild.channel("announcements")
    path = tmp_path / "arbiter.db"
    await _queue(path, guild.id, announcements.id, [alice.id, bob.id, carol.id, stranger.id])

    double.close_dms(bob)
    double.remove_member(guild, carol)
    # Discord makes alice's message but its answer is lost: the retry's nonce finds it.
    dm = double.open_dm_channel(alice.id)
    assert dm is not None
    route, resource = "POST /channels/{channel_id}/messages", f"channel_id={dm.id}"
    double.rest.limiter.fault(Fault(500, "POST", route, resource, after=True))

    config = write_config(tmp_path, chesscom.base_url)
    bot = ArbiterProcess(config, double)
    try:
        async with bot:
            await double.wait_ready(timeout=WAIT)
            await double.wait_for(
                lambda: bool(double.dms(alice) and double.channel_messages(announcements)),
                WAIT,
                "the direct message and the channel's mention",
            )
            await drained(path, WAIT)
            [message] = double.dms(alice)
            link = jump_link(guild.id, announcements.id)
            assert message.content == f"{CONTENT}\nFrom **{guild.name}**: {link}"
            assert message.guild_id is None and message.nonce is not None
            assert [b["custom_id"] for b in message.components[0]["components"]] == [
                f"dmgame:{guild.id}:5:confirm",
                f"dmgame:{guild.id}:5:dispute",
            ]
            assert double.repeated_nonces == [message.nonce]  # the lost answer, not resent
            [mention] = double.channel_messages(announcements)
            assert mention.content == (
                f"<@{bob.id}>, I could not send you a direct message: {CONTENT}"
            )
            assert mention.components == message.components
            assert (double.dms(bob), double.dms(carol), double.dms(stranger)) == ([], [], [])
            rows = await _rows(path, guild.id)
            assert [(row.dm_user_id, row.status) for row in rows] == [
                (alice.id, "sent"),
                (bob.id, "failed"),
                (carol.id, "failed"),
                (stranger.id, "failed"),
                (None, "sent"),
            ]
            assert (rows[2].error or "").startswith("left the server: 404")
            assert (rows[3].error or "").startswith("left the server: 404")
            assert await _closed(path, guild.id, [alice.id, bob.id]) == {bob.id}
            assert double.rest.unanswered == []
    finally:
        await bot.kill()
        await double.stop()
        await chesscom.stop()
