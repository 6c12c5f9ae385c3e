"""A chess.com or lichess.org game link read into its PGN, outside any unit of work (network
first, then the report): a lichess game by its export (`/game/export/<id>`), a chess.com
game found in the monthly archive of one of its players (their linked chess.com username;
this month's and the last). The game's URL is what stops it counting twice."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import aiohttp

from bot.app.errors import UserError
from bot.app.inputs import shown
from bot.chesscom.client import ChessComClient, ChessComError, ChessComNotFound
from bot.tour.games.pgn import PGN_LIMIT, game_url

LICHESS_TIMEOUT = 10.0


@dataclass(frozen=True)
class FetchedGame:
    """A linked game: its URL as compared, and its PGN."""

    url: str
    pgn: str


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
                archive = await client.get_json(f"/player/{username}/games/{year}/{month:02d}")
            except ChessComNotFound:
                continue
            except ChessComError as error:
                raise UserError(f"chess.com could not be read: {error}") from None
            for game in archive.get("games", []) if isinstance(archive, dict) else []:
                if isinstance(game, dict) and game_url(str(game.get("url", ""))) == url:
                    pgn = game.get("pgn")
                    if isinstance(pgn, str) and pgn:
                        return pgn
    raise UserError(
        f"{shown(url)} is not in this or last month's chess.com games of {', '.join(usernames)}."
    )


async def _lichess(base_url: str, url: str) -> str:
    game_id = url.rsplit("/", 1)[-1]
    timeout = aiohttp.ClientTimeout(total=LICHESS_TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(
                f"{base_url.rstrip('/')}/game/export/{game_id}",
                headers={"Accept": "application/x-chess-pgn"},
            ) as response,
        ):
            if response.status == 404:
                raise UserError(f"lichess.org has no game {shown(game_id)}.")
            if response.status != 200:
                raise UserError(f"lichess.org answered {response.status}: try again later.")
            body = await response.content.read(PGN_LIMIT + 1)
    except (aiohttp.ClientError, TimeoutError) as error:
        raise UserError(f"lichess.org could not be read: {type(error).__name__}.") from None
    return body.decode("utf-8", errors="replace")


async def fetch_game(
    chesscom: ChessComClient | None,
    lichess_url: str,
    link: str,
    usernames: Sequence[str],
    now: dt.datetime,
) -> FetchedGame:
    """The PGN of the game at `link` (chess.com: found through `usernames`' archives)."""
    url = game_url(link)
    if url is None:
        raise UserError(
            f"{shown(link)} is not a chess.com or lichess.org game link "
            "(https://lichess.org/… or https://www.chess.com/game/live/…)."
        )
    if url.startswith("https://lichess.org/"):
        return FetchedGame(url, await _lichess(lichess_url, url))
    return FetchedGame(url, await _chesscom(chesscom, url, usernames, now))
