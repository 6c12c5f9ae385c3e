"""The `/setup show` embed: a guild's roles and announcements channel, or "not set"."""

from __future__ import annotations

import discord

from storage.guild_settings import GuildSettings

NOT_SET = "not set"


def _role(role_id: int | None) -> str:
    return NOT_SET if role_id is None else f"<@&{role_id}>"


def settings_embed(settings: GuildSettings, title: str = "Arbiter set-up") -> discord.Embed:
    """An embed listing each setting as a mention, or "not set"."""
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
    embed.set_footer(text="Change these with /setup set (needs Manage Server).")
    return embed
