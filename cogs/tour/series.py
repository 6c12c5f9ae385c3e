"""`/series`: a knock-out round (or a Finals match) — its games, match and series score and
what comes next with colours and time control (CCT-7, CCT-8c-e) — and the higher-ranked
player's colour choices (CCT-8e)."""

from __future__ import annotations

from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.app import tour_autocomplete as choose
from bot.app.arbiter import ArbiterBot
from bot.app.command_input import actor_of
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.app.ui.pages import send_pages
from bot.rendering import tour_replies
from bot.rendering.tour_cards import as_embeds, name
from bot.tour.series import reads
from bot.tour.series import service as series


class Series(commands.Cog):
    """Knock-out series."""

    group = app_commands.Group(
        name="series", description="Knock-out series: scores, next game, colours.", guild_only=True
    )

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot

    @group.command(name="show", description="A knock-out round: games, scores, what comes next.")
    @app_commands.describe(event="The event.", round="QF1 … SF2, F or 3rd (Finals: R1 A v B).")
    @app_commands.autocomplete(event=choose.events, round=choose.rounds)
    async def show(self, interaction: Interaction, event: str, round: str) -> None:
        """CCT-8d/8e: the next game with its colours and time control (CCT-7)."""
        card = await reads.series_card(guild_store(interaction), event, round)
        await send_pages(interaction, as_embeds(tour_replies.series_card(card)))

    @group.command(name="choose", description="The higher-ranked player's colour choice.")
    @app_commands.describe(
        event="The event.",
        round="QF1 … SF2, F or 3rd.",
        colour="Your colour: in game 1 of match 1, the first blitz game or the Armageddon.",
    )
    @app_commands.autocomplete(event=choose.events, round=choose.rounds)
    async def choose_(
        self,
        interaction: Interaction,
        event: str,
        round: str,
        colour: Literal["white", "black"],
    ) -> None:
        """CCT-8e: whichever choice the series waits for."""
        store = guild_store(interaction)
        chosen = await series.choose_colour(
            store, await actor_of(store, interaction), event, round, colour
        )
        await interaction.response.send_message(
            f"{name(chosen.contest)}: {name(chosen.chooser)} takes {colour} for the "
            f"{chosen.choice.value} (CCT-8e)."
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Series(bot))
