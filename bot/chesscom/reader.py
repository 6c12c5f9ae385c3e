"""Reads season facts from chess.com, combining the client's fetches with `bot.chesscom.facts`.

Services and the CLI make these calls. Every request goes through the one client, so they stay
serialised and cached.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum

from bot.chesscom.client import ChessComClient
from bot.chesscom.facts import MatchFacts, Placement, club_at_start, match_facts
from bot.chesscom.models import ClubProfile
from bot.formats.season_file import ChallengeModel, ClubAtStartModel
from bot.runtime.polite_http import ApiNotFound


class RatingSource(Enum):
    """Where a club's CL-6 average rating comes from."""

    PROFILE = "profile"
    """The club profile's `average_daily_rating`, read in one request."""
    MEMBERS = "members"
    """The mean daily rating of its members, read in one request per member."""


async def read_match(
    client: ChessComClient,
    match_id: int | str,
    placement: Placement,
    *,
    observed_at: datetime,
    live: bool = False,
    games_per_board: int = 2,
    known_challenge: ChallengeModel | None = None,
    at_start: Mapping[str, ClubAtStartModel] | None = None,
) -> MatchFacts:
    """CL-14, CL-15, CL-19: fetch a team match and read it as season facts."""
    payload = await client.team_match(match_id, live=live)
    return match_facts(
        payload,
        placement,
        observed_at=observed_at,
        games_per_board=games_per_board,
        known_challenge=known_challenge,
        at_start=at_start,
    )


async def read_club_at_start(
    client: ChessComClient, url_id: str, source: RatingSource = RatingSource.PROFILE
) -> tuple[ClubProfile, ClubAtStartModel]:
    """CL-5 and CL-6: a club's profile, member count and average daily rating, read now.

    Call it at the match start. The average follows `source`.
    """
    profile = await client.club(url_id)
    if source is RatingSource.PROFILE:
        return profile, club_at_start(profile)
    return profile, club_at_start(profile, await member_ratings(client, url_id))


async def member_ratings(client: ChessComClient, url_id: str) -> list[int | None]:
    """CL-6: every club member's daily rating, or None without daily games.

    Members whose account is gone with a 404 are left out. It makes one request per member,
    serialised by the client.
    """
    members = await client.club_members(url_id)
    ratings: list[int | None] = []
    for member in members.all:
        try:
            stats = await client.player_stats(member.username)
        except ApiNotFound:
            continue
        ratings.append(stats.daily_rating)
    return ratings
