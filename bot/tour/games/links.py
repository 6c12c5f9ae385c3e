"""A chess.com or lichess.org game link read into its PGN, outside any unit of work.

The network comes first, then the report. The reads go through the bot's one client of each site. A
chess.com game is found in the monthly archive of one of its players, using their linked chess.com
username and this month's and last month's archive through `ChessComClient.player_games`. A lichess
game is found among the exported games of its players, using their linked lichess usernames through
`LichessClient.user_games`. The game's URL is what stops it counting twice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from bot.kernel.errors import UserError
from bot.kernel.inputs import shown
from bot.lichess.client import LichessClient
from bot.runtime.polite_http import ApiError, ApiNotFound
from bot.tour.games.pgn import game_url


@dataclass(frozen=True)
class FetchedGame:
    """A linked game: its URL as compared, and its PGN."""

    url: str
    pgn: str


@dataclass(frozen=True)
class Usernames:
    """The site usernames of a game's two players as linked, White first."""

    chesscom: tuple[str, ...]
    lichess: tuple[str, ...]


def _months(now: dt.datetime) -> list[tuple[int, int]]:
    first = now.date().replace(day=1)
    previous = first - dt.timedelta(days=1)
    return [(first.year, first.month), (previous.year, previous.month)]


async def _chesscom(
    client: ChessComClient | None, url: str, usernames: Sequence[str], now: dt.datetime
) -> str:
    if client is None:
        raise UserError("chess.com is not reachable from this bot (no chess.com contact set).")
    if not usernames:
        raise UserError(
            "Neither player has a chess.com username: an organiser sets it with `/tour link`."
        )
    for username in usernames:
        for year, month in _months(now):
            try:
                archive = await client.player_games(username, year, month)
            except ApiNotFound:
                continue
            except ApiError as error:
                raise UserError(f"chess.com could not be read: {error}") from None
            for game in archive.games:
                if game_url(game.url or "") == url and game.pgn:
                    return game.pgn
    raise UserError(
        f"{shown(url)} is not in this or last month's chess.com games of {', '.join(usernames)}."
    )


async def _lichess(client: LichessClient | None, url: str, usernames: Sequence[str]) -> str:
    if client is None:
        raise UserError("lichess.org is not reachable from this bot (no lichess contact set).")
    if len(usernames) < 1:
        raise UserError(
            "Neither player has a lichess username: an organiser sets it with `/tour link`."
        )
    game_id = url.rsplit("/", 1)[-1]
    vs = usernames[1] if len(usernames) > 1 else None
    try:
        games = await client.user_games(usernames[0], vs=vs)
    except ApiNotFound:
        games = []
    except (ApiError, ValueError) as error:
        raise UserError(f"lichess.org could not be read: {error}") from None
    for game in games:
        if game.id == game_id and game.pgn:
            return game.pgn
    raise UserError(f"{shown(url)} is not among the lichess games of {', '.join(usernames)}.")


async def fetch_game(
    chesscom: ChessComClient | None,
    lichess: LichessClient | None,
    link: str,
    usernames: Usernames,
    now: dt.datetime,
) -> FetchedGame:
    """The PGN of the game at `link`, found through the players' linked usernames."""
    url = game_url(link)
    if url is None:
        raise UserError(
            f"{shown(link)} is not a chess.com or lichess.org game link "
            "(https://lichess.org/… or https://www.chess.com/game/live/…)."
        )
    if url.startswith("https://lichess.org/"):
        return FetchedGame(url, await _lichess(lichess, url, usernames.lichess))
    return FetchedGame(url, await _chesscom(chesscom, url, usernames.chesscom, now))
