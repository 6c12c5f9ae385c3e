"""CL-21: verify a recorded roster removal's stated reason — multi-team from the season's
facts (CL-18), timeouts from chess.com's daily timeout ratio — and, when it cannot be
verified, open a `forfeit` motion for the club's next match of the season, saying why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from bot.chesscom.client import ChessComError
from bot.chesscom.models import PlayerStats
from bot.errors import UserError
from bot.league_store import load_season
from bot.services.actor import Actor
from bot.services.announce import announce
from bot.services.motions import MotionRequest, open_motion
from core.league import league_report
from core.league.roster import (
    TIMEOUT_LIMIT_PERCENT,
    RemovalCheck,
    RemovalReason,
    RosterRemoval,
    check_removal,
    is_multi_team,
)
from storage.guild import GuildStore
from storage.motions import Motion

_REASONS = {
    "multi-team": RemovalReason.MULTI_TEAM,
    "timeouts": RemovalReason.TIMEOUTS,
    "other": RemovalReason.OTHER,
}


class PlayerStatsSource(Protocol):
    """Where timeout ratios come from (the chess.com client, or a test's fake of it)."""

    async def player_stats(self, username: str) -> PlayerStats:
        """A player's statistics."""


@dataclass(frozen=True)
class RemovalVerified:
    """What the verification found, and the forfeit motion it opened (if any), or why none
    could be opened."""

    removal_id: int
    check: RemovalCheck
    motion: Motion | None
    no_motion: str | None


async def verify_removal(
    store: GuildStore,
    removal_id: int,
    stats: PlayerStatsSource,
    electorate: Sequence[int] | None,
    timeout_limit: Fraction = TIMEOUT_LIMIT_PERCENT,
) -> RemovalVerified:
    """CL-21: check removal `removal_id`'s reason; verified → marked so; otherwise the bot
    opens a forfeit motion for the club's next match (to `electorate`, the directors now;
    None when they could not be read; CL-23's settings are the season's) and the
    announcement says why. `/roster remove` calls
    this after recording the removal."""
    async with store.read() as view:
        found = [
            r
            for season_record in await view.seasons.all()
            for r in await view.rosters.removals(season_record.id)
            if r.id == removal_id
        ]
        removal = found[0] if found else None
        if removal is None:
            raise UserError(f"No removal {removal_id} on this server.")
        season = await view.seasons.get(removal.season_id)
        assert season is not None
        club = await view.clubs.get(removal.club_id)
        assert club is not None
        now = store.database.clock()
        multi_team: bool | None = None
        if removal.reason == "multi-team":
            report = league_report(await load_season(view, season), now=now)
            multi_team = is_multi_team(removal.username, report.multi_team_players)
        matches = [
            m
            for m in await view.matches.of_season(season.id)
            if club.id in (m.home_club_id, m.away_club_id)
            and m.finished_at is None
            and m.start > now
        ]
    timeout: float | None = None
    if removal.reason == "timeouts":
        try:
            timeout = (await stats.player_stats(removal.username)).daily_timeout_percent
        except ChessComError:
            timeout = None
    check = check_removal(
        RosterRemoval(removal.username, club.name, _REASONS[removal.reason], multi_team, timeout),
        timeout_limit,
    )
    if check.justified:
        async with store.change(None, "roster.verify", f"removal:{removal_id}") as uow:
            await uow.rosters.verify_removal(removal_id, "verified")
            await announce(uow, f"Roster removal verified (CL-21): {check.explanation}.")
        return RemovalVerified(removal_id, check, None, None)
    upcoming = min(matches, key=lambda m: m.start, default=None)
    why = check.explanation
    problem: str | None = None
    motion = None
    if upcoming is None:
        problem = f"{club.name} has no match left in {season.name} to forfeit"
    elif electorate is None:
        problem = "the directors could not be read (is the Server Members intent on?)"
    else:
        request = MotionRequest(
            "forfeit",
            f"CL-21 removal not verified: {why}.",
            match_id=upcoming.id,
            club=club.id,
        )
        try:
            motion = await open_motion(store, Actor.system(), request, electorate)
        except UserError as refusal:
            problem = refusal.message
    async with store.change(None, "roster.verify", f"removal:{removal_id}") as uow:
        if motion is not None:
            await uow.rosters.verify_removal(removal_id, "motion")
            await announce(
                uow,
                f"Roster removal not verified (CL-21): {why}. Motion {motion.id} puts a "
                f"forfeit of match {motion.match_id} by {club.name} to the directors.",
            )
        else:
            if removal.reason != "other":
                await uow.rosters.verify_removal(removal_id, "refuted")
            await announce(
                uow, f"Roster removal not verified (CL-21): {why}. No motion opened: {problem}."
            )
    return RemovalVerified(removal_id, check, motion, problem)
