"""`/help`: the commands the caller may use here, with what each does."""

from __future__ import annotations

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.interaction import Interaction
from bot.app.permissions import can_use
from bot.rendering.common.help import help_embeds
from cogs._common import ArbiterCog


class Help(ArbiterCog):
    """The command list, filtered by what the caller may use."""

    @app_commands.command(name="help", description="List the Arbiter commands you can use here.")
    async def help(self, interaction: Interaction) -> None:
        """Replies privately with the commands whose checks the caller passes."""
        usable = [
            command
            for command in self.bot.tree.walk_commands()
            if isinstance(command, app_commands.Command) and await can_use(interaction, command)
        ]
        first, *rest = help_embeds(usable)
        await interaction.response.send_message(embed=first, ephemeral=True)
        for embed in rest:  # one embed per message: each stays within 6000 characters
            await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Help(bot))
