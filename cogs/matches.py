"""`/match`: list and show matches, a club's challenge and its acceptance (CL-15), a result
imported from chess.com now or entered by an arbiter from a boards CSV, a director's
reschedule. After a result the reply shows the score, the adjusted boards and new ranks."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete
from bot.arbiter import ArbiterBot
from bot.chesscom.client import ChessComClient
from bot.command_input import actor_of, parse_instant, read_boards
from bot.match_lines import board_lines, match_line
from bot.permissions import guild_store, is_arbiter, is_director
from bot.rendering.division_view import rank_text
from bot.rendering.escape import user_text
from bot.rendering.league_embeds import (
    MatchLine,
    countdown,
    match_embed,
    match_list,
    result_embed,
    when,
)
from bot.services import matches as service
from bot.services import results
from bot.services.match_jobs import deadline_of
from bot.services.references import find_club, find_match, find_season
from bot.ui.pages import send_pages


class Matches(commands.Cog):
    """The league's matches."""

    group = app_commands.Group(
        name="match", description="Matches: challenges, results, reschedules.", guild_only=True
    )

    def __init__(self, bot: ArbiterBot) -> None:
        self.bot = bot

    @group.command(name="list", description="A season's matches (of a club, a round, or yours).")
    @app_commands.describe(
        season="The season.",
        club="Only this club's.",
        round="Only this round.",
        mine="Only your clubs'.",
    )
    @app_commands.autocomplete(season=autocomplete.seasons, club=autocomplete.clubs)
    async def list_(
        self,
        interaction: discord.Interaction,
        season: str,
        club: str | None = None,
        round: app_commands.Range[int, 1, 100] | None = None,
        mine: bool = False,
    ) -> None:
        """Paginated, in start order."""
        store = guild_store(interaction)
        async with store.read() as view:
            record = await find_season(view.seasons, season)
            only = None if club is None else (await find_club(view.clubs, club)).id
            clubs = {c.id: c.name for c in await view.clubs.all()}
            divisions = {d.id: d.name for d in await view.seasons.divisions(record.id)}
            boards = await view.matches.boards_of_season(record.id)
            yours: set[int] = set()
            if mine:
                for candidate in clubs:
                    if await view.club_admins.is_admin(candidate, interaction.user.id):
                        yours.add(candidate)
            found = [
                m
                for m in await view.matches.of_season(record.id)
                if (only is None or only in (m.home_club_id, m.away_club_id))
                and (round is None or m.round == round)
                and (not mine or yours & {m.home_club_id, m.away_club_id})
            ]
        notice = record.rules.challenge_deadline_hours
        lines = []
        for m in sorted(found, key=lambda m: (m.start, m.key)):
            played = boards.get(m.id)
            score = (
                (sum(b.home_half for b in played), sum(b.away_half for b in played))
                if played
                else None
            )
            lines.append(
                MatchLine(
                    m.id,
                    record.name,
                    divisions[m.division_id],
                    m.key,
                    m.round,
                    clubs[m.home_club_id],
                    clubs[m.away_club_id],
                    m.start,
                    deadline_of(m.start, notice),
                    m.finished_at is not None,
                    score,
                    "",
                )
            )
        await send_pages(interaction, match_list(f"{user_text(record.name)}: matches", lines))

    @group.command(
        name="show", description="A match: start, deadline countdown, challenge, boards."
    )
    @app_commands.describe(match="The match.", season="Refuse a match of another season.")
    @app_commands.autocomplete(match=autocomplete.matches)
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def show(
        self, interaction: discord.Interaction, match: int, season: str | None = None
    ) -> None:
        """Anyone may read a match."""
        store = guild_store(interaction)
        async with store.read() as view:
            scope = None if season is None else await find_season(view.seasons, season)
            record = await find_match(view.matches, match, scope)
            boards = await view.matches.boards(record.id)
            season_record = await find_season(view.seasons, record.season_id)
        line = await match_line(store, record)
        report = await self.bot.standings.report(store, season_record, now=store.database.clock())
        rows = board_lines(boards, report.adjusted_players)
        # SURFACE: /match show lists the match's forfeits (CL-15, CL-5/6/20, a director's).
        forfeits = [f"{f.club} ({f.rule})" for f in report.forfeits if f.match == record.key]
        await send_pages(interaction, match_embed(line, rows, forfeits))

    @group.command(name="challenge", description="Your club issued the chess.com challenge.")
    @app_commands.describe(match="The match.", chesscom_match="The chess.com match id or URL.")
    @app_commands.autocomplete(match=autocomplete.matches)
    async def challenge(
        self, interaction: discord.Interaction, match: int, chesscom_match: str
    ) -> None:
        """CL-15: declared by an admin of a club of the match."""
        store = guild_store(interaction)
        event = await service.record_challenge_issued(
            store, await actor_of(store, interaction), match, chesscom_match
        )
        line = await match_line(store, event.match)
        await interaction.response.send_message(
            f"Challenge of match #{line.id} ({user_text(line.home)} – {user_text(line.away)})"
            f" recorded; it must be accepted before {countdown(line.deadline)}."
        )

    @group.command(name="accept", description="Your club accepted the other club's challenge.")
    @app_commands.describe(match="The match.")
    @app_commands.autocomplete(match=autocomplete.matches)
    async def accept(self, interaction: discord.Interaction, match: int) -> None:
        """CL-15: declared by an admin of the club that did not issue it."""
        store = guild_store(interaction)
        event = await service.record_challenge_accepted(
            store, await actor_of(store, interaction), match
        )
        line = await match_line(store, event.match)
        await interaction.response.send_message(
            f"Challenge of match #{line.id} ({user_text(line.home)} – {user_text(line.away)})"
            " accepted."
        )

    @group.command(name="report", description="Import the finished match from chess.com now.")
    @app_commands.describe(
        match="The match.", chesscom_match="The chess.com match (if not linked)."
    )
    @app_commands.autocomplete(match=autocomplete.matches)
    async def report(
        self, interaction: discord.Interaction, match: int, chesscom_match: str | None = None
    ) -> None:
        """CL-14, CL-19: deferred first (chess.com may be slow)."""
        store = guild_store(interaction)
        actor = await actor_of(store, interaction)
        await results.authorise_report(store, actor, match)  # a refusal stays private
        await interaction.response.defer(thinking=True)
        async with ChessComClient(self.bot.config.chesscom) as client:
            event = await results.import_chesscom_result(
                store, client, actor, match, chesscom_match
            )
        await interaction.followup.send(embed=await self._result(store, event.match))

    @group.command(name="result", description="Enter a match's boards from a CSV (arbiter).")
    @app_commands.describe(
        match="The match.", file="board,home_player,away_player,home_points,away_points"
    )
    @app_commands.autocomplete(match=autocomplete.matches)
    @is_arbiter()
    async def result(
        self, interaction: discord.Interaction, match: int, file: discord.Attachment
    ) -> None:
        """CL-14: the manual fallback; a bad line is named."""
        store = guild_store(interaction)
        actor = await actor_of(store, interaction)
        # No defer: nothing here calls chess.com, and a refusal (a bad line) after a public
        # defer could not be private.
        rows = await read_boards(file)
        event = await results.enter_manual_result(store, actor, match, rows)
        await interaction.response.send_message(embed=await self._result(store, event.match))

    async def _result(self, store: Any, match: Any) -> discord.Embed:
        """The score, how it counts (CL-18/19 adjustments with why) and both clubs' ranks."""
        line = await match_line(store, match)
        async with store.read() as view:
            season = await find_season(view.seasons, match.season_id)
            boards = await view.matches.boards(match.id)
        report = await self.bot.standings.report(store, season, now=store.database.clock())
        adjusted = [b for b in board_lines(boards, report.adjusted_players) if b.why is not None]
        counted = next(
            ((r.home_half, r.away_half) for r in report.results if r.match == match.key), None
        )
        table = {s.club: rank_text(s) for s in report.standings(line.division)}
        ranks = [(club, table.get(club, "—")) for club in (line.home, line.away)]
        assert line.score is not None
        return result_embed(line, line.score, counted, adjusted, ranks)

    @group.command(name="reschedule", description="Move a match not yet played (director).")
    @app_commands.describe(match="The match.", start="New start, YYYY-MM-DD HH:MM (UTC).")
    @app_commands.autocomplete(match=autocomplete.matches)
    @is_director()
    async def reschedule(self, interaction: discord.Interaction, match: int, start: str) -> None:
        """CL-13, CL-15: the deadline and the match's jobs move with it."""
        store = guild_store(interaction)
        actor = await actor_of(store, interaction)
        instant = parse_instant(start, "new start", store.database.clock())
        event = await service.reschedule_match(store, actor, match, instant)
        await interaction.response.send_message(
            f"Match #{event.match.id} now starts {when(event.match.start)}; challenge deadline "
            f"{countdown(event.deadline)}."
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Matches(bot))
