"""`/finals`: the Finals table (CCT-8f) — bonus points from the tour ranking at the Finals'
start, match points 3/0 (rapid) and 2/1 (tie-break), total, a tie for first flagged."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.app import tour_autocomplete as choose
from bot.app.arbiter import ArbiterBot
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.app.ui.pages import send_pages
from bot.rendering.tour_standings_embeds import finals_embeds
from bot.tour import views
from bot.tour.finals.reads import finals_card


class Finals(commands.Cog):
    """The tour Finals."""

    group = app_commands.Group(
        name="finals", description="The tour Finals: table with bonus points.", guild_only=True
    )

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot

    @group.command(name="standings", description="The Finals table: match points, bonus, total.")
    @app_commands.describe(event="The Finals.")
    @app_commands.autocomplete(event=choose.events)
    async def standings(self, interaction: Interaction, event: str) -> None:
        """CCT-8f."""
        card = await finals_card(guild_store(interaction), event)
        await send_pages(interaction, finals_embeds(views.finals(card.event, card.standings)))


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Finals(bot))
