"""The `/help` embeds: the commands a member may use, one line each, split to fit Discord."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.rendering.common import limits

TITLE = "Arbiter commands you can use here"


def help_embeds(commands: list[app_commands.Command[Any, ..., Any]]) -> list[discord.Embed]:
    """Embeds listing `/name — description` for each command, in name order.

    Each embed fits one message. A long list is split over several, never cut.
    """
    lines = [
        f"`/{command.qualified_name}` — {command.description}"
        for command in sorted(commands, key=lambda c: c.qualified_name)
    ]
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and size + 1 + len(line) > limits.EMBED_DESCRIPTION:
            pages.append([])
            size = 0
        size += len(line) + (1 if pages[-1] else 0)
        pages[-1].append(line)
    embeds = []
    for number, page in enumerate(pages, start=1):
        title = TITLE if len(pages) == 1 else f"{TITLE} ({number}/{len(pages)})"
        embeds.append(
            discord.Embed(
                title=title,
                description="\n".join(page) or "No commands are available to you here.",
                colour=discord.Colour.blurple(),
            )
        )
    return embeds
