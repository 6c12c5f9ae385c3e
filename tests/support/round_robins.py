"""Hypothesis strategy shared by the property and differential tests: random complete round
robins paired by the Berger tables (CORE-1), single or double, with random results."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from core.berger import pairing_table
from core.results import Result
from core.tiebreaks import Game

OVER_THE_BOARD = (Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN)
WITH_FORFEITS = tuple(Result)


@dataclass(frozen=True)
class RoundRobin:
    """A complete round robin: players 1..n, its number of rounds and every game."""

    players: tuple[int, ...]
    rounds: int
    games: tuple[Game, ...]


@st.composite
def round_robins(
    draw: st.DrawFn, results: tuple[Result, ...] = OVER_THE_BOARD, max_players: int = 10
) -> RoundRobin:
    """A random complete single or double round robin of 3..max_players players."""
    size = draw(st.integers(3, max_players))
    table = pairing_table(size, double=draw(st.booleans()))
    games = tuple(
        Game(p.white, p.black, draw(st.sampled_from(results)), number)
        for number, boards in enumerate(table.rounds, start=1)
        for p in boards
    )
    return RoundRobin(tuple(range(1, size + 1)), len(table.rounds), games)
