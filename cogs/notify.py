"""`/notify`: a member shows or chooses which direct messages Arbiter sends them on this server.

Each choice is the member's own, kept per server. Running it also clears the mark left when
Discord refused their last direct message, so direct messages are tried again.
"""

from __future__ import annotations

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.kernel.errors import UserError
from bot.kernel.notifications import Kind
from bot.notifications.choices import ALL, NotificationChoices
from bot.rendering.common.notifications import change_text, settings_embed
from cogs._common import ArbiterCog

IN_THE_SERVER = "Use /notify in the server: your choices of direct messages are kept per server."


class Notify(ArbiterCog):
    """A member's choices of direct messages."""

    @app_commands.command(
        name="notify", description="Show or choose the direct messages Arbiter sends you here."
    )
    @app_commands.guild_only()
    @app_commands.describe(
        kind="The kind of direct message, or all (leave out to see your settings).",
        on="True to get it by direct message, False to stop.",
    )
    @app_commands.choices(
        kind=[app_commands.Choice(name=k.key, value=k.key) for k in Kind]
        + [app_commands.Choice(name=ALL, value=ALL)]
    )
    async def notify(
        self, interaction: Interaction, kind: str | None = None, on: bool | None = None
    ) -> None:
        """Replies privately with the caller's settings, or turns a kind on or off."""
        if interaction.guild_id is None:
            raise UserError(IN_THE_SERVER)
        choices = NotificationChoices(guild_store(interaction))
        user_id = interaction.user.id
        if kind is None and on is None:
            settings = await choices.show(user_id)
            embed = settings_embed(settings.kinds, reopened=settings.reopened)
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        if kind is None:
            raise UserError("Name the kind to turn on or off, or all, with kind:.")
        if on is None:
            raise UserError(
                "Say on:True to get it by direct message or on:False to stop, or give no option "
                "to see your settings."
            )
        change = await choices.choose(user_id, kind, on)
        text = change_text(change.kinds, on=on, changed=change.changed, reopened=change.reopened)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Notify(bot))
