"""Who the directors are now (CL-23's electorate), for a command or button: the bot's one
electorate reader (`ArbiterBot.directors_of`), its reason for not reading them turned into a
refusal that tells the operator how to fix it.

The electorate needs the Server Members intent (privileged): without it Discord sends no
member list and role members are unknown. Members are fetched for the one guild that opens a
motion (`guild.chunk()`), never for every guild at start-up.
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
    """CL-23: the members holding the director role now (bots excluded), sorted; refused
    (`DirectorsUnknown`, naming the cause) when they cannot be read."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    bot = interaction.client
    found = await bot.directors_of(interaction.guild_id)
    if isinstance(found, Unreadable):
        raise DirectorsUnknown(found)
    return found
