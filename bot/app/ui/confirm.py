"""Confirm and Cancel buttons under a preview.

Only the member who asked may click. Nothing happens until Confirm, and after `timeout` seconds the
buttons are disabled and nothing is stored. A Confirm that fails, refused or unexpectedly, leaves
the public preview saying only "nothing was stored" and answers the clicker privately through the
tree's error handler.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.app.interaction import Interaction
from bot.app.tree import ArbiterView, answer_error

TIMEOUT = 60.0
"""Seconds a preview waits for Confirm."""
EXPIRED = "This preview expired after 60 s: nothing was stored. Run the command again."
CANCELLED = "Cancelled: nothing was stored."
FAILED = "Not stored: the confirmation was refused (the reason went to whoever confirmed)."

OnConfirm = Callable[[], Awaitable[str]]
"""What Confirm does. It returns the line that replaces the preview's text."""


class ConfirmView(ArbiterView):
    """Confirm runs `on_confirm` once, while Cancel or the timeout store nothing.

    The deadline is read from `clock`, the database's, so a late click is refused even before the
    timer fires.
    """

    def __init__(
        self,
        owner_id: int,
        on_confirm: OnConfirm,
        clock: Callable[[], dt.datetime],
        timeout: float = TIMEOUT,
    ) -> None:
        super().__init__(timeout=None)  # our own timer: see `arm`
        self.owner_id = owner_id
        self.on_confirm = on_confirm
        self.clock = clock
        self.deadline = clock() + dt.timedelta(seconds=timeout)
        self.timeout_seconds = timeout
        self.interaction: Interaction | None = None
        self.outcome: str | None = None  # "confirmed", "cancelled", "expired"

    def arm(self, interaction: Interaction) -> None:
        """Remembers the preview's interaction, to edit it on expiry, and starts the timer.

        The timer is a loop timer, not a task, so nothing runs until it falls due.
        """
        self.interaction = interaction
        loop = asyncio.get_running_loop()
        loop.call_later(self.timeout_seconds, lambda: loop.create_task(self.expire()))

    def _close(self) -> None:
        """Disables the buttons.

        The view keeps listening until the timer's `expire`, so a second click that raced the edit,
        such as a double click, still gets an answer.
        """
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True

    async def _already(self, interaction: Interaction) -> bool:
        """A click after Confirm or Cancel: say so privately, change nothing."""
        if self.outcome is None or self.outcome == "expired":
            return False
        await interaction.response.send_message(
            f"This preview was {self.outcome} already: nothing more to do.", ephemeral=True
        )
        return True

    async def expire(self) -> None:
        """The timeout disables the buttons and says once that nothing was stored."""
        self.stop()
        if self.outcome is not None:
            return
        self.outcome = "expired"
        self._close()
        if self.interaction is not None:
            await self.interaction.edit_original_response(content=EXPIRED, view=self)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Only the member who asked may click."""
        if interaction.user.id == self.owner_id:
            return True
        await interaction.response.send_message(
            "Only the member who asked for this preview can confirm or cancel it.",
            ephemeral=True,
        )
        return False

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(self, interaction: Interaction, _: discord.ui.Button[ConfirmView]) -> None:
        """Stores what the preview shows. It is refused after the deadline."""
        if await self._already(interaction):
            return
        if self.outcome is not None or self.clock() >= self.deadline:
            self.outcome = self.outcome or "expired"
            self._close()
            await interaction.response.edit_message(content=EXPIRED, view=self)
            return
        self.outcome = "confirmed"
        self._close()
        try:
            line = await self.on_confirm()
        except Exception as error:
            await interaction.response.edit_message(content=FAILED, view=self)
            await answer_error(interaction, error)
            return
        await interaction.response.edit_message(content=line, view=self)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, _: discord.ui.Button[ConfirmView]) -> None:
        """Store nothing."""
        if await self._already(interaction):
            return
        self.outcome = self.outcome or "cancelled"
        self._close()
        await interaction.response.edit_message(content=CANCELLED, view=self)
