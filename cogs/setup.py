"""`/setup`: show and set a server's league HQ, director and arbiter roles and its channels.

The channels are the announcements channel and the directors' channel for motions. Setting them
needs Manage Server.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.guild_setup import GuildSetup
from bot.app.interaction import Interaction
from bot.app.permissions import MANAGE_SERVER, guild_store, requires
from bot.kernel.actor import Role
from bot.kernel.errors import UserError
from bot.rendering.common.guild_settings import settings_embed
from cogs._common import ArbiterCog


class Setup(ArbiterCog):
    """Server set-up for Arbiter."""

    group = app_commands.Group(
        name="setup",
        description="Show or change Arbiter's roles and channel on this server.",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @requires(MANAGE_SERVER)
    @group.command(name="show", description="Show the roles and channel Arbiter uses here.")
    async def show(self, interaction: Interaction) -> None:
        """Reply with the current settings."""
        settings, failures = await GuildSetup(guild_store(interaction)).show()
        await interaction.response.send_message(
            embed=settings_embed(settings, failures=failures), ephemeral=True
        )

    @requires(MANAGE_SERVER)
    @group.command(name="set", description="Set Arbiter's roles or announcements channel.")
    @app_commands.describe(
        hq_role="Role of the league HQ (approves clubs, runs seasons).",
        director_role="Role of the directors (vote on discretionary decisions).",
        arbiter_role="Role of the arbiters (record incidents and results).",
        announcements="Channel where Arbiter posts results and decisions.",
        directors_channel="Channel for director motions (default: the announcements channel).",
        arbiters_channel="Channel for disputed tour results (default: the announcements channel).",
    )
    async def set_(
        self,
        interaction: Interaction,
        hq_role: discord.Role | None = None,
        director_role: discord.Role | None = None,
        arbiter_role: discord.Role | None = None,
        announcements: discord.TextChannel | None = None,
        directors_channel: discord.TextChannel | None = None,
        arbiters_channel: discord.TextChannel | None = None,
    ) -> None:
        """Stores the given settings, leaving the others unchanged, and replies with the result."""
        for role, label, holders in (
            (hq_role, Role.HQ.value, "league HQ members"),
            (director_role, Role.DIRECTOR.value, "directors"),
            (arbiter_role, Role.ARBITER.value, "arbiters"),
        ):
            if role is not None and role.is_default():
                raise UserError(
                    f"@everyone cannot be the {label} role: choose a role only {holders} hold."
                )
        options = {
            "hq_role_id": hq_role,
            "director_role_id": director_role,
            "arbiter_role_id": arbiter_role,
            "announcements_channel_id": announcements,
            "directors_channel_id": directors_channel,
            "arbiters_channel_id": arbiters_channel,
        }
        changes = {key: value.id for key, value in options.items() if value is not None}
        settings = await GuildSetup(guild_store(interaction)).configure(
            interaction.user.id, changes
        )
        await interaction.response.send_message(
            embed=settings_embed(settings, title="Arbiter set-up saved"), ephemeral=True
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Setup(bot))
