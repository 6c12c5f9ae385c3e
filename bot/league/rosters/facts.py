"""What `/roster` reads of a club's season.

It reads the season meant, named or the club's current one, and the players the club fielded in it,
with their games.
"""

from __future__ import annotations

import datetime as dt

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.league.references import find_club, find_season
from bot.league.seasons.phase import club_current_season
from storage.guild import GuildView
from storage.league.clubs import Club
from storage.league.seasons import SeasonRecord


async def club_season(
    view: GuildView, club: str | int, season: str | int | None, now: dt.datetime
) -> tuple[Club, SeasonRecord]:
    """The club and the season asked for, or the club's current season at `now`.

    The current season is its running one, not a newer one being set up, as `club_current_season`
    finds it.
    """
    found = await find_club(view.clubs, club)
    if season is not None:
        return found, await find_season(view.seasons, season)
    current = await club_current_season(view, found.id, now)
    if current is None:
        raise UserError(f"Club {named(found.name)} plays in no running season: name the `season`.")
    return found, current[0]


async def fielded(view: GuildView, club_id: int, season_id: int) -> dict[str, int]:
    """The club's players of the season, as first spelled, mapped to the games they played for
    it.
    """
    games: dict[str, int] = {}
    spelled: dict[str, str] = {}
    boards = await view.matches.boards_of_season(season_id)
    for match in await view.matches.of_season(season_id):
        if club_id not in (match.home_club_id, match.away_club_id):
            continue
        home = match.home_club_id == club_id
        for board in boards.get(match.id, ()):
            name = board.home_player if home else board.away_player
            key = spelled.setdefault(name.casefold(), name)
            games[key] = games.get(key, 0) + match.games_per_board  # CL-14: a board's games
    return games
