"""chess.com archive games as `core.tour.game_search.SiteGame` values, for the CCT-7 search of a
paired game.

The result is read from both sides' result codes. `win` for one side is that side's win. A draw code
for both sides is a draw: `agreed`, `repetition`, `stalemate`, `insufficient`, `50move` or
`timevsinsufficient`. Anything else is no decided result, None, so the game is never taken. A live
game's `time_control` is `"<base>"` or `"<base>+<increment>"` in seconds. A daily one such as
`"1/86400"` has no clock. Standard chess is `rules == "chess"` from the initial position.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import chess

from bot.chesscom.models import DRAW_CODES, WIN_CODE, ArchiveGame
from core.results import Result
from core.tour.game_search import Site, SiteClock, SiteGame

STANDARD_RULES = "chess"


def clock_of(time_control: str | None) -> SiteClock | None:
    """A live game's clock from chess.com's PGN-style time control, such as `"900+10"` or `"600"`.

    Returns None for daily games such as `"1/86400"` and for anything else.
    """
    if not time_control:
        return None
    base, plus, increment = time_control.strip().partition("+")
    if not base.isdigit() or (plus and not increment.isdigit()):
        return None
    return SiteClock(int(base), int(increment) if plus else 0)


def result_of(game: ArchiveGame) -> Result | None:
    """CORE-2: the game's result from both sides' codes, or None when they do not agree on one."""
    white = (game.white.result or "").strip().lower()
    black = (game.black.result or "").strip().lower()
    if white == WIN_CODE and black != WIN_CODE:
        return Result.WHITE_WIN
    if black == WIN_CODE and white != WIN_CODE:
        return Result.BLACK_WIN
    if white in DRAW_CODES and black in DRAW_CODES:
        return Result.DRAW
    return None


def game_id_of(url: str) -> str | None:
    """The game's id on chess.com: the last two segments of its URL, such as `live/4415534338`.

    Live and daily games are numbered apart.
    """
    parts = [part for part in urlsplit(url).path.split("/") if part]
    return "/".join(parts[-2:]) if len(parts) >= 2 else None


def _standard(game: ArchiveGame) -> bool:
    """Standard chess from the initial position, not chess960 or a set-up position."""
    if (game.rules or STANDARD_RULES) != STANDARD_RULES:
        return False
    setup = game.initial_setup
    return not setup or setup.split()[:4] == chess.STARTING_FEN.split()[:4]


def site_game(game: ArchiveGame) -> SiteGame | None:
    """The archive game as a site game, or None when it lacks what identifies it.

    It needs its URL, both usernames and its end.
    """
    if not game.url or game.end_time is None or not game.white.username:
        return None
    game_id = game_id_of(game.url)
    if game_id is None or not game.black.username:
        return None
    return SiteGame(
        site=Site.CHESSCOM,
        game_id=game_id,
        url=game.url,
        white=game.white.username,
        black=game.black.username,
        result=result_of(game),
        ended_at=game.end_time,
        clock=clock_of(game.time_control),
        pgn=game.pgn,
        standard=_standard(game),
    )


def site_games(games: list[ArchiveGame]) -> list[SiteGame]:
    """Every archive game that can be identified, as site games."""
    return [found for game in games if (found := site_game(game)) is not None]
