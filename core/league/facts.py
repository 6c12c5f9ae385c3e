"""A season's matches compiled once into plain tuples and integer half-points.

The standings pass reads these instead of the domain values, so its per-board work is a few tuple
reads and integer additions. This is the hot path of large seasons.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from core.league.season import Match, Season

CompiledBoard = tuple[str, str, int]
"""A board as home player key, away player key and home half-points."""


class CompiledMatch(NamedTuple):
    """One match ready for the standings pass.

    Usernames are lower-cased so they compare case-insensitively, and points are in halves. It
    carries its chronological order. It is a named tuple because a report builds one a match,
    and a tuple is the cheapest value to build.
    """

    order: int
    id: str
    division: str
    home: str
    away: str
    start: dt.datetime
    finished: dt.datetime | None
    boards: tuple[CompiledBoard, ...]
    home_half: int
    total_half: int
    players: frozenset[str]


def challenge_deadline(match: Match, hours: int) -> dt.datetime:
    """CL-15: the instant by which the challenge must be issued and accepted.

    That is `hours` before the start, unless a reschedule fixed the match's own `Match.deadline`.
    """
    if match.deadline is not None:
        return match.deadline
    return match.start - dt.timedelta(hours=hours)


def compile_matches(season: Season) -> tuple[CompiledMatch, ...]:
    """Every match compiled, in chronological order by start and then id.

    Facts are judged in this order, so the result does not depend on the order they were given in.
    """
    per_board = 2 * season.rules.games_per_board
    ordered = sorted(season.matches, key=lambda m: (m.start, m.id))
    compiled = []
    for index, match in enumerate(ordered):
        boards = tuple(
            [(b.home_player.lower(), b.away_player.lower(), b.home_half) for b in match.boards]
        )
        players = frozenset([player for board in boards for player in board[:2]])
        compiled.append(
            CompiledMatch(
                index,
                match.id,
                match.division,
                match.home,
                match.away,
                match.start,
                match.finished,
                boards,
                sum([board[2] for board in boards]),
                per_board * len(boards),
                players,
            )
        )
    return tuple(compiled)
