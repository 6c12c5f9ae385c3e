"""What the cogs share: their base class, a guild-only command group, a preview under
Confirm / Cancel, and a table sent as embeds, image or CSV.

The module's name starts with an underscore, so the bot does not load it as a cog."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.arbiter import ArbiterBot
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.app.ui.confirm import ConfirmView, OnConfirm
from bot.app.ui.pages import send_pages
from bot.rendering.common.files import drawn

NOT_STORED_YET = "Nothing is stored until you confirm (60 s)."
"""The text above a preview's Confirm / Cancel buttons."""

TableFormat = Literal["embed", "image", "csv"]
"""How a table is sent: as embeds, as a PNG image or as a CSV file."""


def guild_group(name: str, description: str) -> app_commands.Group:
    """A slash-command group that is used on servers only."""
    return app_commands.Group(name=name, description=description, guild_only=True)


def thinking(interaction: Interaction) -> Callable[[], Awaitable[None]]:
    """A public "thinking…" for a slow reply. The use case sends it once the options are
    known good, so a refusal before it can still be private."""

    async def ready() -> None:
        await interaction.response.defer(thinking=True)

    return ready


def channel_or_here(interaction: Interaction, channel: discord.TextChannel | None) -> int:
    """The id of the channel given, or of the channel the command was used in."""
    where = channel.id if channel is not None else interaction.channel_id
    assert where is not None  # the commands that ask are used on servers only
    return where


def as_file(data: bytes, filename: str) -> discord.File:
    """A file to attach to a reply."""
    return discord.File(io.BytesIO(data), filename=filename)


async def send_table(
    interaction: Interaction,
    format: TableFormat,
    stem: str,
    *,
    embeds: Callable[[], Sequence[discord.Embed]],
    image: Callable[[], bytes],
    csv: Callable[[], str],
    crosstable: Callable[[], bytes] | None = None,
) -> None:
    """Replies with a table in the format asked for.

    Only that format is drawn, and a file is named after `stem`, such as `standings.png`. An image
    reply also carries `crosstable.png` when a crosstable is given.
    """
    if format == "csv":
        await interaction.response.send_message(file=as_file(csv().encode(), f"{stem}.csv"))
    elif format == "image":
        files = [as_file(await drawn(image), f"{stem}.png")]
        if crosstable is not None:
            files.append(as_file(await drawn(crosstable), "crosstable.png"))
        await interaction.response.send_message(files=files)
    else:
        await send_pages(interaction, embeds())


class ArbiterCog(commands.Cog):
    """A cog of the bot. It keeps the previews it has opened."""

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        self.previews: dict[int, ConfirmView] = {}
        """Open previews by message id. Tests expire them without waiting."""

    async def preview(
        self,
        interaction: Interaction,
        confirm: OnConfirm,
        *,
        content: str = NOT_STORED_YET,
        embeds: Sequence[discord.Embed] = (),
    ) -> None:
        """Replies with a preview under Confirm / Cancel. Only the caller may click, and
        Confirm runs `confirm`."""
        clock = guild_store(interaction).database.clock
        buttons = ConfirmView(interaction.user.id, confirm, clock)
        if embeds:
            await interaction.response.send_message(content=content, embeds=embeds, view=buttons)
        else:
            await interaction.response.send_message(content=content, view=buttons)
        buttons.arm(interaction)
        original = await interaction.original_response()
        self.previews[original.id] = buttons
