"""The interaction of Arbiter's commands, buttons and autocompletes.

It is discord.py's with the bot's own client type, so `interaction.client` is an `ArbiterBot` to the
type checker. Its guild store, config and standings cache thus need no cast or ignore.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import discord

if TYPE_CHECKING:
    from bot.app.arbiter import ArbiterBot

Interaction: TypeAlias = "discord.Interaction[ArbiterBot]"
"""Use in annotations only. It names the bot's class, which imports most of `bot/`."""
