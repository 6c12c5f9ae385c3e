"""A game's PGN read for a report, from an attachment or a chess.com or lichess.org link.

It gives the result, the CCT-7 early-draw check, whether its players match the game's, and the
reference that stops the same game counting twice. That reference is its site URL, else a
fingerprint.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Set
from dataclasses import dataclass

import chess.pgn

from bot.kernel.errors import UserError
from bot.kernel.inputs import shown
from core.results import Result
from core.tour.early_draws import EarlyDrawCheck, PgnError, check_early_draw, read_pgn

PGN_LIMIT = 200_000
"""Characters of a PGN a report reads. One game is a few thousand."""
_RESULTS = {"1-0": Result.WHITE_WIN, "0-1": Result.BLACK_WIN, "1/2-1/2": Result.DRAW}
_GAME_URL = re.compile(
    r"^(?:https?://)?(?:www\.)?(?P<site>chess\.com|lichess\.org)/(?P<path>[^?#\s]+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PgnGame:
    """What a PGN says: result, the header players, the CCT-7 check, and its reference."""

    text: str
    result: Result
    white: str
    black: str
    early_draw: EarlyDrawCheck
    source_ref: str


def game_url(text: str) -> str | None:
    """A chess.com or lichess.org game URL as compared, such as `https://lichess.org/abcd1234`.

    Returns None when `text` is not one.
    """
    found = _GAME_URL.match(text.strip())
    if found is None:
        return None
    site = found["site"].lower()
    path = found["path"].rstrip("/")
    if site == "lichess.org":
        game_id = path.split("/")[0][:8]
        if not re.fullmatch(r"[A-Za-z0-9]{8}", game_id):
            return None
        return f"https://lichess.org/{game_id}"
    digits = re.search(r"(?:game/(?:live|daily)/|live/game/|daily/game/)(\d+)", path)
    if digits is None:
        return None
    return f"https://www.chess.com/game/{digits[1]}"


def read_game(text: str) -> PgnGame:
    """The PGN's one game. It is refused when it cannot be read or has no decided result."""
    if len(text) > PGN_LIMIT:
        raise UserError(f"The PGN is over {PGN_LIMIT:,} characters: attach one game.")
    try:
        game = read_pgn(text)
    except PgnError as error:
        raise UserError(f"The PGN cannot be read: {error}.") from None
    result = _RESULTS.get(game.headers.get("Result", "*"))
    if result is None:
        raise UserError("The PGN's game has no result (Result is `*`): it is not finished.")
    return PgnGame(
        text,
        result,
        game.headers.get("White", "?"),
        game.headers.get("Black", "?"),
        check_early_draw(game),
        _reference(game),
    )


def _reference(game: chess.pgn.Game) -> str:
    """The game's site URL when it has one, else a fingerprint of its players, date and moves.

    A link and its PGN are the same game.
    """
    for header in ("Link", "Site"):
        url = game_url(game.headers.get(header, ""))
        if url is not None:
            return url
    moves = " ".join(move.uci() for move in game.mainline_moves())
    basis = "|".join(
        [
            game.headers.get("White", ""),
            game.headers.get("Black", ""),
            game.headers.get("Date", ""),
            moves,
        ]
    )
    return "pgn:" + hashlib.sha256(basis.encode()).hexdigest()[:24]


def check_players(
    game: PgnGame, white: set[str], black: set[str], others: Set[str] = frozenset()
) -> None:
    """Refuses a PGN that belongs to another pairing rather than this game.

    That is a PGN whose players are the game's the other way round, or one that names another player
    of the event. `others` holds their names and usernames. Names and usernames are compared without
    case. A PGN naming neither player is accepted, and the report says whose it is.
    """
    header_white, header_black = game.white.casefold(), game.black.casefold()
    if header_white in black or header_black in white:
        raise UserError(
            f"The PGN has White {shown(game.white)} and Black {shown(game.black)}: the colours "
            "are the other way round in this game."
        )
    strangers = (others - white - black) & {header_white, header_black}
    if strangers:
        raise UserError(
            f"The PGN has White {shown(game.white)} and Black {shown(game.black)}: that is "
            "another pairing of the event, not this game."
        )


def check_linked(game: PgnGame, white: str | None, black: str | None) -> None:
    """CCT-8a: a linked game is between the two players' linked accounts on its site.

    A player with a username there must be the one the game names at their colour. A player without
    one cannot be checked.
    """
    for expected, header in ((white, game.white), (black, game.black)):
        if expected is not None and header.casefold() != expected.casefold():
            raise UserError(
                f"The linked game is {shown(game.white)} v {shown(game.black)}: not this "
                "game's players' linked accounts, so not this game."
            )
