"""Previous and Next buttons over a list of embeds.

Only the member who asked may turn the pages. The buttons stop answering after `timeout` seconds,
and the message stays as it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord

from bot.app.interaction import Interaction
from bot.app.tree import ArbiterView

TIMEOUT = 300.0


class PageView(ArbiterView):
    """Turns the pages of `embeds` in place. The footer says `Page n/N`."""

    def __init__(self, embeds: Sequence[discord.Embed], owner_id: int) -> None:
        super().__init__(timeout=None)
        if not embeds:
            raise ValueError("a paginated reply needs at least one page")
        self.embeds = list(embeds)
        self.owner_id = owner_id
        self.page = 0
        for number, embed in enumerate(self.embeds, start=1):
            footer = embed.footer.text
            label = f"Page {number}/{len(self.embeds)}"
            embed.set_footer(text=f"{footer} · {label}" if footer else label)
        self._sync()
        # A timer, not a task: the buttons stop answering after TIMEOUT (memory is freed).
        asyncio.get_running_loop().call_later(TIMEOUT, self.stop)

    def _sync(self) -> None:
        self.previous.disabled = self.page == 0
        self.next.disabled = self.page == len(self.embeds) - 1

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Only the member who asked turns the pages. Others get a private note."""
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(
            "These pages belong to whoever asked: run the command yourself.", ephemeral=True
        )
        return False

    async def _show(self, interaction: Interaction, page: int) -> None:
        self.page = max(0, min(page, len(self.embeds) - 1))
        self._sync()
        await interaction.response.edit_message(embed=self.embeds[self.page], view=self)

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: Interaction, _: discord.ui.Button[PageView]) -> None:
        """One page back."""
        await self._show(interaction, self.page - 1)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary)
    async def next(self, interaction: Interaction, _: discord.ui.Button[PageView]) -> None:
        """One page on."""
        await self._show(interaction, self.page + 1)


async def send_pages(
    interaction: Interaction,
    embeds: Sequence[discord.Embed],
    *,
    ephemeral: bool = False,
    files: Sequence[discord.File] = (),
) -> None:
    """Replies with the first page and, when there are more, Previous and Next buttons.

    It sends the first reply, or a follow-up after a defer.
    """
    view = PageView(embeds, interaction.user.id) if len(embeds) > 1 else discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.followup.send(
            embed=embeds[0], ephemeral=ephemeral, files=list(files), view=view
        )
    else:
        await interaction.response.send_message(
            embed=embeds[0], ephemeral=ephemeral, files=list(files), view=view
        )
