"""`/setup`: show and set a server's league HQ, director and arbiter roles and its channels, and
turn its public web site on or off.

The channels are the announcements channel and the directors' channel for motions. Setting them
needs Manage Server, and the web site needs the league HQ role as well.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.guild_setup import GuildSetup, WebSetup
from bot.app.interaction import Interaction
from bot.app.permissions import MANAGE_SERVER, HoldsRole, guild_store, requires
from bot.kernel.actor import Role
from bot.kernel.errors import UserError
from bot.rendering.common.guild_settings import settings_embed
from bot.rendering.common.web_site import (
    site_off_preview,
    site_off_text,
    site_on_text,
    site_state_text,
)
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

    @requires(MANAGE_SERVER, HoldsRole(Role.HQ))
    @group.command(name="web", description="Show, turn on or turn off this server's public site.")
    @app_commands.describe(
        slug="The site's address here, /g/<slug>/: 3-40 lower-case letters, digits, dashes.",
        off="True turns the site off: its pages disappear at once.",
    )
    async def web(
        self, interaction: Interaction, slug: str | None = None, off: bool = False
    ) -> None:
        """Turns the site on under `slug` or renames it, turns it off after a confirmation, or
        says where it is."""
        setup = WebSetup(guild_store(interaction))
        settings = self.bot.config.web
        base_url = None if settings is None else settings.base_url
        served = settings is not None
        if off and slug is not None:
            raise UserError(
                "Give a slug to turn the site on, or off:True to turn it off, not both."
            )
        if slug is not None:
            chosen, before = await setup.publish(interaction.user.id, slug)
            text = site_on_text(chosen, before, base_url, served=served)
            await interaction.response.send_message(text, ephemeral=True)
            return
        current = await setup.slug()
        if not off or current is None:
            text = site_state_text(current, base_url, served=served)
            await interaction.response.send_message(text, ephemeral=True)
            return
        actor_id = interaction.user.id

        async def confirm() -> str:
            return site_off_text(await setup.withdraw(actor_id))

        await self.preview(interaction, confirm, content=site_off_preview(current, base_url))


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Setup(bot))
