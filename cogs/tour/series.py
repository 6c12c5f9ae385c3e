"""`/series`: a knock-out round (or a Finals match) — its games, match and series score and
what comes next with colours and time control (CCT-7, CCT-8c-e) — the higher-ranked
player's colour choices (CCT-8e), and an arbiter's award without play (preview, then
Confirm; CCT-9)."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Awaitable, Callable
from typing import Literal

from discord import app_commands
from discord.ext import commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import actor_of
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.confirm import ConfirmView
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, name
from bot.tour import replies as tour_replies
from bot.tour.series import awards, reads
from bot.tour.series import service as series
from bot.tour.series.awards import AwardPlan

Reason = Literal["withdrawal", "no-show", "illness", "other"]
"""CCT-9: why a contest or game is awarded without play."""


async def run_award(
    previews: dict[int, ConfirmView],
    interaction: Interaction,
    award: Callable[..., Awaitable[AwardPlan]],
    clock: Callable[[], dt.datetime],
) -> None:
    """CCT-9: reply with an award's preview under Confirm / Cancel (only the caller may
    click); Confirm makes the award. `award(confirm=…)` is the use case, its options given."""
    plan = await award(confirm=False)

    async def confirm() -> str:
        return tour_replies.award_stored(await award(confirm=True))

    buttons = ConfirmView(interaction.user.id, confirm, clock)
    await interaction.response.send_message(
        content="Nothing is stored until you confirm (60 s).",
        embeds=as_embeds(tour_replies.award_preview(plan)),
        view=buttons,
    )
    buttons.arm(interaction)
    original = await interaction.original_response()
    previews[original.id] = buttons


class Series(commands.Cog):
    """Knock-out series."""

    group = app_commands.Group(
        name="series", description="Knock-out series: scores, next game, colours.", guild_only=True
    )

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        self.previews: dict[int, ConfirmView] = {}
        """Open previews by message id (tests expire them without waiting)."""

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
        note: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """CCT-9: a walkover, never invented games; the bracket follows on Confirm."""
        store = guild_store(interaction)
        actor = await actor_of(store, interaction)
        award = functools.partial(
            awards.award_contest_series, store, actor, event, round, winner, reason, note
        )
        await run_award(self.previews, interaction, award, store.database.clock)


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Series(bot))
