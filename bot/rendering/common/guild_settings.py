"""The `/setup show` embed: a guild's roles, announcements and directors' channels, or
"not set"."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.text import cut, timestamp
from bot.rendering.common.user_text import user_text
from storage.shared.guild_settings import GuildSettings
from storage.shared.outbox import OutboxMessage

NOT_SET = "not set"


ERROR_SHOWN = 120
"""Characters of a delivery error shown per undelivered message."""


def _role(role_id: int | None) -> str:
    return NOT_SET if role_id is None else f"<@&{role_id}>"


def settings_embed(
    settings: GuildSettings,
    title: str = "Arbiter set-up",
    failures: Sequence[OutboxMessage] = (),
) -> discord.Embed:
    """An embed listing each setting as a mention or "not set", and the messages Arbiter gave up
    delivering.

    Those are the latest messages lost to a missing channel or permission.
    """
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())
    embed.add_field(name="League HQ role", value=_role(settings.hq_role_id), inline=False)
    embed.add_field(name="Director role", value=_role(settings.director_role_id), inline=False)
    embed.add_field(name="Arbiter role", value=_role(settings.arbiter_role_id), inline=False)
    channel = settings.announcements_channel_id
    embed.add_field(
        name="Announcements channel",
        value=NOT_SET if channel is None else f"<#{channel}>",
        inline=False,
    )
    directors = settings.directors_channel_id
    embed.add_field(
        name="Directors' channel (motions)",
        value="the announcements channel" if directors is None else f"<#{directors}>",
        inline=False,
    )
    arbiters = settings.arbiters_channel_id
    embed.add_field(
        name="Arbiters' channel (disputed tour results)",
        value="the announcements channel" if arbiters is None else f"<#{arbiters}>",
        inline=False,
    )
    if failures:
        lines = [
            f"<#{m.channel_id}>: {user_text(cut(m.error or 'failed', ERROR_SHOWN))} "
            f"({timestamp(m.created_at, 'R')})"
            for m in failures
        ]
        embed.add_field(
            name="Undelivered messages",
            value=cut("\n".join(lines), limits.FIELD_VALUE),
            inline=False,
        )
    embed.set_footer(text="Change these with /setup set (needs Manage Server).")
    return embed
