"""Direct messages through the outbox: opened with `create_dm`, sent once under the row's nonce,
refused DMs fall back to one mention in the channel, a member who left gets nothing, and DM rows
are paced per recipient. Driven on a virtual clock against the harness's offline Discord."""

from __future__ import annotations

import discord
import pytest

from bot.app.arbiter import ArbiterBot
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
