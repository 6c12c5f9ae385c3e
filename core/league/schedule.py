"""A CL season's round-robin schedule by CL-12, CL-13 and CL-22.

Pairings come from the Berger tables of CORE-1, home and away from the Berger colours, and each
match starts at a local time on its calendar date.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from core.berger import berger_table
from core.league.season import START_TIME, START_ZONE, Match


def start_instant(day: dt.date, at: dt.time = START_TIME, zone: str = START_ZONE) -> dt.datetime:
    """CL-13 and CL-22: the UTC instant of `at` in `zone` on `day`.

    The zone's own DST applies, so in weeks when US and EU daylight saving differ, 11:00 Pacific is
    19:00 CET and not 20:00.
    """
    local = dt.datetime.combine(day, at, tzinfo=ZoneInfo(zone))
    return local.astimezone(dt.UTC)


@dataclass(frozen=True, slots=True)
class DivisionSchedule:
    """CL-12: a division's single round robin, its fixtures and the club idle each round.

    A fixture is a season's match with no facts yet: no challenge and no boards. Home is Berger's
    White.
    """

    division: str
    fixtures: tuple[Match, ...]
    idle: tuple[str | None, ...]


def division_schedule(
    division: str,
    clubs: Sequence[str],
    calendar: Sequence[dt.date],
    *,
    id_prefix: str | None = None,
    at: dt.time = START_TIME,
    zone: str = START_ZONE,
    max_clubs: int | None = None,
) -> DivisionSchedule:
    """CL-12: pairs `clubs`, given in pairing-number order, by the Berger table.

    Round r is played on `calendar[r-1]`. With an odd number of clubs one club is idle each round.
    Match ids are `{prefix}-{round}-{board}`, where the prefix is the division's initials.
    `max_clubs` is the season's clubs per division, 13 by CL-12's configuration, and a division with
    more is refused.
    """
    if len(set(clubs)) != len(clubs):
        raise ValueError(f"division {division!r} lists a club twice")
    if max_clubs is not None and len(clubs) > max_clubs:
        raise ValueError(
            f"division {division!r} has {len(clubs)} clubs, more than the season's"
            f" {max_clubs} (CL-12)"
        )
    table = berger_table(len(clubs))
    if len(calendar) < len(table.rounds):
        raise ValueError(
            f"division {division!r} needs {len(table.rounds)} round dates,"
            f" the calendar has {len(calendar)}"
        )
    prefix = id_prefix or "".join(word[0] for word in division.split()).upper()
    fixtures = []
    for number, (boards, day) in enumerate(zip(table.rounds, calendar, strict=False), start=1):
        start = start_instant(day, at, zone)
        for board, pairing in enumerate(boards, start=1):
            fixtures.append(
                Match(
                    id=f"{prefix}-{number}-{board}",
                    division=division,
                    round=number,
                    home=clubs[pairing.white - 1],
                    away=clubs[pairing.black - 1],
                    start=start,
                )
            )
    idle = tuple(None if bye is None else clubs[bye - 1] for bye in table.byes)
    return DivisionSchedule(division, tuple(fixtures), idle)
