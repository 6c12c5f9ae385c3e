"""`/appeal`: a player lodges a fair-play appeal about a game, and an arbiter decides it.

By CCT-11 an appeal is refused after 23:59 in the appeals zone on the session's day. Anyone may
list an event's appeals.
"""

from __future__ import annotations

from typing import Literal

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import Whole, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, name, when
from bot.tour import replies as tour_replies
from bot.tour.appeals import reads
from bot.tour.appeals import service as appeals
from cogs._common import ArbiterCog, guild_group


class Appeals(ArbiterCog):
    """Fair-play appeals."""

    group = guild_group("appeal", "Fair-play appeals (CCT-11): lodge, list, decide.")

    @group.command(name="lodge", description="Lodge a fair-play appeal about a game (a player).")
    @app_commands.describe(event="The event.", game="The game.", text="Your appeal, in writing.")
    @app_commands.autocomplete(event=choose.events, game=choose.games)
    async def lodge(
        self,
        interaction: Interaction,
        event: str,
        game: str,
        text: app_commands.Range[str, 1, 1500],
    ) -> None:
        """CCT-11: by 23:59 in the appeals zone on the day of the game's session."""
        store, actor = await store_and_actor(interaction)
        lodged = await appeals.lodge_appeal(store, actor, event, game, text)
        await interaction.response.send_message(
            f"Appeal {lodged.id} about {name(lodged.game)} recorded at "
            f"{when(lodged.decision.lodged_at)} (deadline {when(lodged.decision.deadline)}).",
            ephemeral=True,
        )

    @group.command(name="list", description="An event's appeals.")
    @app_commands.describe(event="The event.")
    @app_commands.autocomplete(event=choose.events)
    async def list_(self, interaction: Interaction, event: str) -> None:
        """Anyone may read them."""
        record, found, players = await reads.appeal_list(guild_store(interaction), event)
        await send_pages(interaction, as_embeds(tour_replies.appeals(record, found, players)))

    @requires(ARBITER)
    @group.command(name="decide", description="Decide an appeal (arbiter).")
    @app_commands.describe(appeal="The appeal.", decision="upheld or dismissed.", reason="Why.")
    @app_commands.autocomplete(appeal=choose.appeals)
    async def decide(
        self,
        interaction: Interaction,
        appeal: app_commands.Transform[int, Whole("appeal")],
        decision: Literal["upheld", "dismissed"],
        reason: app_commands.Range[str, 1, 500],
    ) -> None:
        """CCT-11: recorded and announced."""
        store, actor = await store_and_actor(interaction)
        decided = await appeals.decide(store, actor, appeal, decision, reason)
        await interaction.response.send_message(f"Appeal {decided.id}: {decided.status}.")


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Appeals(bot))
