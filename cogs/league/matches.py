"""`/match`: list and show matches, a club's challenge and its CL-15 acceptance, and results.

A result is imported from chess.com now or entered by an arbiter from a boards CSV. A director
may reschedule a match. After a result the reply shows the score, the adjusted boards and new
ranks.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import Whole, read_boards, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, DIRECTOR, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.league.matches import results, service
from bot.league.matches.card import match_card, result_card
from bot.league.matches.lines import match_line
from bot.league.matches.listing import season_matches
from bot.rendering.common.text import countdown
from bot.rendering.common.user_text import user_text
from bot.rendering.league.division_view import rank_text
from bot.rendering.league.embeds import MatchLine, match_embed, match_list, result_embed, when
from cogs._common import ArbiterCog, guild_group


def _notes(notes: tuple[str, ...]) -> str:
    """What the match life cycle says of a step, as sentences after a reply.

    It says when a step came late after the CL-15 deadline and when a match is void.
    """
    return "".join(f" Note: {user_text(note[0].upper() + note[1:])}." for note in notes)


def _challenge_of(line: MatchLine) -> str:
    """`Challenge of match #12 (Alpha – Beta)`: how the challenge replies begin."""
    return f"Challenge of match #{line.id} ({user_text(line.home)} – {user_text(line.away)})"


class Matches(ArbiterCog):
    """The league's matches."""

    group = guild_group("match", "Matches: challenges, results, reschedules.")

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
        interaction: Interaction,
        season: str,
        club: str | None = None,
        round: app_commands.Transform[int, Whole("round", 1, 100)] | None = None,
        mine: bool = False,
    ) -> None:
        """Paginated, in start order."""
        admin = interaction.user.id if mine else None
        found = await season_matches(guild_store(interaction), season, club, round, admin)
        record, lines = found.season, found.matches
        await send_pages(interaction, match_list(f"{record.name}: matches", lines))

    @group.command(
        name="show", description="A match: start, deadline countdown, challenge, boards."
    )
    @app_commands.describe(match="The match.", season="Refuse a match of another season.")
    @app_commands.autocomplete(match=autocomplete.matches)
    @app_commands.autocomplete(season=autocomplete.seasons)
    async def show(self, interaction: Interaction, match: str, season: str | None = None) -> None:
        """Anyone may read a match."""
        card = await match_card(guild_store(interaction), self.bot.standings, match, season)
        line, rows = card.line, list(card.boards)
        # SURFACE: /match show lists the match's forfeits (CL-15, CL-5/6/20, a director's).
        forfeits = [f"{f.club} ({f.rule})" for f in card.forfeits]
        await send_pages(interaction, match_embed(line, rows, forfeits, card.counts, card.state))

    @group.command(name="challenge", description="Your club issued the chess.com challenge.")
    @app_commands.describe(match="The match.", chesscom_match="The chess.com match id or URL.")
    @app_commands.autocomplete(match=autocomplete.matches)
    async def challenge(self, interaction: Interaction, match: str, chesscom_match: str) -> None:
        """CL-15: declared by an admin of a club of the match."""
        store, actor = await store_and_actor(interaction)
        event = await service.record_challenge_issued(store, actor, match, chesscom_match)
        line = await match_line(store, event.match)
        when_due = "" if event.late else f"; it must be accepted before {countdown(line.deadline)}"
        await interaction.response.send_message(
            f"{_challenge_of(line)} recorded{when_due}.{_notes(event.notes)}"
        )

    @requires(ARBITER)
    @group.command(
        name="correct-challenge", description="Correct a recorded challenge (arbiter, audited)."
    )
    @app_commands.describe(
        match="The match.",
        chesscom_match="The right chess.com match id or URL.",
        issued_by="The club that really issued it (default: as recorded).",
    )
    @app_commands.autocomplete(match=autocomplete.matches, issued_by=autocomplete.clubs)
    async def correct_challenge(
        self,
        interaction: Interaction,
        match: str,
        chesscom_match: str,
        issued_by: str | None = None,
    ) -> None:
        """CL-15: its instants stand, so the deadline's judgement does too."""
        store, actor = await store_and_actor(interaction)
        event = await service.correct_challenge(store, actor, match, chesscom_match, issued_by)
        line = await match_line(store, event.match)
        await interaction.response.send_message(
            f"{_challenge_of(line)} corrected: chess.com match"
            f" {event.match.chesscom_match_id}.{_notes(event.notes)}"
        )

    @group.command(name="accept", description="Your club accepted the other club's challenge.")
    @app_commands.describe(match="The match.")
    @app_commands.autocomplete(match=autocomplete.matches)
    async def accept(self, interaction: Interaction, match: str) -> None:
        """CL-15: declared by an admin of the club that did not issue it."""
        store, actor = await store_and_actor(interaction)
        event = await service.record_challenge_accepted(store, actor, match)
        line = await match_line(store, event.match)
        await interaction.response.send_message(
            f"{_challenge_of(line)} accepted.{_notes(event.notes)}"
        )

    @group.command(name="report", description="Import the finished match from chess.com now.")
    @app_commands.describe(
        match="The match.", chesscom_match="The chess.com match (if not linked)."
    )
    @app_commands.autocomplete(match=autocomplete.matches)
    async def report(
        self, interaction: Interaction, match: str, chesscom_match: str | None = None
    ) -> None:
        """CL-14, CL-19: imports a result from chess.com, deferred and private first.

        chess.com may be slow, and it may refuse when there is no such match or it is not
        finished. A refusal stays private. The result is then posted for everyone as a new message.
        """
        store, actor = await store_and_actor(interaction)
        await results.authorise_report(store, actor, match)
        client = self.bot.chesscom_client()  # a refusal ("not configured") stays private too
        await interaction.response.defer(ephemeral=True, thinking=True)
        event = await results.import_chesscom_result(store, client, actor, match, chesscom_match)
        embed = await self._result(interaction, event)
        await interaction.followup.send(
            f"Match #{event.match.id}: result imported.", ephemeral=True
        )
        await interaction.followup.send(embed=embed)

    @requires(ARBITER)
    @group.command(name="result", description="Enter a match's boards from a CSV (arbiter).")
    @app_commands.describe(
        match="The match.", file="board,home_player,away_player,home_points,away_points"
    )
    @app_commands.autocomplete(match=autocomplete.matches)
    async def result(self, interaction: Interaction, match: str, file: discord.Attachment) -> None:
        """CL-14: the manual fallback. A bad line is named."""
        store, actor = await store_and_actor(interaction)
        # No defer: nothing here calls chess.com, and a refusal (a bad line) after a public
        # defer could not be private.
        rows = await read_boards(file)
        event = await results.enter_manual_result(store, actor, match, rows)
        await interaction.response.send_message(embed=await self._result(interaction, event))

    async def _result(
        self, interaction: Interaction, event: results.ResultRecorded
    ) -> discord.Embed:
        """The score, how it counts and both clubs' ranks.

        How it counts covers CL-18 and CL-19 adjustments, a forfeit, and a void match with
        the reason.
        """
        store = guild_store(interaction)
        card = await result_card(store, self.bot.standings, event.match, event.counts)
        line, counted, adjusted = card.line, card.counted, list(card.adjusted)
        ranks = [(club, "—" if row is None else rank_text(row)) for club, row in card.ranks]
        return result_embed(line, card.score, counted, adjusted, ranks, card.counts)

    @requires(DIRECTOR)
    @group.command(name="reschedule", description="Move a match not yet played (director).")
    @app_commands.describe(
        match="The match.",
        start="New start, YYYY-MM-DD HH:MM in the league's zone (or add one: … Europe/Paris).",
    )
    @app_commands.autocomplete(match=autocomplete.matches)
    async def reschedule(self, interaction: Interaction, match: str, start: str) -> None:
        """CL-13, CL-15: the deadline and the match's jobs move with the match.

        After the deadline, or closer than its notice, only a passed `reschedule` motion moves it.
        """
        store, actor = await store_and_actor(interaction)
        event = await service.reschedule_match(store, actor, match, start)
        moved = event.match.start
        local = moved.astimezone(ZoneInfo(event.zone))
        await interaction.response.send_message(
            f"Match #{event.match.id} now starts {when(moved)}"
            f" ({local:%Y-%m-%d %H:%M} {event.zone}, {moved:%Y-%m-%d %H:%M} UTC);"
            f" challenge deadline {countdown(event.deadline)}."
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Matches(bot))
