"""Who the directors are now, CL-23's electorate, for a command or button.

It uses the bot's one electorate reader, `ArbiterBot.directors_of`, and turns its reason for not
reading them into a refusal that tells the operator how to fix it.

The electorate needs the privileged Server Members intent. Without it Discord sends no member list,
and role members are unknown. Members are fetched with `guild.chunk()` for the one guild that opens
a motion, never for every guild at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.app.interaction import Interaction
from bot.league.electorate import INTENT_OFF, DirectorsUnknown, Unreadable

if TYPE_CHECKING:
    pass

__all__ = ["INTENT_OFF", "director_ids"]


async def director_ids(interaction: Interaction) -> list[int]:
    """CL-23: the members holding the director role now, bots excluded, sorted.

    When they cannot be read it raises `DirectorsUnknown`, naming the cause.
    """
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    bot = interaction.client
    found = await bot.directors_of(interaction.guild_id)
    if isinstance(found, Unreadable):
        raise DirectorsUnknown(found)
    return found
