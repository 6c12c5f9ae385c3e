"""The one board validator of the bot, by CL-14 and CL-18.

The boards given by any door are checked by core's `board_problems` before anything is stored. The
doors are an arbiter's boards CSV, a correction motion and a chess.com import. The season file gets
the same check, so a stored match always exports to a file that `arbiter league` accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bot.formats.boards_csv import BoardRow
from bot.kernel.errors import UserError
from bot.kernel.inputs import shown
from core.league.season import Board
from core.league.season_checks import board_problems
from storage.league.matches import BoardRecord


def _halves(value: Fraction, board: int) -> int:
    """Points as whole half-points, since integer arithmetic is faster than a Fraction product."""
    if value.denominator not in (1, 2):
        raise UserError(f"Board {board}: points must be multiples of ½ (whole or half points).")
    return value.numerator * (2 // value.denominator)


def board_records(
    rows: Sequence[BoardRow], games: int, *, empty: str = "A result needs at least one board."
) -> tuple[BoardRecord, ...]:
    """CL-14: `rows` as the boards to store, checked by `checked`.

    `empty` is the refusal for no board.
    """
    if not rows:
        raise UserError(empty)
    boards = tuple(
        BoardRecord(
            row.board,
            row.home_player,
            row.away_player,
            _halves(row.home_points, row.board),
            _halves(row.away_points, row.board),
        )
        for row in rows
    )
    return checked(boards, games)


def checked(boards: tuple[BoardRecord, ...], games: int) -> tuple[BoardRecord, ...]:
    """CL-14 and CL-18: returns `boards` if they pass, else raises `UserError` naming the board.

    Their points must add up to the season's `games` per board, each board number must be given
    once, and each player must take one seat.
    """
    if len({b.board for b in boards}) != len(boards):
        raise UserError("A board number is given twice.")
    domain = [Board(b.home_player, b.away_player, b.home_half, b.away_half) for b in boards]
    for index, field, _ in board_problems(domain, games):
        board = boards[index]
        if field in ("", "home_points"):
            if board.home_half < 0 or board.away_half < 0:
                raise UserError(f"Board {board.board}: points cannot be negative.")
            raise UserError(
                f"Board {board.board}: the points must add up to {games} (the games per board)."
            )
        name = getattr(board, field)
        first = next(
            b.board
            for b in boards
            if name.lower() in (b.home_player.lower(), b.away_player.lower())
        )
        if first == board.board:
            raise UserError(f"Board {board.board}: {shown(name)} cannot play themselves.")
        raise UserError(
            f"Board {board.board}: {shown(name)} already plays on board {first} of this match"
            " (a player takes one seat)."
        )
    return boards
