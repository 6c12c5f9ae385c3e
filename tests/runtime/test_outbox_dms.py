"""Direct messages through the outbox: opened with `create_dm`, sent once under the row's nonce,
refused DMs fall back to one mention in the channel, a member who left gets nothing, and DM rows
are paced per recipient. Driven on a virtual clock against the harness's offline Discord."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.notifications import Kind
from bot.rendering.league.motions import vote_buttons
from bot.runtime.clock import VirtualClock
from bot.runtime.notify import from_server, jump_link, notify
from bot.runtime.outbox import OutboxSender
from storage.guild import GuildStore
from storage.shared.outbox import OutboxMessage
from tests.support.discord_harness import DEFAULT_GUILD_ID, OTHER_GUILD_ID, DiscordHarness


async def test_the_offline_discord_opens_dm_channels_and_refuses_closed_ones(
    bot: ArbiterBot, harness: DiscordHarness
) -> None:
    alice = harness.member(name="alice")
    channel = await bot.create_dm(discord.Object(alice.id))
    assert channel.id == harness.dm_channel(alice.id)
    await channel.send("hello", nonce="n-1")
    await channel.send("hello again", nonce="n-1")  # the same nonce: the same message
    assert [post.content for post in harness.dms[alice.id]] == ["hello"]
    assert harness.posts == []  # a direct message is no channel post

    harness.close_dms(alice.id)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("closed")
    assert (refused.value.status, refused.value.code) == (403, 50007)
    assert len(harness.dms[alice.id]) == 1


async def test_the_offline_discord_knows_a_guilds_members_and_who_left(
    bot: ArbiterBot, harness: DiscordHarness
) -> None:
    alice = harness.member(name="alice")
    guild, other = bot.get_guild(DEFAULT_GUILD_ID), bot.get_guild(OTHER_GUILD_ID)
    assert guild is not None and other is not None
    assert (await guild.fetch_member(alice.id)).id == alice.id
    with pytest.raises(discord.NotFound) as unknown:
        await other.fetch_member(alice.id)  # another guild's member is not this one's
    assert unknown.value.code == 10007
    harness.leave(alice.id, DEFAULT_GUILD_ID)
    with pytest.raises(discord.NotFound):
        await guild.fetch_member(alice.id)


SERVER = f"Guild {DEFAULT_GUILD_ID}"
"""The offline Discord's name of the test guild, which each direct message names."""

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(START)


@pytest.fixture
async def sender(bot: ArbiterBot, harness: DiscordHarness, clock: VirtualClock) -> OutboxSender:
    """A sender on the virtual clock, driven pass by pass; the bot's own background sender is
    stopped so it does not race the test."""
    assert bot.outbox is not None
    await bot.outbox.stop()
    return OutboxSender(bot.database, bot, clock=clock)


async def _notify(
    bot: ArbiterBot,
    kind: Kind,
    users: list[int],
    content: str,
    *,
    channel_id: int,
    choose: dict[int, bool] | None = None,
) -> list[int]:
    """Queues `content` for `users` through `notify`, after they make the `choose` choices."""
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        for user, enabled in (choose or {}).items():
            await uow.notifications.choose(user, kind.key, enabled)
        return await notify(
            uow,
            kind,
            users,
            channel_id=channel_id,
            content=content,
            components=vote_buttons(7),
        )


async def _rows(bot: ArbiterBot) -> list[OutboxMessage]:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        rows = [await view.outbox.get(number) for number in range(1, 50)]
    return [row for row in rows if row is not None]


async def _closed(bot: ArbiterBot, users: list[int]) -> set[int]:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        return await view.notifications.closed(users)


async def test_a_member_who_opted_in_gets_one_direct_message_and_one_who_opted_out_none(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice, bob = harness.member(name="alice"), harness.member(name="bob")
    channel = harness.channel("announcements")
    chosen = await _notify(
        bot,
        Kind.MATCH_START,
        [alice.id, bob.id],
        "Your match starts.",
        channel_id=channel,
        choose={alice.id: True},  # bob keeps the default, off
    )
    assert chosen == [alice.id]
    await sender.deliver_due()
    [dm] = harness.dms[alice.id]
    link = jump_link(DEFAULT_GUILD_ID, channel)
    assert dm.content == f"Your match starts.\nFrom **{SERVER}**: {link}"  # names its server
    assert dm.channel_id == harness.dm_channel(alice.id) and dm.buttons == ["Yes", "No"]
    assert dm.payload["nonce"].startswith("outbox-")
    assert bob.id not in harness.dms and harness.posts == []
    assert await sender.deliver_due() == []  # nothing twice

    refused = await _notify(
        bot, Kind.CONFIRM, [alice.id], "Confirm?", channel_id=channel, choose={alice.id: False}
    )
    assert refused == []
    await sender.deliver_due()
    assert len(harness.dms[alice.id]) == 1


async def test_closed_direct_messages_fall_back_to_one_mention_in_the_channel(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice = harness.member(name="alice")
    channel = harness.channel("announcements")
    harness.close_dms(alice.id)
    await _notify(bot, Kind.CONFIRM, [alice.id], "Confirm the report.", channel_id=channel)

    assert await sender.deliver_due() == []
    [dm_row, fallback] = await _rows(bot)
    assert dm_row.status == "failed"
    assert (dm_row.error or "").startswith("direct messages closed: 403")
    assert fallback.status == "pending" and fallback.dm_user_id is None
    assert await _closed(bot, [alice.id]) == {alice.id}

    [delivered] = await sender.deliver_due()
    assert delivered.id == fallback.id
    [post] = harness.posts
    assert post.channel_id == channel
    assert post.content == (
        f"<@{alice.id}>, I could not send you a direct message: Confirm the report."
    )
    assert post.payload["allowed_mentions"]["users"] == [alice.id]
    assert post.buttons == ["Yes", "No"]
    assert await sender.deliver_due() == [] and len(harness.posts) == 1  # once
    assert alice.id not in harness.dms


async def test_closed_direct_messages_without_a_channel_only_mark_the_member(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice = harness.member(name="alice")
    harness.close_dms(alice.id)
    await _notify(bot, Kind.CONFIRM, [alice.id], "Confirm the report.", channel_id=0)
    await sender.deliver_due()
    await sender.deliver_due()
    [row] = await _rows(bot)
    assert row.status == "failed" and harness.posts == []
    assert await _closed(bot, [alice.id]) == {alice.id}


async def test_a_restart_between_enqueue_and_send_sends_the_direct_message_once(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice = harness.member(name="alice")
    await _notify(bot, Kind.CONFIRM, [alice.id], "Once.", channel_id=0)
    [row] = await _rows(bot)
    # The process sends, Discord accepts, and the process dies before recording it.
    await sender._send(row)
    assert [post.content for post in harness.dms[alice.id]] == [from_server(SERVER, "Once.")]

    restarted = OutboxSender(bot.database, bot)
    [delivered] = await restarted.deliver_due()
    assert delivered.id == row.id
    once = [from_server(SERVER, "Once.")]
    assert [post.content for post in harness.dms[alice.id]] == once  # the same nonce
    [stored] = await _rows(bot)
    assert (stored.status, stored.message_id) == ("sent", harness.dms[alice.id][0].message_id)


async def test_a_member_who_left_and_another_guilds_member_get_nothing(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice = harness.member(name="alice")
    stranger = harness.member(name="stranger", guild_id=OTHER_GUILD_ID)
    channel = harness.channel("announcements")
    harness.leave(alice.id, DEFAULT_GUILD_ID)
    await _notify(bot, Kind.CONFIRM, [alice.id, stranger.id], "Confirm.", channel_id=channel)
    assert await sender.deliver_due() == []
    rows = await _rows(bot)
    assert [(row.status, (row.error or "")[:21]) for row in rows] == [
        ("failed", "left the server: 404 "),
        ("failed", "left the server: 404 "),
    ]
    assert harness.dms == {} and harness.posts == []
    assert await _closed(bot, [alice.id, stranger.id]) == set()


async def test_a_seated_member_is_found_in_the_member_cache(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice, bob = harness.member(name="alice"), harness.member(name="bob")
    harness.seat(DEFAULT_GUILD_ID, [alice])
    harness.members[DEFAULT_GUILD_ID].discard(alice.id)  # so only the cache knows her
    harness.leave(bob.id, DEFAULT_GUILD_ID)
    await _notify(bot, Kind.CONFIRM, [alice.id, bob.id], "Confirm.", channel_id=0)
    await sender.deliver_due()
    assert list(harness.dms) == [alice.id]
    assert [row.status for row in await _rows(bot)] == ["sent", "failed"]


async def test_a_429_holds_only_that_members_direct_messages_until_retry_after(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender, clock: VirtualClock
) -> None:
    alice, bob = harness.member(name="alice"), harness.member(name="bob")
    channel = harness.channel("announcements")
    harness.answer_next("POST", 429, channel_id=harness.dm_channel(alice.id), retry_after=30.0)
    await _notify(bot, Kind.CONFIRM, [alice.id], "First.", channel_id=0)
    await _notify(bot, Kind.CONFIRM, [alice.id, bob.id], "Second.", channel_id=0)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        await uow.outbox.post(channel, content="In the channel.")

    delivered = await sender.deliver_due()
    assert [post.content for post in harness.posts] == ["In the channel."]  # not held
    second = [from_server(SERVER, "Second.")]
    assert [post.content for post in harness.dms[bob.id]] == second  # not held
    assert alice.id not in harness.dms and len(delivered) == 2
    first = (await _rows(bot))[0]
    assert first.next_attempt_at == START + timedelta(seconds=30)
    assert (first.error or "").startswith("429")

    await clock.advance(timedelta(seconds=29))
    assert await sender.deliver_due() == []
    await clock.advance(timedelta(seconds=1))
    await sender.deliver_due()
    assert [post.content for post in harness.dms[alice.id]] == [
        from_server(SERVER, "First."),
        from_server(SERVER, "Second."),
    ]


async def test_a_channels_wait_does_not_hold_direct_messages_back(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    alice = harness.member(name="alice")
    channel = harness.channel("announcements")
    harness.answer_next("POST", 503, channel_id=channel)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        await uow.outbox.post(channel, content="In the channel.")
    await _notify(bot, Kind.CONFIRM, [alice.id], "Confirm.", channel_id=channel)
    await sender.deliver_due()
    assert harness.posts == [] and len(harness.dms[alice.id]) == 1


async def test_a_direct_message_waits_for_its_server_to_load_before_the_bot_is_ready(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender, clock: VirtualClock
) -> None:
    late_guild = 800_000_000_000_000_009
    async with GuildStore(bot.database, late_guild).change(1, "t", "s") as uow:
        row = await uow.outbox.post_dm(42, 0, content="Hello.")
    assert not bot.is_ready()
    assert await sender.deliver_due() == []
    async with GuildStore(bot.database, late_guild).read() as view:
        waiting = await view.outbox.get(row.id)
    assert waiting is not None and waiting.status == "pending"
    assert waiting.error == "the server is not loaded yet"

    harness.add_guild(late_guild)
    harness.member(guild_id=late_guild, user_id=42)
    await clock.advance(timedelta(seconds=2))
    [sent] = await sender.deliver_due()
    assert sent.id == row.id and [post.content for post in harness.dms[42]] == [
        from_server(f"Guild {late_guild}", "Hello.")
    ]


async def test_a_refused_direct_message_is_not_an_undelivered_message_of_the_server(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    """/setup show lists undelivered channel messages, a channel or a permission for HQ to fix.

    A member's closed DMs, or a member who left, is theirs: it is not listed there, against the
    channel of the public record, nor does it push a real failure off the list.
    """
    alice, bob = harness.member(name="alice"), harness.member(name="bob")
    channel = harness.channel("announcements")
    harness.answer_next("POST", 403, channel_id=channel)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        await uow.outbox.post(channel, content="In the channel.")
    await sender.deliver_due()
    harness.close_dms(alice.id)
    harness.leave(bob.id, DEFAULT_GUILD_ID)
    for _ in range(5):
        await _notify(bot, Kind.CONFIRM, [alice.id, bob.id], "Confirm.", channel_id=channel)
    await sender.deliver_due()
    await sender.deliver_due()
    assert sum(row.status == "failed" and row.dm_user_id is not None for row in await _rows(bot))

    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        failures = await view.outbox.failures()
    assert [(row.content, row.dm_user_id) for row in failures] == [("In the channel.", None)]


async def test_a_member_marked_closed_who_left_is_not_mentioned_in_the_channel(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    """docs/notifications.md: a member who left gets nothing, "neither a DM nor a mention", even
    one whose DMs were marked closed before; one still in the server is mentioned, once a
    notification, without a DM tried."""
    alice, bob = harness.member(name="alice"), harness.member(name="bob")
    channel = harness.channel("announcements")
    harness.close_dms(alice.id)
    harness.close_dms(bob.id)
    await _notify(bot, Kind.CONFIRM, [alice.id, bob.id], "First.", channel_id=channel)
    await sender.deliver_due()
    await sender.deliver_due()
    assert len(harness.posts) == 2 and await _closed(bot, [alice.id, bob.id]) == {alice.id, bob.id}

    harness.leave(alice.id, DEFAULT_GUILD_ID)
    harness.open_dms(bob.id)  # opened on Discord, but bob has not run /notify: none is tried
    await _notify(bot, Kind.CONFIRM, [alice.id, bob.id], "Later.", channel_id=channel)
    await sender.deliver_due()
    await sender.deliver_due()
    later = [post.content for post in harness.posts[2:]]
    assert later == [f"<@{bob.id}>, I could not send you a direct message: Later."]
    assert harness.dms == {}


async def test_a_direct_message_names_its_server_without_markdown_or_mentions(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    """A member of two servers can tell them apart, and a server's name is shown as typed."""
    guild = bot.get_guild(DEFAULT_GUILD_ID)
    assert guild is not None
    guild.name = "**Club** @everyone <@1>"
    alice = harness.member(name="alice")
    await _notify(bot, Kind.CONFIRM, [alice.id], "Confirm.", channel_id=0)
    await sender.deliver_due()
    [dm] = harness.dms[alice.id]
    assert dm.content == "Confirm.\nFrom **\\*\\*Club\\*\\* @\u200beveryone \\<@1\\>**"


@pytest.mark.parametrize("kind", list(Kind), ids=lambda kind: kind.key)
async def test_every_kind_falls_back_to_one_mention_when_dms_are_closed(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender, kind: Kind
) -> None:
    """Each kind, opted in, to a member whose DMs are closed: one mention, then none again."""
    alice = harness.member(name="alice")
    channel = harness.channel("announcements")
    harness.close_dms(alice.id)
    await _notify(
        bot, kind, [alice.id], f"About {kind.key}.", channel_id=channel, choose={alice.id: True}
    )
    await sender.deliver_due()
    await sender.deliver_due()
    await sender.deliver_due()
    [post] = harness.posts
    assert (
        post.content == f"<@{alice.id}>, I could not send you a direct message: About {kind.key}."
    )
    assert alice.id not in harness.dms
