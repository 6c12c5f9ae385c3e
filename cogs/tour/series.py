"""`/series`: a knock-out round or a Finals match.

It shows the games, the match and series score, and what comes next with colours and time
control, by CCT-7 and CCT-8c to CCT-8e. The higher-ranked player chooses colours by CCT-8e. An
arbiter may award a series without play by CCT-9, after a preview and Confirm.
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, name
from bot.tour import replies as tour_replies
from bot.tour.series import awards, reads
from bot.tour.series import service as series
from cogs._common import ArbiterCog, guild_group
from cogs.tour._awards import Note, Reason, run_award


class Series(ArbiterCog):
    """Knock-out series."""

    group = guild_group("series", "Knock-out series: scores, next game, colours.")

    @group.command(name="show", description="A knock-out round: games, scores, what comes next.")
    @app_commands.describe(event="The event.", round="QF1 … SF2, F or 3rd (Finals: R1 A v B).")
    @app_commands.autocomplete(event=choose.events, round=choose.rounds)
    async def show(self, interaction: Interaction, event: str, round: str) -> None:
        """CCT-8d/8e: the next game with its colours and its CCT-7 time control."""
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
        store, actor = await store_and_actor(interaction)
        chosen = await series.choose_colour(store, actor, event, round, colour)
        await interaction.response.send_message(
            f"{name(chosen.contest)}: {name(chosen.chooser)} takes {colour} for the "
            f"{chosen.choice.value} (CCT-8e)."
        )

    @requires(ARBITER)
    @group.command(name="award", description="Award a knock-out round without play (arbiter).")
    @app_commands.describe(
        event="The event.",
        round="QF1 … SF2, F or 3rd.",
        winner="The player who is awarded the round.",
        reason="Why: withdrawal, no-show, illness or other (CCT-9).",
        note="A short note (needed for other; shown and audited).",
    )
    @app_commands.autocomplete(event=choose.events, round=choose.rounds)
    async def award(
        self,
        interaction: Interaction,
        event: str,
        round: str,
        winner: str,
        reason: Reason,
        note: Note | None = None,
    ) -> None:
        """CCT-9: a walkover, never invented games. The bracket follows on Confirm."""
        await run_award(
            self, interaction, awards.award_contest_series, event, round, winner, reason, note
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Series(bot))
