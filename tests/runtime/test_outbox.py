"""The outbox: delivered in order per channel, once, marked sent only after Discord accepted;
5xx/429 retried with back-off, 403/404 recorded and shown in `/setup show`. Driven on a
virtual clock against the harness's fake Discord (no network, no waiting)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.app.arbiter import ArbiterBot
from bot.rendering.league.motions import vote_buttons
from bot.runtime.clock import VirtualClock
from bot.runtime.outbox import OutboxSender, backoff
from storage.guild import GuildStore
from storage.shared.outbox import OutboxMessage, pending_messages
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(START)


@pytest.fixture
async def sender(bot: ArbiterBot, harness: DiscordHarness, clock: VirtualClock) -> OutboxSender:
    """A sender on the virtual clock, driven pass by pass (`deliver_due`); the bot's own
    background sender is stopped so it does not race the test."""
    assert bot.outbox is not None
    await bot.outbox.stop()
    return OutboxSender(bot.database, bot, clock=clock)


async def _post(bot: ArbiterBot, channel_id: int, content: str, **options: object) -> OutboxMessage:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        return await uow.outbox.post(channel_id, content=content, **options)  # type: ignore[arg-type]


async def _stored(bot: ArbiterBot, message: OutboxMessage) -> OutboxMessage:
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        stored = await view.outbox.get(message.id)
    assert stored is not None
    return stored


async def test_messages_are_delivered_in_order_per_channel_and_marked_with_discords_id(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    channel = harness.channel("announcements")
    first = await _post(bot, channel, "one", embeds=[{"title": "Round 1"}])
    second = await _post(bot, channel, "two")
    assert [p.content for p in harness.posts] == []  # nothing sent inside the unit of work

    assert [m.id for m in await sender.deliver_due()] == [first.id, second.id]
    assert [(p.channel_id, p.content) for p in harness.posts] == [
        (channel, "one"),
        (channel, "two"),
    ]
    assert harness.posts[0].embeds[0]["title"] == "Round 1"
    assert harness.posts[0].payload["nonce"] == f"outbox-{first.id}"
    stored = await _stored(bot, first)
    assert (stored.status, stored.message_id) == ("sent", harness.posts[0].message_id)
    assert await sender.deliver_due() == []  # nothing is sent twice
    assert len(harness.posts) == 2


async def test_a_5xx_then_success_is_delivered_once_after_back_off_holding_the_channel(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender, clock: VirtualClock
) -> None:
    channel, other = harness.channel("announcements"), harness.channel("general")
    harness.answer_next("POST", 503, channel_id=channel)
    first = await _post(bot, channel, "first")
    second = await _post(bot, channel, "second")
    elsewhere = await _post(bot, other, "elsewhere")

    assert [m.id for m in await sender.deliver_due()] == [elsewhere.id]  # channel held in order
    waiting = await _stored(bot, first)
    assert waiting.status == "pending" and waiting.error.startswith("503")
    assert waiting.next_attempt_at == START + backoff(0)
    await clock.advance(backoff(0) - timedelta(seconds=1))
    assert await sender.deliver_due() == []  # not before its time
    await clock.advance(timedelta(seconds=1))
    assert [m.id for m in await sender.deliver_due()] == [first.id, second.id]
    assert [p.content for p in harness.posts] == ["elsewhere", "first", "second"]
    assert (await _stored(bot, first)).status == "sent"
    assert harness.requests.count(("POST", channel)) == 3  # one failed try, two deliveries


async def test_a_429_is_retried_after_discords_retry_after(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender, clock: VirtualClock
) -> None:
    channel = harness.channel("announcements")
    harness.answer_next("POST", 429, retry_after=42.0, times=2)
    message = await _post(bot, channel, "busy")
    await sender.deliver_due()
    assert (await _stored(bot, message)).next_attempt_at == START + timedelta(seconds=42)
    await clock.advance(timedelta(seconds=42))
    await sender.deliver_due()
    assert (await _stored(bot, message)).next_attempt_at == START + timedelta(seconds=84)
    await clock.advance(timedelta(seconds=42))
    await sender.deliver_due()
    assert [p.content for p in harness.posts] == ["busy"]


async def test_a_restart_between_accepted_and_marked_sent_does_not_send_twice(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    channel = harness.channel("announcements")
    message = await _post(bot, channel, "only once")
    # The process sends, Discord accepts, and the process dies before recording it.
    await sender._send(message)
    assert [p.content for p in harness.posts] == ["only once"]
    assert (await _stored(bot, message)).status == "pending"

    restarted = OutboxSender(bot.database, bot)
    [delivered] = await restarted.deliver_due()
    assert delivered.id == message.id
    assert [p.content for p in harness.posts] == ["only once"]  # Discord matched the nonce
    stored = await _stored(bot, message)
    assert (stored.status, stored.message_id) == ("sent", harness.posts[0].message_id)


async def test_a_403_is_recorded_and_shown_in_setup_show(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    channel = harness.channel("announcements")
    harness.deny(channel)
    message = await _post(bot, channel, "secret")
    after = await _post(bot, harness.channel("general"), "still delivered")
    gone = await _post(bot, 123, "to a deleted channel")
    assert [m.id for m in await sender.deliver_due()] == [after.id]
    assert [p.content for p in harness.posts] == ["still delivered"]
    failed = await _stored(bot, message)
    assert failed.status == "failed" and failed.error.startswith("missing permission: 403")
    assert (await _stored(bot, gone)).error.startswith("missing channel or message: 404")
    assert await pending_messages(bot.database) == []
    assert await sender.deliver_due() == []  # given up: not retried

    admin = harness.member(permissions=harness.MANAGE_SERVER)
    shown = await harness.command("setup show", user=admin)
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    lines = fields["Undelivered messages"].splitlines()
    assert lines[0].startswith("<#123>: missing channel or message: 404")
    assert lines[1].startswith(f"<#{channel}>: missing permission: 403 Missing Permissions")


async def test_an_edit_goes_through_the_outbox_to_the_message_it_names(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    channel = harness.channel("announcements")
    await _post(bot, channel, "Standings v1")
    await sender.deliver_due()
    [posted] = harness.posts
    edit = await _post(bot, channel, "Standings v2", edit_of=posted.message_id)
    missing = await _post(bot, channel, "Standings v3", edit_of=999)
    await sender.deliver_due()
    assert harness.sent[posted.message_id].content == "Standings v2"
    assert harness.posts[-1].edited and len(harness.posts) == 2
    assert (await _stored(bot, edit)).message_id == posted.message_id
    assert (await _stored(bot, missing)).status == "failed"


async def test_the_bot_wakes_its_sender_when_a_unit_of_work_that_posted_commits(
    bot: ArbiterBot, harness: DiscordHarness
) -> None:
    assert bot.outbox is not None
    message = await _post(bot, harness.channel("announcements"), "woken")
    await bot.outbox.drained()
    assert [p.content for p in harness.posts] == ["woken"]
    assert (await _stored(bot, message)).status == "sent"


async def test_component_rows_are_sent_as_stored_and_no_view_is_kept_for_them(
    bot: ArbiterBot, harness: DiscordHarness, sender: OutboxSender
) -> None:
    """Buttons travel through discord.py's public `send(view=…)`: Discord gets exactly the
    stored rows, and the bot keeps no per-message view (the persistent dynamic items answer
    the clicks); a row that is not buttons is refused for good, not retried."""
    channel = harness.channel("announcements")
    rows = vote_buttons(7)
    kept = list(bot.persistent_views)
    message = await _post(bot, channel, "Motion 7", components=rows)
    odd = await _post(bot, channel, "a menu", components=[{"type": 1, "components": [{"type": 3}]}])
    assert [m.id for m in await sender.deliver_due()] == [message.id]
    [post] = harness.posts
    assert post.payload["components"] == rows
    assert list(bot.persistent_views) == kept
    refused = await _stored(bot, odd)
    assert refused.status == "failed" and "not a button" in (refused.error or "")
    edit = await _post(bot, channel, "Motion 7 closed", edit_of=post.message_id)
    await sender.deliver_due()
    assert harness.sent[post.message_id].payload["components"] == rows  # an edit keeps them
    assert (await _stored(bot, edit)).status == "sent"
