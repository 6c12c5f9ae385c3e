"""What a user names — a club, a season, a division, a match — found in the guild's own data,
or a refusal saying it does not exist (another guild's ids are simply not found)."""

from __future__ import annotations

from bot.app.errors import UserError
from bot.app.inputs import NAME_LIMIT, clean_text, named, shown
from storage.clubs import Club, ClubReader
from storage.matches import MatchReader, MatchRecord
from storage.seasons import DivisionRecord, SeasonReader, SeasonRecord

MAX_ID = 2**53
"""No stored id is larger (Discord's largest integer option; SQLite stops at 2⁶³)."""


async def find_club(clubs: ClubReader, reference: str | int) -> Club:
    """A club by id, chess.com url-id or display name."""
    if isinstance(reference, int):
        found = await clubs.get(reference)
    else:
        found = await clubs.find(clean_text(reference, "club", NAME_LIMIT))
    if found is None:
        raise UserError(f"No club {shown(str(reference))} on this server.")
    return found


async def find_season(seasons: SeasonReader, reference: str | int) -> SeasonRecord:
    """A season by id or name."""
    if isinstance(reference, int):
        found = await seasons.get(reference)
    else:
        found = await seasons.by_name(clean_text(reference, "season", NAME_LIMIT))
    if found is None:
        raise UserError(f"No season {shown(str(reference))} on this server.")
    return found


async def find_division(
    seasons: SeasonReader, season: SeasonRecord, reference: str | int
) -> DivisionRecord:
    """A division of the season by id or name (case-insensitively)."""
    divisions = await seasons.divisions(season.id)
    if isinstance(reference, int):
        found = [d for d in divisions if d.id == reference]
    else:
        key = clean_text(reference, "division", NAME_LIMIT).casefold()
        found = [d for d in divisions if d.name.casefold() == key]
    if not found:
        raise UserError(f"No division {shown(str(reference))} in season {named(season.name)}.")
    return found[0]


async def find_match(
    matches: MatchReader, match_id: int, season: SeasonRecord | None = None
) -> MatchRecord:
    """A match by id (of `season` when given: a match of another season is refused)."""
    found = await matches.get(match_id) if 0 < match_id <= MAX_ID else None
    if found is None:
        raise UserError(f"No match {match_id} on this server.")
    if season is not None and found.season_id != season.id:
        raise UserError(f"Match {match_id} is not a match of season {named(season.name)}.")
    return found
