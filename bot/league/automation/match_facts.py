"""A match job's facts, re-read when it runs: the match, its season and clubs, its current
CL-15 deadline, and whether the job still belongs to that match's timing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.league.matches.jobs import deadline_of
from core.league.forfeits import challenge_failures
from core.league.season import Challenge, Match
from storage.guild import GuildView, LeagueUnit
from storage.league.clubs import Club
from storage.league.matches import MatchRecord
from storage.league.seasons import SeasonRecord

SAME_INSTANT = dt.timedelta(seconds=1)
"""Job due times are stored to the second."""


@dataclass(frozen=True)
class MatchFacts:
    """One match as it stands now."""

    match: MatchRecord
    season: SeasonRecord
    home: Club
    away: Club

    @property
    def deadline(self) -> dt.datetime:
        """CL-15: the match's current challenge deadline."""
        return deadline_of(
            self.match.start, self.season.rules.challenge_deadline_hours, self.match.deadline_at
        )

    def club(self, club_id: int) -> Club:
        """The home or away club by id."""
        return self.home if club_id == self.home.id else self.away

    def opponent(self, club_id: int) -> Club:
        """The other club of the match."""
        return self.away if club_id == self.home.id else self.home


async def match_facts(view: GuildView | LeagueUnit, match_id: int) -> MatchFacts | None:
    """The match `match_id` with its season and clubs, or None if it is gone.

    A season made again before any fact drops its matches.
    """
    match = await view.matches.get(match_id)
    if match is None:
        return None
    season = await view.seasons.get(match.season_id)
    home, away = await view.clubs.pair(match.home_club_id, match.away_club_id)
    if season is None or home is None or away is None:
        return None
    return MatchFacts(match, season, home, away)


def failed_cl15(facts: MatchFacts) -> bool:
    """CL-15 judged on the match's own facts at its current deadline: whether the challenge was
    not issued and accepted in time, so the match will not be played."""
    c = facts.match.challenge
    match = Match(
        facts.match.key,
        "",
        1,
        facts.home.name,
        facts.away.name,
        facts.match.start,
        challenge=None
        if c is None
        else Challenge(facts.club(c.issued_by).name, c.issued_at, c.accepted_at),
    )
    return bool(challenge_failures(match, facts.deadline))


def same_instant(a: dt.datetime, b: dt.datetime) -> bool:
    """Whether a job's due time is this instant.

    A moved match moves its jobs, so a job whose time no longer fits its match is stale and does
    nothing.
    """
    return abs(a - b) < SAME_INSTANT


def match_id_of(payload: dict[str, object]) -> int:
    """The match id a match job carries."""
    value = payload.get("match")
    if not isinstance(value, int):
        raise ValueError(f"a match job without a match id: {payload!r}")
    return value
