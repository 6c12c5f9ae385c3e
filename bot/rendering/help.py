"""The `/help` embed: the commands a member may use, one line each."""

from __future__ import annotations

import discord
from discord import app_commands


def help_embed(commands: list[app_commands.Command]) -> discord.Embed:
    """An embed listing `/name — description` for each command, in name order."""
    lines = [
        f"`/{command.qualified_name}` — {command.description}"
        for command in sorted(commands, key=lambda c: c.qualified_name)
    ]
    embed = discord.Embed(
        title="Arbiter commands you can use here",
        description="\n".join(lines) or "No commands are available to you here.",
        colour=discord.Colour.blurple(),
    )
    return embed
