"""Who the directors are now (CL-23's electorate), read from the guild's members.

The electorate needs the Server Members intent (privileged): without it Discord sends no
member list and role members are unknown, so opening a motion is refused with a message
telling the operator how to enable it. Members are fetched for the one guild that opens a
motion (`guild.chunk()`), never for every guild at start-up.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app.permissions import guild_store
from bot.league.electorate import INTENT_OFF, DirectorsUnknown, Unreadable

__all__ = ["INTENT_OFF", "director_ids"]


async def director_ids(interaction: discord.Interaction) -> list[int]:
    """CL-23: the members holding the director role now (bots excluded), sorted; refused
    (`DirectorsUnknown`, naming the cause) when they cannot be read."""
    guild = interaction.guild
    if guild is None:
        raise app_commands.NoPrivateMessage()
    async with guild_store(interaction).read() as view:
        role_id = (await view.settings.get()).director_role_id
    if role_id is None:
        raise DirectorsUnknown(Unreadable.NO_ROLE)
    if not interaction.client.intents.members:
        raise DirectorsUnknown(Unreadable.INTENT_OFF)
    if not guild.chunked:
        await guild.chunk()
    role = guild.get_role(role_id)
    if role is None:
        raise DirectorsUnknown(Unreadable.ROLE_DELETED)
    return sorted(member.id for member in role.members if not member.bot)
