"""`/finals`: the Finals table (CCT-8f) — bonus points from the tour ranking at the Finals'
start, match points 3/0 (rapid) and 2/1 (tie-break), total, a tie for first flagged — and an
arbiter's award of a Finals match without play (preview, then Confirm; CCT-9)."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.app import tour_autocomplete as choose
from bot.app.arbiter import ArbiterBot
from bot.app.command_input import actor_of
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.confirm import ConfirmView
from bot.app.ui.pages import send_pages
from bot.rendering import tour_replies
from bot.rendering.tour_standings_embeds import finals_embeds
from bot.tour import views
from bot.tour.finals import awards
from bot.tour.finals.reads import finals_card
from cogs.tour.series import Reason, award_preview


class Finals(commands.Cog):
    """The tour Finals."""

    group = app_commands.Group(
        name="finals", description="The tour Finals: table with bonus points.", guild_only=True
    )

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot
        self.previews: dict[int, ConfirmView] = {}
        """Open previews by message id (tests expire them without waiting)."""

    @group.command(name="standings", description="The Finals table: match points, bonus, total.")
    @app_commands.describe(event="The Finals.")
    @app_commands.autocomplete(event=choose.events)
    async def standings(self, interaction: Interaction, event: str) -> None:
        """CCT-8f."""
        card = await finals_card(guild_store(interaction), event)
        await send_pages(interaction, finals_embeds(views.finals(card.event, card.standings)))

    @requires(ARBITER)
    @group.command(name="award", description="Award a Finals match without play (arbiter).")
    @app_commands.describe(
        event="The Finals.",
        match="The match, as R1 A v B.",
        winner="The player who is awarded the match.",
        reason="Why: withdrawal, no-show, illness or other (CCT-9).",
        note="A short note (needed for other; shown and audited).",
    )
    @app_commands.autocomplete(event=choose.events, match=choose.rounds)
    async def award(
        self,
        interaction: Interaction,
        event: str,
        match: str,
        winner: str,
        reason: Reason,
        note: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """CCT-9 with CCT-8f: an awarded match scores 3/0, as a rapid win."""
        store = guild_store(interaction)
        actor = await actor_of(store, interaction)
        plan = await awards.award_contest_finals(
            store, actor, event, match, winner, reason, note, confirm=False
        )

        async def confirm() -> str:
            stored = await awards.award_contest_finals(
                store, actor, event, match, winner, reason, note, confirm=True
            )
            return tour_replies.award_stored(stored)

        await award_preview(
            self.previews,
            interaction,
            confirm,
            tour_replies.award_preview(plan),
            store.database.clock,
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Finals(bot))
