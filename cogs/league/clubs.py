"""`/club`: register a chess.com club, HQ's approval or rejection, a club's card and the
list, its admins and its reminder channel, by CL-2 to CL-4.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import HQ, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.league.clubs import service
from bot.league.clubs.card import club_card
from bot.league.clubs.listing import club_list
from bot.rendering.common.embeds import paged
from bot.rendering.common.user_text import user_text
from bot.rendering.league.embeds import club_embed
from cogs._common import ArbiterCog, guild_group, thinking


class Clubs(ArbiterCog):
    """The league's clubs."""

    group = guild_group("club", "Register, approve and look up the league's clubs.")

    @group.command(
        name="register", description="Register a chess.com club (you are its first admin)."
    )
    @app_commands.describe(
        chesscom_club="The club's chess.com url-id or URL.",
        admin2="The second admin (CL-3).",
        admin3="An optional third admin.",
    )
    async def register(
        self,
        interaction: Interaction,
        chesscom_club: str,
        admin2: discord.Member,
        admin3: discord.Member | None = None,
    ) -> None:
        """CL-2..4: the club is pending until HQ decides.

        It defers first, then reads the chess.com profile.
        """
        store, actor = await store_and_actor(interaction)
        client = self.bot.chesscom_client()
        await interaction.response.defer(ephemeral=True, thinking=True)
        others = [admin2.id] + ([admin3.id] if admin3 else [])
        event = await service.register_club(store, client, actor, chesscom_club, others)
        admins = " ".join(f"<@{a}>" for a in event.admins)
        await interaction.followup.send(
            f"Club **{user_text(event.club.name)}** registered with admins {admins}: pending"
            " until the league HQ decides.",
            ephemeral=True,
        )

    @requires(HQ)
    @group.command(name="approve", description="Approve a pending club (league HQ).")
    @app_commands.describe(club="The club.")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def approve(self, interaction: Interaction, club: str) -> None:
        """CL-3: HQ approves a club that has its admins."""
        store, actor = await store_and_actor(interaction)
        event = await service.approve_club(store, actor, club)
        await interaction.response.send_message(
            f"Club **{user_text(event.club.name)}** is approved."
        )

    @requires(HQ)
    @group.command(name="reject", description="Reject a pending club, with a reason (league HQ).")
    @app_commands.describe(club="The club.", reason="Why (shown to everyone).")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def reject(self, interaction: Interaction, club: str, reason: str) -> None:
        """CL-2..4: HQ rejects a pending club."""
        store, actor = await store_and_actor(interaction)
        event = await service.reject_club(store, actor, club, reason)
        await interaction.response.send_message(
            f"Club **{user_text(event.club.name)}** is rejected: {user_text(event.reason or '')}"
        )

    @group.command(
        name="info", description="A club's admins, chess.com figures, division, forfeits."
    )
    @app_commands.describe(club="The club.")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def info(self, interaction: Interaction, club: str) -> None:
        """The club's card. Members and daily average are read from chess.com now."""
        store = guild_store(interaction)
        ready = thinking(interaction)  # an unknown club is refused privately before it
        card = await club_card(store, self.bot.standings, self.bot.chesscom, club, ready)
        await interaction.followup.send(embed=club_embed(card))

    @group.command(name="list", description="The league's clubs, by status.")
    @app_commands.describe(status="Only clubs of this status.")
    async def list_(
        self,
        interaction: Interaction,
        status: Literal["pending", "approved", "rejected", "excluded", "withdrawn"] | None = None,
    ) -> None:
        """Every club, or those of one status, paginated."""
        found = await club_list(guild_store(interaction), status)
        lines = [
            f"**{user_text(c.name)}** · {user_text(c.chesscom_id or '—')} · {c.status}"
            for c in found
        ]
        title = f"Clubs ({status})" if status else "Clubs"
        await send_pages(interaction, paged(title, lines, "No clubs."))

    @group.command(name="admin-add", description="Add an admin to your club.")
    @app_commands.describe(club="Your club.", user="The new admin.")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def admin_add(self, interaction: Interaction, club: str, user: discord.Member) -> None:
        """CL-3: a club admin adds another admin to their own club."""
        store, actor = await store_and_actor(interaction)
        event = await service.add_admin(store, actor, club, user.id)
        await interaction.response.send_message(
            f"{user.mention} is now an admin of **{user_text(event.club.name)}**.", ephemeral=True
        )

    @group.command(name="admin-remove", description="Remove an admin of your club (2 remain).")
    @app_commands.describe(club="Your club.", user="The admin to remove.")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def admin_remove(self, interaction: Interaction, club: str, user: discord.Member) -> None:
        """CL-3: a club keeps at least two admins."""
        store, actor = await store_and_actor(interaction)
        event = await service.remove_admin(store, actor, club, user.id)
        await interaction.response.send_message(
            f"{user.mention} is no longer an admin of **{user_text(event.club.name)}**.",
            ephemeral=True,
        )

    @group.command(name="channel", description="Where your club's reminders go.")
    @app_commands.describe(club="Your club.", channel="The channel (empty: announcements).")
    @app_commands.autocomplete(club=autocomplete.clubs)
    async def channel(
        self,
        interaction: Interaction,
        club: str,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """A club admin sets their club's reminder channel."""
        store, actor = await store_and_actor(interaction)
        event = await service.set_reminder_channel(
            store, actor, club, channel.id if channel else None
        )
        where = f"<#{event.channel_id}>" if event.channel_id else "the announcements channel"
        await interaction.response.send_message(
            f"Reminders of **{user_text(event.club.name)}** go to {where}.", ephemeral=True
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Clubs(bot))
