"""Flags draws agreed before move 40 in a PGN game, by CCT-7.

No draw offers or agreements are allowed before both sides have completed move 40, except as the
Laws of Chess allow. A drawn game is judged from python-chess's reading of the PGN in three steps.

1. A game not drawn, or drawn with both sides past move 40, is fine.
2. A final position that is stalemate, dead for lack of material, a threefold repetition
   or a 50-move position is a lawful draw.
3. A `Termination` header saying the game ended on time, with the side that flagged facing
   a side that cannot mate, is a lawful draw of timeout against insufficient material.

Anything else is flagged as a presumed early draw by agreement. A header that claims repetition or
stalemate when the moves do not show it is flagged too, because the moves are the evidence and the
header is only a label.
"""

from __future__ import annotations

import enum
import io
import re
from dataclasses import dataclass

import chess
import chess.pgn

MOVE_LIMIT = 40
"""CCT-7: no draw by agreement before both sides have completed move 40."""


class PgnError(ValueError):
    """A PGN text that cannot be read as one game."""


class DrawKind(enum.Enum):
    """CCT-7: how a game ended, for the early-draw check."""

    NOT_A_DRAW = "not a draw"
    AFTER_MOVE_LIMIT = "drawn after both sides completed move 40"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient material"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "50-move rule"
    TIMEOUT_VS_INSUFFICIENT_MATERIAL = "flag fell against insufficient mating material"
    AGREED_EARLY = "draw by agreement before move 40"


@dataclass(frozen=True, slots=True)
class EarlyDrawCheck:
    """CCT-7: whether the game is flagged, how it was judged, and the moves both completed."""

    flagged: bool
    kind: DrawKind
    moves_completed: int
    termination: str | None


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters a PGN never holds. A tab and line breaks are text.

PostgreSQL cannot even store NUL.
"""


class _QuietBuilder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's game builder without its ERROR log line for each complaint: a PGN that
    cannot be read is the sender's mistake, refused with the complaint, not a fault of ours."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def read_pgn(text: str) -> chess.pgn.Game:
    """Reads exactly the first game of a PGN text.

    A text holding a control character, without moves or with illegal ones is refused with the
    reason.
    """
    control = _CONTROL.search(text)
    if control is not None:
        line = text.count("\n", 0, control.start()) + 1
        raise PgnError(
            f"the PGN holds a control character (U+{ord(control.group()):04X}) on line {line}"
        )
    game = chess.pgn.read_game(io.StringIO(text), Visitor=_QuietBuilder)
    if game is None:
        raise PgnError("the PGN text holds no game")
    if game.errors:
        raise PgnError(f"the PGN game cannot be read: {game.errors[0]}")
    return game


def _time_forfeit(termination: str | None) -> bool:
    """True when the Termination header says the game ended on time.

    Examples are "Time forfeit" and chess.com's "Game drawn by timeout vs insufficient material".
    """
    return "time" in (termination or "").lower()


def check_early_draw(game: chess.pgn.Game | str) -> EarlyDrawCheck:
    """CCT-7: flags a draw before both sides completed move 40 that the Laws of Chess do not
    explain.

    The module docstring says how the evidence is weighed.
    """
    if isinstance(game, str):
        game = read_pgn(game)
    termination = game.headers.get("Termination")
    board = game.end().board()
    completed = board.fullmove_number - 1  # both sides completed this many moves

    def verdict(kind: DrawKind) -> EarlyDrawCheck:
        return EarlyDrawCheck(kind is DrawKind.AGREED_EARLY, kind, completed, termination)

    if game.headers.get("Result") != "1/2-1/2":
        return verdict(DrawKind.NOT_A_DRAW)
    if completed >= MOVE_LIMIT:
        return verdict(DrawKind.AFTER_MOVE_LIMIT)
    if board.is_stalemate():
        return verdict(DrawKind.STALEMATE)
    if board.is_insufficient_material():
        return verdict(DrawKind.INSUFFICIENT_MATERIAL)
    if board.is_repetition(3):
        return verdict(DrawKind.THREEFOLD_REPETITION)
    if board.is_fifty_moves():
        return verdict(DrawKind.FIFTY_MOVES)
    if _time_forfeit(termination) and (
        board.has_insufficient_material(chess.WHITE) or board.has_insufficient_material(chess.BLACK)
    ):
        return verdict(DrawKind.TIMEOUT_VS_INSUFFICIENT_MATERIAL)
    return verdict(DrawKind.AGREED_EARLY)
