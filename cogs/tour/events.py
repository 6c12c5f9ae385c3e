"""`/event`: create an event in a tour and run it up to its knock-out.

It enters and takes out players and draws lots for CCT-8a pairing numbers, with a preview and
then Confirm. It shows the pairings, the CCT-8b standings, the CCT-8c to CCT-8e bracket, the
card and the calendar. It pins the event and starts its knock-out, again after a preview and
Confirm.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import Whole, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import HQ, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.rendering.tour.calendar_ics import event_calendar_ics
from bot.rendering.tour.cards import as_embeds, name
from bot.rendering.tour.crosstable_image import preliminary_crosstable_png
from bot.rendering.tour.standings_csv import preliminary_csv
from bot.rendering.tour.standings_image import preliminary_png
from bot.tour import event_reads as reads
from bot.tour import replies as tour_replies
from bot.tour import views
from bot.tour.events import pin
from bot.tour.events import service as events
from cogs._common import (
    ArbiterCog,
    TableFormat,
    as_file,
    channel_or_here,
    guild_group,
    send_table,
)
from core.tiebreaks import DeReading
from core.tour.ranking import EventType
from core.tour.rules import MAX_REMINDER_MINUTES


class Events(ArbiterCog):
    """The tour's events."""

    group = guild_group(
        "event", "Tour events: players, the draw, pairings, standings, the knock-out."
    )

    @requires(HQ)
    @group.command(name="create", description="Add an event to a tour (HQ).")
    @app_commands.describe(
        tour="The tour.",
        name="The event's name.",
        type="regular, major or finals.",
        start="Its first day, YYYY-MM-DD.",
        players="How many players (default: the tour's size for its type).",
        third_place_match="Play a 3rd-place match (default yes, CCT-8c).",
        tiebreaks="Direct encounter once (cct, default) or re-applied (fide2024), CCT-8b.",
        reminder_minutes="Post each round's pairings this long before it (default: the tour's).",
        points="Own tour points: prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 20; "
        "semi-final 10 (CCT-6).",
        scoring="Preliminary game scoring: 1/½/0 or 3/1/0 (default: the tour's, CCT-8a).",
    )
    @app_commands.autocomplete(tour=choose.tours)
    async def create(
        self,
        interaction: Interaction,
        tour: str,
        name: str,
        type: Literal["regular", "major", "finals"],
        start: str,
        players: app_commands.Transform[int, Whole("players", 3, 24)] | None = None,
        third_place_match: bool = True,
        tiebreaks: Literal["cct", "fide2024"] = "cct",
        reminder_minutes: app_commands.Transform[
            int, Whole("reminder_minutes", 1, MAX_REMINDER_MINUTES)
        ]
        | None = None,
        points: str | None = None,
        scoring: Literal["1/½/0", "3/1/0"] | None = None,
    ) -> None:
        """CCT-2, CCT-16: the event's values, frozen from its tour or given here."""
        store, actor = await store_and_actor(interaction)
        record = await events.create_event(
            store,
            actor,
            tour,
            name,
            EventType(type),
            start,
            players=players,
            third_place_match=third_place_match,
            tiebreaks=DeReading(tiebreaks),
            reminder_minutes=reminder_minutes,
            points=points,
            scoring=scoring,
        )
        await interaction.response.send_message(
            f"Event **{_n(record.name)}** ({record.type.value}, {record.size} players, from "
            f"{record.start.isoformat()}) added to the tour."
        )

    @requires(HQ)
    @group.command(name="player-add", description="Enter a player before the draw (HQ).")
    @app_commands.describe(
        event="The event.",
        player="The player's name.",
        user="The member who is this player.",
        wildcard="Finals only: the organiser's wildcard into an open place (CCT-3).",
    )
    @app_commands.autocomplete(event=choose.events, player=choose.players)
    async def player_add(
        self,
        interaction: Interaction,
        event: str,
        player: str,
        user: discord.Member | None = None,
        wildcard: bool = False,
    ) -> None:
        """A tour player of that name, new or known, linked to `user` if given.

        By CCT-3 the Finals take qualified players and wildcards into open places.
        """
        store, actor = await store_and_actor(interaction)
        changed = await events.add_player(
            store,
            actor,
            event,
            player,
            None if user is None else user.id,
            wildcard=wildcard,
        )
        how = " as a wildcard (CCT-3)" if wildcard else ""
        await interaction.response.send_message(
            f"**{_n(changed.player.name)}** plays in {_n(changed.event.name)}{how} "
            f"({changed.players}/{changed.event.size})."
        )

    @requires(HQ)
    @group.command(name="player-remove", description="Take a player out before the draw (HQ).")
    @app_commands.describe(event="The event.", player="The player.")
    @app_commands.autocomplete(event=choose.events, player=choose.players)
    async def player_remove(self, interaction: Interaction, event: str, player: str) -> None:
        """Before the draw only."""
        store, actor = await store_and_actor(interaction)
        changed = await events.remove_player(store, actor, event, player)
        await interaction.response.send_message(
            f"**{_n(changed.player.name)}** no longer plays in {_n(changed.event.name)} "
            f"({changed.players}/{changed.event.size})."
        )

    @requires(HQ)
    @group.command(name="draw", description="Draw lots for pairing numbers; preview, Confirm (HQ).")
    @app_commands.describe(
        event="The event.",
        seed="The draw's seed (default: a new random one, shown).",
        order="Numbers drawn elsewhere: the players in number order, comma-separated.",
    )
    @app_commands.autocomplete(event=choose.events)
    async def draw(
        self,
        interaction: Interaction,
        event: str,
        seed: str | None = None,
        order: str | None = None,
    ) -> None:
        """CCT-8a: a preview with Confirm and Cancel for 60 s. Confirm uses the same seed."""
        store, actor = await store_and_actor(interaction)
        plan = await events.draw_event(store, actor, event, seed=seed, order=order, confirm=False)

        async def confirm() -> str:
            stored = await events.draw_event(
                store,
                actor,
                plan.event.id,
                seed=plan.seed,
                order=order,
                confirm=True,
                previewed=plan.numbers,
            )
            rounds = max(p.round for p in stored.pairings)
            how = f"seed `{stored.seed}`" if stored.seed else "the numbers given"
            return (
                f"Draw of **{_n(stored.event.name)}** stored ({how}): {len(stored.pairings)} "
                f"games over {rounds} rounds; the pairings are announced."
            )

        await self.preview(
            interaction, confirm, embeds=as_embeds(tour_replies.draw_preview(plan))[:1]
        )

    @requires(HQ)
    @group.command(name="points", description="Change tour points or scoring before the draw (HQ).")
    @app_commands.describe(
        event="The event.",
        points="Tour points: prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 20; "
        "semi-final 10 (CCT-6).",
        scoring="Preliminary game scoring: 1/½/0 or 3/1/0 (CCT-8a).",
    )
    @app_commands.autocomplete(event=choose.events)
    async def points(
        self,
        interaction: Interaction,
        event: str,
        points: str | None = None,
        scoring: Literal["1/½/0", "3/1/0"] | None = None,
    ) -> None:
        """CCT-6/CCT-8a/CCT-16: a preview with Confirm and Cancel, until the draw only."""
        store, actor = await store_and_actor(interaction)
        plan = await events.set_event_points(
            store, actor, event, points=points, scoring=scoring, confirm=False
        )

        async def confirm() -> str:
            stored = await events.set_event_points(
                store,
                actor,
                plan.event.id,
                points=points,
                scoring=scoring,
                confirm=True,
                previewed=plan,
            )
            return f"Tour points of **{_n(stored.event.name)}** changed (CCT-6, CCT-8a)."

        await self.preview(
            interaction, confirm, embeds=as_embeds(tour_replies.points_preview(plan))[:1]
        )

    @group.command(name="pairings", description="An event's pairings and results.")
    @app_commands.describe(event="The event.", round="Only this round.")
    @app_commands.autocomplete(event=choose.events)
    async def pairings(
        self,
        interaction: Interaction,
        event: str,
        round: app_commands.Transform[int, Whole("round", 1, 30)] | None = None,
    ) -> None:
        """CCT-8a: Berger pairings with session starts."""
        read, lines, starts = await reads.event_pairings(guild_store(interaction), event, round)
        await send_pages(interaction, as_embeds(tour_replies.pairings(read, lines, starts)))

    @group.command(name="standings", description="Preliminary standings: DE, WIN, SB, KS.")
    @app_commands.describe(
        event="The event.", format="embed (default), image (table and crosstable) or csv."
    )
    @app_commands.autocomplete(event=choose.events)
    async def standings(
        self,
        interaction: Interaction,
        event: str,
        format: TableFormat = "embed",
    ) -> None:
        """CCT-8b."""
        read, rows = await reads.event_standings(guild_store(interaction), event)
        view = views.preliminary(read.loaded, rows)
        await send_table(
            interaction,
            format,
            "standings",
            embeds=lambda: views.preliminary_pages(read.loaded, rows),
            image=lambda: preliminary_png(view),
            csv=lambda: preliminary_csv(view),
            crosstable=lambda: preliminary_crosstable_png(view),
        )

    @group.command(name="bracket", description="The knock-out: series scores and next games.")
    @app_commands.describe(event="The event.")
    @app_commands.autocomplete(event=choose.events)
    async def bracket(self, interaction: Interaction, event: str) -> None:
        """CCT-8c-e: each round's score, the next game, its colours and time control."""
        found = await reads.event_bracket(guild_store(interaction), event)
        png = views.bracket_image(found.read.loaded, found.ties)
        file = as_file(png, "bracket.png")
        await send_pages(interaction, as_embeds(tour_replies.bracket(found)), files=[file])

    @group.command(name="show", description="An event: its state, players and draw.")
    @app_commands.describe(event="The event.")
    @app_commands.autocomplete(event=choose.events)
    async def show(self, interaction: Interaction, event: str) -> None:
        """Anyone may read an event."""
        read = await reads.read_event(guild_store(interaction), event)
        await send_pages(interaction, as_embeds(tour_replies.event_card(read)))

    @group.command(name="calendar", description="An event's days, and an .ics file.")
    @app_commands.describe(event="The event.")
    @app_commands.autocomplete(event=choose.events)
    async def calendar(self, interaction: Interaction, event: str) -> None:
        """Session starts as Discord timestamps. The .ics holds every day."""
        store = guild_store(interaction)
        read, days = await reads.event_calendar(store, event)
        record = read.loaded.record
        now = store.database.clock()
        ics = event_calendar_ics(
            read.tour, record.name, days, now, guild=store.guild_id, event_id=record.id
        )
        file = as_file(ics, "event.ics")
        await send_pages(interaction, as_embeds(tour_replies.calendar(read, days)), files=[file])

    @requires(HQ)
    @group.command(name="pin", description="Post the event's table, kept up to date (HQ).")
    @app_commands.describe(event="The event.", channel="Where (default: here).")
    @app_commands.autocomplete(event=choose.events)
    async def pin_(
        self,
        interaction: Interaction,
        event: str,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """The standings, then the bracket, edited after every change."""
        store, actor = await store_and_actor(interaction)
        where = channel_or_here(interaction, channel)
        pinned = await pin.pin_event(store, actor, event, where)
        await interaction.response.send_message(
            f"**{_n(pinned)}** is pinned in <#{where}>: the message follows every change.",
            ephemeral=True,
        )

    @requires(HQ)
    @group.command(name="start-knockout", description="Build the knock-out; preview, Confirm (HQ).")
    @app_commands.describe(
        event="The event.", lots="Seed of a drawing of lots for ties left after every criterion."
    )
    @app_commands.autocomplete(event=choose.events)
    async def start_knockout(
        self, interaction: Interaction, event: str, lots: str | None = None
    ) -> None:
        """CCT-8c: from the final preliminary order."""
        store, actor = await store_and_actor(interaction)
        plan = await events.start_knockout(store, actor, event, lots=lots, confirm=False)

        async def confirm() -> str:
            stored = await events.start_knockout(
                store, actor, plan.event.id, lots=lots, confirm=True, previewed=plan.seeds
            )
            ties = "; ".join(f"{t} {_n(a)} – {_n(b)}" for t, a, b in stored.quarter_finals)
            return f"Knock-out of **{_n(stored.event.name)}** started: {ties}."

        await self.preview(
            interaction, confirm, embeds=as_embeds(tour_replies.knockout_preview(plan))[:1]
        )


def _n(text: str) -> str:
    return name(text)


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Events(bot))
