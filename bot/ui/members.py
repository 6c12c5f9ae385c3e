"""Who the directors are now (CL-23's electorate), read from the guild's members.

The electorate needs the Server Members intent (privileged): without it Discord sends no
member list and role members are unknown, so opening a motion is refused with a message
telling the operator how to enable it. Members are fetched for the one guild that opens a
motion (`guild.chunk()`), never for every guild at start-up.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import UserError
from bot.permissions import guild_store

INTENT_OFF = (
    "Arbiter cannot see who holds the director role: the **Server Members intent** is off. "
    "The bot's operator must enable it (Discord Developer Portal → the application → Bot → "
    "Privileged Gateway Intents → Server Members Intent) and restart Arbiter."
)


async def director_ids(interaction: discord.Interaction) -> list[int]:
    """CL-23: the members holding the director role now (bots excluded), sorted."""
    guild = interaction.guild
    if guild is None:
        raise app_commands.NoPrivateMessage()
    async with guild_store(interaction).read() as view:
        role_id = (await view.settings.get()).director_role_id
    if role_id is None:
        raise UserError(
            "No director role is set up: someone with Manage Server can set it with "
            "`/setup set director_role`."
        )
    if not interaction.client.intents.members:
        raise UserError(INTENT_OFF)
    if not guild.chunked:
        await guild.chunk()
    role = guild.get_role(role_id)
    if role is None:
        raise UserError("The director role no longer exists: set it again with `/setup set`.")
    return sorted(member.id for member in role.members if not member.bot)
