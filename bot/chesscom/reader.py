"""Read season facts from chess.com: the client's fetches combined with `bot.chesscom.facts`.

These are the calls services and the CLI make; every request goes through the one client,
so they stay serialised and cached.
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
    """Where a club's average rating (CL-6) comes from."""

    PROFILE = "profile"
    """The club profile's `average_daily_rating` (one request)."""
    MEMBERS = "members"
    """The mean daily rating of its members (one request per member)."""


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
    """CL-5, CL-6: a club's profile and its member count and average daily rating, read now
    (call it at the match start); the average per `source`."""
    profile = await client.club(url_id)
    if source is RatingSource.PROFILE:
        return profile, club_at_start(profile)
    return profile, club_at_start(profile, await member_ratings(client, url_id))


async def member_ratings(client: ChessComClient, url_id: str) -> list[int | None]:
    """CL-6: every club member's daily rating (None without daily games); members whose
    account is gone (404) are left out. One request per member, serialised by the client."""
    members = await client.club_members(url_id)
    ratings: list[int | None] = []
    for member in members.all:
        try:
            stats = await client.player_stats(member.username)
        except ApiNotFound:
            continue
        ratings.append(stats.daily_rating)
    return ratings
