"""A generated 13-club CL division run through the real core, for the rendering tests and
`benchmarks/rendering.py`: Berger pairings (CL-12), random boards, a late challenge (a
CL-15 forfeit), a disqualified club (CL-23) and the last rounds still to play."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from bot.formats.season_file import load_season
from core.league import LeagueReport, league_report
from core.league.schedule import division_schedule
from tests.support.cl_seasons import match, season

CLUBS = (
    "Knights of the Round Table",
    "Échecs Club de Montréal",
    "Team Brazil",
    "The Pawn Storm",
    "Dragons",
    "Caissa's Children of the Northern Lights Chess Federation",
    "Blitz & Pieces",
    "Rook Lovers",
    "Gambit Guild",
    "Zugzwang Zone",
    "En Passant Society",
    "Fianchetto Friends",
    "Queen's Gambit Accepted",
)
BOARDS = 12
PLAYED_ROUNDS = 11


def generated_season(seed: int = 7, clubs: tuple[str, ...] = CLUBS) -> dict[str, Any]:
    """The season file (decoded JSON) of division `P`: `PLAYED_ROUNDS` rounds finished,
    one challenge never issued, the last club disqualified by the directors."""
    rnd = random.Random(seed)
    calendar = [dt.date(2017, 9, 3) + dt.timedelta(weeks=w) for w in range(len(clubs))]
    schedule = division_schedule("P", clubs, calendar)
    matches = []
    for index, fixture in enumerate(schedule.fixtures):
        home_key = "h" + str(clubs.index(fixture.home))
        away_key = "a" + str(clubs.index(fixture.away))
        boards = [
            (f"{home_key}p{b}", f"{away_key}p{b}", rnd.choice((0, 0.5, 1, 1, 1.5, 2)))
            for b in range(BOARDS)
        ]
        matches.append(
            match(
                fixture.id,
                fixture.home,
                fixture.away,
                boards,
                round=fixture.round,
                start=fixture.start,
                finished=fixture.round <= PLAYED_ROUNDS,
                challenge=None if index == 3 else "accepted",
            )
        )
    return season(
        matches,
        divisions={"P": list(clubs)},
        director_disqualifications=[{"club": clubs[-1], "rule": "CL-23"}],
    )


def generated_report(seed: int = 7, clubs: tuple[str, ...] = CLUBS) -> LeagueReport:
    """The real core's report of `generated_season` as of the end of its facts."""
    return league_report(load_season(generated_season(seed, clubs)))
