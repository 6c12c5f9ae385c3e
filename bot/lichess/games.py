"""lichess games as `core.tour.game_search.SiteGame` values, for the CCT-7 search of a paired game.

A game's result comes from its `status` and `winner`, lichess's `GameStatusName`. A game ended by
mate, resignation, time, a player leaving with `timeout`, or a variant's end goes to the `winner`.
`draw`, `stalemate`, `insufficientMaterialClaim`, and `outoftime` without a winner are draws. The
last means the flag fell against a side that cannot mate.

Any other status gives no decided result, None. Such statuses are `created`, `started`, `aborted`,
`noStart`, `unknownFinish` and `cheat`, an ending lichess's fair-play team decided. Such a game is
never taken, and an arbiter decides.
"""

from __future__ import annotations

import chess

from bot.lichess.models import LichessGame
from core.results import Result
from core.tour.game_search import Site, SiteClock, SiteGame

PUBLIC_URL = "https://lichess.org"
WON = frozenset({"mate", "resign", "outoftime", "timeout", "variantEnd"})
"""Statuses that end a game with a winner. `outoftime` without one is a draw."""
DRAWN = frozenset({"draw", "stalemate", "insufficientMaterialClaim", "outoftime"})
"""Statuses that end a game drawn when there is no winner."""
STANDARD = "standard"


def result_of(game: LichessGame) -> Result | None:
    """CORE-2: the game's result from its status and winner, or None, as the module docstring
    says.
    """
    if game.winner in ("white", "black") and game.status in WON:
        return Result.WHITE_WIN if game.winner == "white" else Result.BLACK_WIN
    if game.winner is None and game.status in DRAWN:
        return Result.DRAW
    return None


def _standard(game: LichessGame) -> bool:
    """Standard chess from the initial position, not a variant or `fromPosition`."""
    if game.variant != STANDARD:
        return False
    fen = game.initial_fen
    return not fen or fen.split()[:4] == chess.STARTING_FEN.split()[:4]


def site_game(game: LichessGame) -> SiteGame | None:
    """The exported game as a site game, or None when a side is not a lichess user.

    Such a side is the computer or an anonymous player.
    """
    white, black = game.players.white.username, game.players.black.username
    if not white or not black:
        return None
    clock = game.clock
    return SiteGame(
        site=Site.LICHESS,
        game_id=game.id,
        url=f"{PUBLIC_URL}/{game.id}",
        white=white,
        black=black,
        result=result_of(game),
        ended_at=game.ended_at,
        clock=None if clock is None else SiteClock(clock.initial, clock.increment),
        pgn=game.pgn,
        standard=_standard(game),
    )


def site_games(games: list[LichessGame]) -> list[SiteGame]:
    """Every exported game between two users, as site games."""
    return [found for game in games if (found := site_game(game)) is not None]
