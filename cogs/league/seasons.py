"""`/season`: create, schedule and show a season, and move season files in and out.

A season has divisions and clubs. Scheduling shows a preview, then Confirm. It also shows the
calendar as an embed and an .ics file, and the CL-8 proposal.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import Whole, parse_day, read_attachment, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import HQ, guild_store, requires
from bot.app.ui.motion_buttons import DivisionMakeupButton
from bot.app.ui.pages import send_pages
from bot.league.seasons import files as season_files
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.seasons.calendar import season_calendar_of
from bot.league.seasons.card import season_card
from bot.league.seasons.promotion import season_promotion
from bot.rendering.common.embeds import paged
from bot.rendering.common.text import halves
from bot.rendering.common.user_text import user_text
from bot.rendering.league.calendar_ics import CalendarMatch, season_calendar
from bot.rendering.league.embeds import calendar_embeds, schedule_preview, season_embed
from cogs._common import NOT_STORED_YET, ArbiterCog, as_file, guild_group
from core.league.promotion import DISQUALIFIED_PLACE, TIE_STANDS


class Seasons(ArbiterCog):
    """The league's seasons."""

    group = guild_group("season", "Create, schedule and show the league's seasons.")

    @requires(HQ)
    @group.command(name="create", description="Create a season with the rules of the config (HQ).")
    @app_commands.describe(
        name="The season's name.",
        first_round="The first round's date, YYYY-MM-DD.",
        round_days="Days between rounds (default 7).",
        cutoff="Divisions cut-off date, YYYY-MM-DD (CL-1: its standings decide next season's).",
    )
    async def create(
        self,
        interaction: Interaction,
        name: str,
        first_round: str,
        round_days: app_commands.Transform[int, Whole("round_days", 1, 366)] = 7,
        cutoff: str | None = None,
    ) -> None:
        """CL-1, CL-7: rules and divisions frozen from the config."""
        store, actor = await store_and_actor(interaction)
        today = store.database.clock().date()
        day = parse_day(first_round, "first round", today)
        last = None if cutoff is None else parse_day(cutoff, "cut-off date", today, past=True)
        event = await seasons.create_season(
            store, actor, self.bot.config.rules.cl, name, day, round_days, cutoff=last
        )
        names = ", ".join(user_text(d.name) for d in event.divisions) or "none yet"
        until = f"; divisions cut-off {last.isoformat()} (CL-1)" if last else ""
        await interaction.response.send_message(
            f"Season **{user_text(event.season.name)}** created: first round {day.isoformat()},"
            f" every {round_days} days{until}; divisions: {names}."
        )

    @requires(HQ)
    @group.command(name="cutoff", description="Set a season's divisions cut-off date (HQ).")
    @app_commands.describe(
        season="The season.",
        date="YYYY-MM-DD (CL-1: its standings decide next season's); leave out to clear it.",
    )
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def cutoff(self, interaction: Interaction, season: str, date: str | None = None) -> None:
        """CL-1: until the season closes, and not under an open make-up motion."""
        store, actor = await store_and_actor(interaction)
        today = store.database.clock().date()
        day = None if date is None else parse_day(date, "cut-off date", today, past=True)
        event = await seasons.set_cutoff(store, actor, season, day)
        shown = "cleared: the final standings decide" if day is None else day.isoformat()
        await interaction.response.send_message(
            f"Divisions cut-off of **{user_text(event.season.name)}**: {shown} (CL-1, CL-8)."
        )

    @requires(HQ)
    @group.command(name="withdraw", description="A club will not continue next season (HQ).")
    @app_commands.describe(season="The season.", club="The club.")
    @app_commands.autocomplete(season=autocomplete.seasons, club=autocomplete.clubs)
    async def withdraw(self, interaction: Interaction, season: str, club: str) -> None:
        """CL-8: its place is freed in the promotion proposal."""
        store, actor = await store_and_actor(interaction)
        event = await seasons.withdraw_club(store, actor, season, club)
        await interaction.response.send_message(
            f"**{user_text(event.club.name)}** ({user_text(event.division.name)}) will not"
            f" continue after {user_text(event.season.name)}: its place is freed (CL-8)."
        )

    @requires(HQ)
    @group.command(name="division-add", description="Add a division below the others (HQ).")
    @app_commands.describe(
        season="The season.", name="The division's name.", min_players="Its minimum players."
    )
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def division_add(
        self,
        interaction: Interaction,
        season: str,
        name: str,
        min_players: app_commands.Transform[int, Whole("min_players", 1, 1000)],
    ) -> None:
        """CL-7, CL-9..11."""
        store, actor = await store_and_actor(interaction)
        event = await seasons.add_division(store, actor, season, name, min_players)
        await interaction.response.send_message(
            f"Division **{user_text(event.division.name)}** added to"
            f" {user_text(event.season.name)}."
        )

    @requires(HQ)
    @group.command(name="club-add", description="Put an approved club in a division (HQ).")
    @app_commands.describe(season="The season.", division="The division.", club="The club.")
    @app_commands.autocomplete(
        season=autocomplete.seasons, division=autocomplete.divisions, club=autocomplete.clubs
    )
    async def club_add(
        self, interaction: Interaction, season: str, division: str, club: str
    ) -> None:
        """CL-12: up to the season's clubs per division."""
        store, actor = await store_and_actor(interaction)
        event = await seasons.add_club(store, actor, season, division, club)
        await interaction.response.send_message(
            f"**{user_text(event.club.name)}** plays in {user_text(event.division.name)} of"
            f" {user_text(event.season.name)} "
            f"({event.clubs_in_division} clubs)."
        )

    @requires(HQ)
    @group.command(
        name="club-remove", description="Take a club out of a season before scheduling (HQ)."
    )
    @app_commands.describe(season="The season.", division="The division.", club="The club.")
    @app_commands.autocomplete(
        season=autocomplete.seasons, division=autocomplete.divisions, club=autocomplete.clubs
    )
    async def club_remove(
        self, interaction: Interaction, season: str, division: str, club: str
    ) -> None:
        """Before the season is scheduled."""
        store, actor = await store_and_actor(interaction)
        event = await seasons.remove_club(store, actor, season, club)
        await interaction.response.send_message(
            f"**{user_text(event.club.name)}** no longer plays in {user_text(event.division.name)}"
            f" of {user_text(event.season.name)}."
        )

    @requires(HQ)
    @group.command(
        name="schedule", description="Pair and date every division; preview, then Confirm (HQ)."
    )
    @app_commands.describe(season="The season.")
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def schedule_(self, interaction: Interaction, season: str) -> None:
        """CL-12, CL-13: a preview with Confirm and Cancel for 60 s. Nothing is stored before."""
        store, actor = await store_and_actor(interaction)
        plan = await schedule.schedule_season(store, actor, season, confirm=False)
        pages = schedule_preview(
            plan.season.name,
            [
                (
                    r.number,
                    r.start,
                    [f"{f.id}: {f.home} – {f.away}" for f in r.fixtures]
                    + [f"no match: {club} (CL-12)" for club in r.idle],
                )
                for r in plan.rounds
            ],
            len(plan.matches),
        )

        async def confirm() -> str:
            stored = await schedule.schedule_season(store, actor, plan.season.id, confirm=True)
            if stored.unchanged:
                shown = user_text(stored.season.name)
                return f"{shown} was already scheduled so: nothing changed."
            shown = user_text(stored.season.name)
            return f"Scheduled **{shown}**: {len(stored.matches)} matches stored."

        note = NOT_STORED_YET
        if plan.unchanged:
            note = "These fixtures are stored already; confirming changes nothing."
        await self.preview(interaction, confirm, content=note, embeds=pages[:1])

    @group.command(name="show", description="A season's status, divisions and progress.")
    @app_commands.describe(season="The season.")
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def show(self, interaction: Interaction, season: str) -> None:
        """Anyone may read a season."""
        card = await season_card(guild_store(interaction), self.bot.standings, season)
        embed = season_embed(card)
        await interaction.response.send_message(embed=embed)

    @group.command(name="calendar", description="The next rounds, and the season as an .ics file.")
    @app_commands.describe(season="The season.", club="Only this club's matches.")
    @app_commands.autocomplete(season=autocomplete.seasons, club=autocomplete.clubs)
    async def calendar(
        self, interaction: Interaction, season: str, club: str | None = None
    ) -> None:
        """Starts and CL-15 deadlines with countdowns. The .ics holds every match."""
        store = guild_store(interaction)
        now = store.database.clock()
        found = await season_calendar_of(store, season, club, now)
        ics = season_calendar(
            found.season,
            [
                CalendarMatch(
                    m.key,
                    m.division,
                    m.round,
                    m.home,
                    m.away,
                    m.start,
                    m.deadline,
                    result=None
                    if m.score is None
                    else f"{halves(m.score[0])}–{halves(m.score[1])}",
                    cancelled=m.key in found.void,
                )
                for m in found.matches
            ],
            now,
            guild=store.guild_id,
            season_id=found.season_id,
        )
        file = as_file(ics, "calendar.ics")
        await send_pages(
            interaction, calendar_embeds(found.season, list(found.coming)), files=[file]
        )

    @group.command(name="promotion", description="The CL-8 promotion and relegation proposal.")
    @app_commands.describe(season="The season.")
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def promotion(self, interaction: Interaction, season: str) -> None:
        """CL-8: the proposal from the standings as at the cut-off, once it is past.

        Withdrawals are honoured and ties across a line are left to the directors. Only a
        director vote with `/vote` adopts it.
        """
        found = await season_promotion(guild_store(interaction), self.bot.standings, season)
        record, proposal = found.season, found.proposal
        when = (
            f"Standings as at the cut-off, {found.as_of.isoformat()} (CL-1)."
            if found.as_of
            else f"Standings as at now (the season is {found.phase.value})."
        )
        lines = [when]
        lines += [
            f"**{user_text(m.club)}**: {user_text(m.from_division)} → {user_text(m.to_division)}"
            for m in proposal.moves
        ] or ["No moves."]
        lines += [
            f"{', '.join(user_text(c) for c in t.clubs)} share rank {t.rank} of"
            f" {user_text(t.division)} across the line: **{TIE_STANDS}** (CL-17)."
            for t in proposal.ties
        ]
        if proposal.withdrawn:
            lines.append(f"Withdrawn: {', '.join(user_text(c) for c in proposal.withdrawn)}.")
        lines += [
            f"**{user_text(c)}**: {DISQUALIFIED_PLACE} (CL-DQ)." for c in proposal.disqualified
        ]
        if found.not_yet is not None:
            lines.append(f"Not put to the vote yet: the season {user_text(found.not_yet)}.")
        lines.append(
            "Adopted only by a passed director motion (`/vote open kind:division-makeup`)."
        )
        embeds = paged(f"{record.name}: CL-8 proposal", lines, "No moves.")
        if found.not_yet is not None:
            await send_pages(interaction, embeds)
            return
        # Visible to all; the button itself lets only directors open the make-up motion.
        button = discord.ui.View(timeout=None)
        button.add_item(DivisionMakeupButton(record.id))
        if len(embeds) == 1:
            await interaction.response.send_message(embed=embeds[0], view=button)
        else:
            await send_pages(interaction, embeds)
            await interaction.followup.send("Directors: open the make-up motion here.", view=button)

    @group.command(name="export", description="The season as a season file (JSON attachment).")
    @app_commands.describe(season="The season.")
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def export(self, interaction: Interaction, season: str) -> None:
        """The season file, for `arbiter season import` or another server."""
        name, data = await season_files.export_season_file(guild_store(interaction), season)
        await interaction.response.send_message(f"Season file `{name}`.", file=as_file(data, name))

    @requires(HQ)
    @group.command(name="import", description="Import a season file as a new season (HQ).")
    @app_commands.describe(file="The season file (.json).", name="The new season's name.")
    async def import_(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        name: str | None = None,
    ) -> None:
        """Validated by the season-file adapter, capped in size and stored in one unit of work."""
        store, actor = await store_and_actor(interaction)
        # No defer: reading (≤ 1 MB) and importing are local and quick, and a refusal after a
        # public defer could not be private.
        data = await read_attachment(file, "season file", ".json")
        record = await season_files.import_season_file(store, actor, data, name)
        await interaction.response.send_message(f"Season **{user_text(record.name)}** imported.")


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Seasons(bot))
