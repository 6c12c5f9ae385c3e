"""`/roster`: link a chess.com account, check a club's players, and record and verify removals.

The check covers the players a club fielded this season: CL-18 multi-team players, CL-19 closed
accounts and CL-21 timeout ratios. A CL-21 removal the bot cannot verify goes to the directors
as a forfeit motion. It also lists a club's removals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import CLUB_ADMIN, guild_store, requires
from bot.app.ui.members import director_ids
from bot.app.ui.pages import send_pages
from bot.chesscom.models import PlayerStats
from bot.league.electorate import DirectorsUnknown, Unreadable
from bot.league.rosters import service
from bot.league.rosters.check import check_roster
from bot.league.rosters.removal_checks import PlayerStatsSource, verify_removal
from bot.rendering.common.embeds import paged
from bot.rendering.common.text import timestamp
from bot.rendering.common.user_text import user_text
from bot.runtime.polite_http import ApiError
from cogs._common import ArbiterCog, guild_group, thinking


class _NoChessCom:
    """Stands in for chess.com when no contact is configured, since chess.com requires one."""

    async def player_stats(self, username: str) -> PlayerStats:
        """Always unknown."""
        raise ApiError("chess.com is not configured (no contact)", "")


class Rosters(ArbiterCog):
    """Club rosters, by CL-18, CL-19 and CL-21."""

    group = guild_group("roster", "chess.com accounts, roster checks and removals.")

    def _chesscom(self) -> PlayerStatsSource:
        """The bot's one chess.com client, or none without a contact."""
        return self.bot.chesscom if self.bot.chesscom is not None else _NoChessCom()

    @group.command(name="link", description="Link your chess.com account (admins: a member's).")
    @app_commands.describe(
        chesscom_username="The chess.com username.",
        user="Whose account (club admins only; default: yours).",
    )
    async def link(
        self,
        interaction: Interaction,
        chesscom_username: str,
        user: discord.Member | None = None,
    ) -> None:
        """A player links their own account. A club admin may link another member's."""
        store, actor = await store_and_actor(interaction)
        event = await service.link_account(
            store, actor, chesscom_username, user.id if user else None
        )
        await interaction.response.send_message(
            f"chess.com account **{user_text(event.username)}** is linked to <@{event.user_id}>.",
            ephemeral=True,
        )

    @group.command(name="check", description="A club's players this season: CL-18, CL-19, CL-21.")
    @app_commands.describe(club="The club.", season="The season (default: the club's current).")
    @app_commands.autocomplete(club=autocomplete.clubs, season=autocomplete.seasons)
    async def check(self, interaction: Interaction, club: str, season: str | None = None) -> None:
        """Multi-team players and closed accounts from the season's facts.

        Timeout ratios above the season's limit are read from chess.com now, after deferring.
        """
        store = guild_store(interaction)
        ready = thinking(interaction)  # an unknown club or season is refused privately
        found = await check_roster(store, self.bot.standings, self._chesscom(), club, season, ready)
        players = found.players
        lines = [f"**{len(players)} players fielded** in {found.season}:"]
        lines += [
            f"{user_text(name)} · {games} game{'s' * (games != 1)}"
            for name, games in players.items()
        ]
        lines.append("**Multi-team players (CL-18):**")
        lines += [
            f"**{user_text(p.player)}**: home club {user_text(p.home_club)},"
            f" {p.other_matches} matches for others"
            for p in found.multi_team
        ] or ["none"]
        lines.append("**Closed accounts (CL-19):**")
        lines += [f"**{user_text(n)}**" for n in found.closed] or ["none"]
        lines.append(f"**Timeout ratio above {_percent(found.timeout_limit)} % (CL-21):**")
        lines += [f"**{user_text(a.player)}**: {a.percent:g} % (CL-21)" for a in found.above] or [
            "none"
        ]
        if found.unknown:
            lines.append(f"Not read from chess.com: {user_text(', '.join(found.unknown))}")
        await send_pages(interaction, paged(f"{found.club}: roster check", lines, "No players."))

    @requires(CLUB_ADMIN)
    @group.command(name="remove", description="Record removing a player from your club (CL-21).")
    @app_commands.describe(
        club="Your club.",
        player="The player's chess.com username.",
        reason="multi-team (CL-18), timeouts (CL-21) or other.",
        note="A note for the directors.",
        season="The season (default: the club's current).",
    )
    @app_commands.autocomplete(
        club=autocomplete.clubs, player=autocomplete.players, season=autocomplete.seasons
    )
    async def remove(
        self,
        interaction: Interaction,
        club: str,
        player: str,
        reason: Literal["multi-team", "timeouts", "other"],
        note: str | None = None,
        season: str | None = None,
    ) -> None:
        """Records a removal with its `roster.verify` job, so a crash loses no verification.

        The removal is then verified at once from the facts and chess.com, after deferring. It
        is verified once, by whichever of this and the job comes first. A forfeit motion is
        opened when it cannot be verified.
        """
        store, actor = await store_and_actor(interaction)
        event = await service.record_removal(store, actor, season, club, player, reason, note)
        await interaction.response.defer(thinking=True)
        try:
            electorate: list[int] | Unreadable = await director_ids(interaction)
        except DirectorsUnknown as unknown:
            electorate = unknown.cause
        verified = await verify_removal(store, event.removal_id, self._chesscom(), electorate)
        said = (
            f"Removal of **{user_text(event.username)}** from **{user_text(club)}** recorded"
            f" ({event.reason})."
        )
        if verified.deferred:
            outcome = f"Not verified yet: {verified.no_motion}."
        elif verified.check.justified:
            outcome = f"Verified: {user_text(verified.check.explanation)}."
        elif verified.motion is not None:
            outcome = (
                f"Not verified: {user_text(verified.check.explanation)}."
                f" Motion #{verified.motion.id} puts a forfeit to the directors (`/vote show`)."
            )
        else:
            outcome = (
                f"Not verified: {user_text(verified.check.explanation)}."
                f" No motion: {verified.no_motion}."
            )
        await interaction.followup.send(f"{said}\n{outcome}")

    @group.command(name="removals", description="A club's roster removals and their checks.")
    @app_commands.describe(club="The club.", season="The season (default: the club's current).")
    @app_commands.autocomplete(club=autocomplete.clubs, season=autocomplete.seasons)
    async def removals(
        self, interaction: Interaction, club: str, season: str | None = None
    ) -> None:
        """Every removal of the club in the season, with its verification."""
        listed = await service.club_removals(guild_store(interaction), club, season)
        found, record, removals = listed.club, listed.season, listed.removals
        lines = [
            f"**{user_text(r.username)}** · {r.reason} · {r.verification} · "
            f"{timestamp(r.requested_at, 'd')}" + (f" · {user_text(r.note)}" if r.note else "")
            for r in removals
        ]
        await send_pages(
            interaction,
            paged(
                f"{found.name}: removals ({record.name})",
                lines,
                "No removals.",
            ),
        )


def _percent(value: Fraction) -> str:
    return f"{float(value):g}"


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Rosters(bot))
