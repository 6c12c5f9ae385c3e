"""What a user names, found in the guild's own data, or a refusal saying it does not exist.

A user names a club, a season, a division or a match. Another guild's ids are simply not found.
"""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, shown
from bot.kernel.references import find_by_id_or_name
from storage.league.clubs import Club, ClubReader
from storage.league.matches import MatchReader, MatchRecord
from storage.league.seasons import DivisionRecord, SeasonReader, SeasonRecord

MAX_ID = 2**53
"""No stored id is larger. It is Discord's largest integer option, and SQLite stops at 2⁶³."""


async def find_club(clubs: ClubReader, reference: str | int) -> Club:
    """A club by id, chess.com url-id or display name."""
    return await find_by_id_or_name(reference, "club", clubs.get, clubs.find)


async def find_season(seasons: SeasonReader, reference: str | int) -> SeasonRecord:
    """A season by id or name."""
    return await find_by_id_or_name(reference, "season", seasons.get, seasons.by_name)


async def find_division(
    seasons: SeasonReader, season: SeasonRecord, reference: str | int
) -> DivisionRecord:
    """A division of the season by id or name. Names compare case-insensitively."""
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
    matches: MatchReader, reference: int | str, season: SeasonRecord | None = None
) -> MatchRecord:
    """A match by its number, such as `12` or `#12`, or by its key, such as `DO-1-1`.

    Keys are written as the season file and the lists show them. With `season`, a match of another
    season is refused. A key several seasons share must be told apart by the season or the number.
    """
    if isinstance(reference, str):
        text = clean_text(reference, "match", NAME_LIMIT)
        number = text.removeprefix("#")
        if number.isascii() and number.isdigit():
            reference = int(number)
        else:
            found = [
                m
                for m in await matches.with_key(text)
                if season is None or m.season_id == season.id
            ]
            if not found:
                where = "" if season is None else f" in season {named(season.name)}"
                raise UserError(f"No match {shown(text)}{where} on this server.")
            if len(found) > 1:
                raise UserError(
                    f"Match {shown(text)} is in {len(found)} seasons: give its number (as"
                    " `/match list` shows it) or the season."
                )
            return found[0]
    found_match = await matches.get(reference) if 0 < reference <= MAX_ID else None
    if found_match is None:
        raise UserError(f"No match {reference} on this server.")
    if season is not None and found_match.season_id != season.id:
        raise UserError(f"Match {reference} is not a match of season {named(season.name)}.")
    return found_match
