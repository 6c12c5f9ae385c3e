"""`/incident`: an arbiter records a CCT-10 disconnection, and anyone lists an event's incidents.

The outcome of a disconnection is computed, applied and announced.
"""

from __future__ import annotations

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import Whole, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, incident_notice
from bot.tour import replies as tour_replies
from bot.tour.incidents import reads
from bot.tour.incidents import service as incidents
from cogs._common import ArbiterCog, guild_group

OFFLINE_SECONDS = Whole("offline_seconds", 0, 3600)
"""CCT-10: seconds a player was offline, at most an hour."""


class Incidents(ArbiterCog):
    """Disconnections during tour games."""

    group = guild_group("incident", "Disconnections (CCT-10): record, list.")

    @requires(ARBITER)
    @group.command(name="disconnection", description="Record a disconnection (arbiter).")
    @app_commands.describe(
        event="The event.",
        game="The game being played.",
        player="The player who disconnected.",
        clock_seconds="Seconds on their clock when they dropped.",
        reconnected_within_30s="They reconnected within the window.",
        backup_connection="They had the required backup connection.",
        offline_seconds="How long they were offline, if they reconnected.",
    )
    @app_commands.autocomplete(event=choose.events, game=choose.games, player=choose.players)
    async def disconnection(
        self,
        interaction: Interaction,
        event: str,
        game: str,
        player: str,
        clock_seconds: app_commands.Transform[int, Whole("clock_seconds", 0, 14400)],
        reconnected_within_30s: bool,
        backup_connection: bool,
        offline_seconds: app_commands.Transform[int, OFFLINE_SECONDS] | None = None,
    ) -> None:
        """CCT-10: continue, paused with 30 s off, or lost."""
        store, actor = await store_and_actor(interaction)
        ruled = await incidents.record_disconnection(
            store,
            actor,
            event,
            game,
            player,
            clock_seconds,
            reconnected_within_30s,
            backup_connection,
            offline_seconds=offline_seconds,
        )
        await interaction.response.send_message(
            incident_notice(ruled.event, ruled.game, ruled.player, ruled.ruling, ruled.result)
        )

    @group.command(name="list", description="An event's disconnection incidents.")
    @app_commands.describe(event="The event.")
    @app_commands.autocomplete(event=choose.events)
    async def list_(self, interaction: Interaction, event: str) -> None:
        """Anyone may read them."""
        record, found, players = await reads.incident_list(guild_store(interaction), event)
        await send_pages(interaction, as_embeds(tour_replies.incidents(record, found, players)))


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Incidents(bot))
