"""`/finals`: the CCT-8f Finals table, the Finals field and the arbiters' steps on it.

The table shows bonus points from the tour ranking at the Finals' start, match points 3/0 for
rapid and 2/1 for a tie-break, the total, and a flag on a tie for first. The CCT-3 field shows as
it forms. A qualified player may decline or withdraw before the draw, after a preview and
Confirm. The draw may be cancelled while no Finals game is played. An arbiter may award a Finals
match without play by CCT-9. Each of these shows a preview, then Confirm.
"""

from __future__ import annotations

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, HQ, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, name
from bot.rendering.tour.standings_embeds import finals_embeds
from bot.tour import replies as tour_replies
from bot.tour import views
from bot.tour.finals import awards, draw, field
from bot.tour.finals.reads import finals_card
from cogs._common import ArbiterCog, guild_group
from cogs.tour._awards import Note, Reason, run_award


class Finals(ArbiterCog):
    """The tour Finals."""

    group = guild_group(
        "finals", "The tour Finals: table with bonus points, declines, the draw's cancellation."
    )

    @group.command(name="standings", description="The Finals table: match points, bonus, total.")
    @app_commands.describe(event="The Finals.")
    @app_commands.autocomplete(event=choose.events)
    async def standings(self, interaction: Interaction, event: str) -> None:
        """CCT-8f."""
        card = await finals_card(guild_store(interaction), event)
        await send_pages(interaction, finals_embeds(views.finals(card.event, card.standings)))

    @requires(HQ)
    @group.command(
        name="decline", description="A qualified player declined the Finals; preview, Confirm (HQ)."
    )
    @app_commands.describe(
        event="The Finals.", player="The player who declined.", note="Why, or how they said so."
    )
    @app_commands.autocomplete(event=choose.events, player=choose.players)
    async def decline(
        self, interaction: Interaction, event: str, player: str, note: str | None = None
    ) -> None:
        """CCT-3: the place goes to the next in line.

        An Ambassador's place goes to the next Ambassador.
        """
        store, actor = await store_and_actor(interaction)
        plan = await field.decline(store, actor, event, player, note=note, confirm=False)

        async def confirm() -> str:
            stored = await field.decline(
                store,
                actor,
                plan.event.id,
                plan.player,
                note=note,
                confirm=True,
                previewed=plan.replaced_by,
            )
            return (
                f"Decline of **{name(stored.player)}** stored; "
                f"{tour_replies.declined_place(stored)}; it is announced."
            )

        await self.preview(
            interaction, confirm, embeds=as_embeds(tour_replies.decline_preview(plan))[:1]
        )

    @requires(HQ)
    @group.command(
        name="decline-undo", description="Withdraw a mistaken decline before the draw (HQ)."
    )
    @app_commands.describe(event="The Finals.", player="The player whose decline is withdrawn.")
    @app_commands.autocomplete(event=choose.events, player=choose.players)
    async def decline_undo(self, interaction: Interaction, event: str, player: str) -> None:
        """CCT-3: the player is offered their place again."""
        store, actor = await store_and_actor(interaction)
        undone = await field.withdraw_decline(store, actor, event, player)
        await interaction.response.send_message(
            f"The decline of **{name(undone.player)}** from {name(undone.event.name)} is "
            f"withdrawn: they are offered their place again ({undone.open_places} open)."
        )

    @requires(HQ)
    @group.command(
        name="cancel-draw",
        description="Cancel the Finals' draw while no game is played; preview, Confirm (HQ).",
    )
    @app_commands.describe(event="The Finals.")
    @app_commands.autocomplete(event=choose.events)
    async def cancel_draw(self, interaction: Interaction, event: str) -> None:
        """CCT-8f: so an earlier event can be corrected. `/event draw` draws them again."""
        store, actor = await store_and_actor(interaction)
        plan = await draw.cancel_draw(store, actor, event, confirm=False)

        async def confirm() -> str:
            stored = await draw.cancel_draw(
                store, actor, plan.event.id, confirm=True, previewed=plan.numbers
            )
            return tour_replies.cancel_draw_stored(stored)

        await self.preview(
            interaction, confirm, embeds=as_embeds(tour_replies.cancel_draw_preview(plan))[:1]
        )

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
        note: Note | None = None,
    ) -> None:
        """CCT-9 with CCT-8f: an awarded match scores 3/0, as a rapid win."""
        await run_award(
            self, interaction, awards.award_contest_finals, event, match, winner, reason, note
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Finals(bot))
