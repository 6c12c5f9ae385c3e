"""Game results and scoring systems by CORE-2 and CCT-8a.

A result is one of 1-0, ½-½, 0-1 or a forfeit: +/-, -/+ and the double forfeit -/-. Forfeit wins
count as wins. In a round robin a forfeit counts as a played game for SB and DE, by FIDE C.07 art.
15.2. Points come from a `Scoring`, which is 1/½/0 by default and may be 3/1/0.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction


class Result(enum.Enum):
    """CORE-2: the outcome of one game, from White's point of view."""

    WHITE_WIN = "1-0"
    DRAW = "1/2-1/2"
    BLACK_WIN = "0-1"
    WHITE_FORFEIT_WIN = "+/-"
    BLACK_FORFEIT_WIN = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @property
    def is_forfeit(self) -> bool:
        """True for the three forfeit results, where no game was played over the board."""
        return self in (Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT)

    def outcome(self, white: bool) -> Outcome:
        """The outcome for the White player when `white` is True, else for the Black player."""
        return _OUTCOMES[self][0 if white else 1]


class Outcome(enum.Enum):
    """CORE-2: what one player got from a game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


_OUTCOMES: dict[Result, tuple[Outcome, Outcome]] = {
    Result.WHITE_WIN: (Outcome.WIN, Outcome.LOSS),
    Result.DRAW: (Outcome.DRAW, Outcome.DRAW),
    Result.BLACK_WIN: (Outcome.LOSS, Outcome.WIN),
    Result.WHITE_FORFEIT_WIN: (Outcome.WIN, Outcome.LOSS),
    Result.BLACK_FORFEIT_WIN: (Outcome.LOSS, Outcome.WIN),
    Result.DOUBLE_FORFEIT: (Outcome.LOSS, Outcome.LOSS),
}


@dataclass(frozen=True, slots=True)
class Scoring:
    """CORE-2: points for a win, a draw and a loss, 1/½/0 by default or 3/1/0 as some seasons
    use.
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction | None = None
    """Points of a forfeit win when they differ from `win`, as in a TRF-2026 record 299."""
    forfeit_loss: Fraction | None = None
    """Points of a forfeit loss when they differ from `loss`, as for a TRF-2026 absence `A`."""

    def points(self, outcome: Outcome) -> Fraction:
        """The points one outcome is worth under this scoring."""
        if outcome is Outcome.WIN:
            return self.win
        if outcome is Outcome.DRAW:
            return self.draw
        return self.loss

    def game_points(self, result: Result, white: bool) -> Fraction:
        """CORE-2: the points one side of a game scores. A forfeit may be worth its own."""
        outcome = result.outcome(white=white)
        if result.is_forfeit:
            special = self.forfeit_win if outcome is Outcome.WIN else self.forfeit_loss
            if special is not None:
                return special
        return self.points(outcome)


STANDARD = Scoring()
"""The default 1 / ½ / 0 scoring."""

THREE_ONE_ZERO = Scoring(Fraction(3), Fraction(1), Fraction(0))
"""CCT-8a: 3 points a win, 1 a draw and 0 a loss, as later tour seasons scored their
preliminaries.
"""
