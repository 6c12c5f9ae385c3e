"""`/tour`: create a tour with the rules of the config by CCT-16, and show it.

It shows the CCT-6 standings, the CCT-3 qualification, the CCT-5 prizes, Ambassadors and member
links. It also writes the tour file out and reads one in.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import read_attachment, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import HQ, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.cards import as_embeds, name
from bot.rendering.tour.prizes_embeds import prizes_embeds
from bot.rendering.tour.qualification_embeds import qualification_embeds
from bot.rendering.tour.standings_csv import tour_standings_csv
from bot.rendering.tour.standings_embeds import tour_standings_embeds
from bot.rendering.tour.standings_image import tour_standings_png
from bot.tour import files, views
from bot.tour import replies as tour_replies
from bot.tour.tours import reads
from bot.tour.tours import service as tours
from cogs._common import ArbiterCog, TableFormat, as_file, guild_group, send_table


class Tours(ArbiterCog):
    """The Champions Chess Tour's tours."""

    group = guild_group("tour", "Tours: events, standings, qualification, prizes.")

    @requires(HQ)
    @group.command(name="create", description="Create a tour with the rules of the config (HQ).")
    @app_commands.describe(
        name="The tour's name.",
        regular_points="Regular tour points: prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 25; "
        "semi-final 10 (CCT-6).",
        major_points="Major tour points, written as regular_points (default: the config's, CCT-6).",
        scoring="Preliminary game scoring: 1/½/0 (default) or 3/1/0 (CCT-8a).",
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        regular_points: str | None = None,
        major_points: str | None = None,
        scoring: Literal["1/½/0", "3/1/0"] | None = None,
    ) -> None:
        """CCT-16: the `[rules.cct]` values frozen into the tour, the tables and scoring
        given here instead of the config's."""
        store, actor = await store_and_actor(interaction)
        record = await tours.create_tour(
            store,
            actor,
            self.bot.config,
            name,
            regular_points=regular_points,
            major_points=major_points,
            scoring=scoring,
        )
        await interaction.response.send_message(
            f"Tour **{_name(record.name)}** created (rules frozen, CCT-16)."
        )

    @group.command(name="show", description="A tour's events and their state.")
    @app_commands.describe(tour="The tour.")
    @app_commands.autocomplete(tour=choose.tours)
    async def show(self, interaction: Interaction, tour: str) -> None:
        """Anyone may read a tour."""
        card = await reads.tour_card(guild_store(interaction), tour)
        await send_pages(interaction, as_embeds(tour_replies.tour_card(card)))

    @group.command(name="standings", description="Tour points and ranking (CCT-6).")
    @app_commands.describe(
        tour="The tour.", after="As after this event.", format="embed (default) or csv."
    )
    @app_commands.autocomplete(tour=choose.tours, after=choose.events)
    async def standings(
        self,
        interaction: Interaction,
        tour: str,
        after: str | None = None,
        format: TableFormat = "embed",
    ) -> None:
        """CCT-6: points with the five criteria, shared ranks, play-off marks."""
        report = await reads.tour_standings(guild_store(interaction), tour, after)
        view = views.tour_standings(report)
        await send_table(
            interaction,
            format,
            "tour-standings",
            embeds=lambda: tour_standings_embeds(view),
            image=lambda: tour_standings_png(view),
            csv=lambda: tour_standings_csv(view),
        )

    @group.command(name="qualification", description="Who is qualified for an event, and why.")
    @app_commands.describe(tour="The tour.", event="The event.")
    @app_commands.autocomplete(tour=choose.tours, event=choose.events)
    async def qualification(self, interaction: Interaction, tour: str, event: str) -> None:
        """CCT-3: winners, the top of the tour standings, Ambassadors and places left.

        For the Finals it shows declines and whom their places went to, wildcards and places open.
        """
        record, listed, field = await reads.qualification(guild_store(interaction), tour, event)
        await send_pages(interaction, qualification_embeds(record.name, listed, field=field))

    @requires(HQ)
    @group.command(name="ambassador-add", description="Make a player a Tour Ambassador (HQ).")
    @app_commands.describe(tour="The tour.", player="The player.")
    @app_commands.autocomplete(tour=choose.tours, player=choose.players)
    async def ambassador_add(self, interaction: Interaction, tour: str, player: str) -> None:
        """CCT-3, CCT-5."""
        await self._ambassador(interaction, tour, player, True)

    @requires(HQ)
    @group.command(name="ambassador-remove", description="A player is no Ambassador (HQ).")
    @app_commands.describe(tour="The tour.", player="The player.")
    @app_commands.autocomplete(tour=choose.tours, player=choose.players)
    async def ambassador_remove(self, interaction: Interaction, tour: str, player: str) -> None:
        """CCT-3, CCT-5."""
        await self._ambassador(interaction, tour, player, False)

    async def _ambassador(
        self, interaction: Interaction, tour: str, player: str, ambassador: bool
    ) -> None:
        store, actor = await store_and_actor(interaction)
        changed = await tours.set_ambassador(store, actor, tour, player, ambassador)
        state = "is now a Tour Ambassador" if ambassador else "is no longer a Tour Ambassador"
        await interaction.response.send_message(
            f"**{_name(changed.player.name)}** {state} of {_name(changed.tour.name)}."
        )

    @group.command(name="prizes", description="Prize distribution and the Ambassador pool.")
    @app_commands.describe(tour="The tour.", event="Only this event.")
    @app_commands.autocomplete(tour=choose.tours, event=choose.events)
    async def prizes(self, interaction: Interaction, tour: str, event: str | None = None) -> None:
        """CCT-5: players in breach get none."""
        found = await reads.prizes(guild_store(interaction), tour, event)
        events, pool = views.prizes(found)
        await send_pages(interaction, prizes_embeds(tour, events, pool))

    @requires(HQ)
    @group.command(name="link", description="Link a member to a tour player (HQ).")
    @app_commands.describe(
        player="The player.",
        user="The member (leave out to set usernames only; `/tour unlink` removes a link).",
        tour="The tour (default: the newest with that player).",
        chesscom="The player's chess.com username.",
        lichess="The player's lichess username.",
    )
    @app_commands.autocomplete(player=choose.players, tour=choose.tours)
    async def link(
        self,
        interaction: Interaction,
        player: str,
        user: discord.Member | None = None,
        tour: str | None = None,
        chesscom: str | None = None,
        lichess: str | None = None,
    ) -> None:
        """A player's reports and confirmations go by this link."""
        store, actor = await store_and_actor(interaction)
        changed = await tours.link_player(
            store,
            actor,
            player,
            None if user is None else user.id,
            tour=tour,
            chesscom=chesscom,
            lichess=lichess,
        )
        who = f"<@{changed.player.user_id}>" if changed.player.user_id else "no member"
        await interaction.response.send_message(
            f"**{_name(changed.player.name)}** ({_name(changed.tour.name)}) is linked to {who}.",
            ephemeral=True,
        )

    @requires(HQ)
    @group.command(name="unlink", description="Remove a player's member or username; Confirm (HQ).")
    @app_commands.describe(
        player="The player.",
        tour="The tour (default: the newest with that player).",
        site="What to remove: the member (default), or the chess.com or lichess username.",
    )
    @app_commands.autocomplete(player=choose.players, tour=choose.tours)
    async def unlink(
        self,
        interaction: Interaction,
        player: str,
        tour: str | None = None,
        site: Literal["member", "chess.com", "lichess"] = "member",
    ) -> None:
        """A link is removed only when said, previewed and confirmed.

        `/tour link` never removes one.
        """
        store, actor = await store_and_actor(interaction)
        plan = await tours.unlink_player(store, actor, player, tour=tour, site=site, confirm=False)

        async def confirm() -> str:
            done = await tours.unlink_player(
                store,
                actor,
                plan.player.name,
                tour=plan.tour.id,
                site=plan.site,
                confirm=True,
                previewed=plan.value,
            )
            return f"{_unlinked(done)}: removed."

        content = f"{_unlinked(plan)}? Nothing is removed until you confirm (60 s)."
        await self.preview(interaction, confirm, content=content)

    @group.command(name="export", description="The tour as a tour file (JSON attachment).")
    @app_commands.describe(tour="The tour.")
    @app_commands.autocomplete(tour=choose.tours)
    async def export(self, interaction: Interaction, tour: str) -> None:
        """The tour file that docs/tour-file.md describes, for `arbiter tour` or another server."""
        filename, data = await files.export_tour_file(guild_store(interaction), tour)
        await interaction.response.send_message(
            f"Tour file `{filename}`.", file=as_file(data, filename)
        )

    @requires(HQ)
    @group.command(name="import", description="Import a tour file as a new tour (HQ).")
    @app_commands.describe(file="The tour file (.json).", name="The new tour's name.")
    async def import_(
        self, interaction: Interaction, file: discord.Attachment, name: str | None = None
    ) -> None:
        """Historic events entered by their known results in one unit of work."""
        store, actor = await store_and_actor(interaction)
        data = await read_attachment(file, "tour file", ".json")
        record = await files.import_tour_file(store, actor, self.bot.config, data, name)
        await interaction.response.send_message(f"Tour **{_name(record.name)}** imported.")


def _name(text: str) -> str:
    return name(text)


def _unlinked(plan: tours.PlayerUnlinked) -> str:
    """The link a preview or its Confirm removes, in words."""
    who = f"**{_name(plan.player.name)}** ({_name(plan.tour.name)})"
    if plan.site == "member":
        return f"{who} unlinked from <@{plan.value}>"
    return f"{who} without the {plan.site} username {_name(plan.value)}"


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Tours(bot))
