"""Which day of an event each game is played on (CCT-2, CCT-8a, CCT-8c/d, CCT-8f), and when
its session starts: what the appeal deadline (CCT-11) and the calendar are read from.

A Regular or Major event lasts 9 days: the preliminary over days 1-3 (its rounds spread as
evenly as possible, the earlier days taking the extra round), then each knock-out round over
two days — quarter-finals days 4-5, semi-finals days 6-7, the Final and the 3rd-place match
days 8-9 — match 1 on the first day, match 2 and the play-off on the second (CCT-8d). The
Finals play one round a day over 9 days (CCT-8f).
*Interpretation:* the regulation gives no hours; every session starts at the tour's
`session_start` in its appeals zone and, on a calendar, lasts a fixed 4 hours.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from core.tour.knockout import Tie

PRELIMINARY_DAYS = 3
"""CCT-8a: the preliminaries are played over 3 days."""
EVENT_DAYS = 9
"""CCT-2: each tournament lasts 9 days (no free days)."""
KNOCKOUT_FIRST_DAY: dict[Tie, int] = {
    Tie.QF1: 4,
    Tie.QF2: 4,
    Tie.QF3: 4,
    Tie.QF4: 4,
    Tie.SF1: 6,
    Tie.SF2: 6,
    Tie.FINAL: 8,
    Tie.THIRD_PLACE: 8,
}
"""CCT-8c/d: the first of the two days of each knock-out round."""


SESSION_LENGTH = dt.timedelta(hours=4)
"""*Interpretation:* how long a session lasts on a calendar (its DTEND). The regulation gives
no hours; 4 hours holds a preliminary day's rapid rounds or a knock-out day's games with
their play-off. Appeals stay open later, until 23:59 (CCT-11)."""


def session_end(start: dt.datetime) -> dt.datetime:
    """When a session that starts at `start` ends on a calendar (`SESSION_LENGTH` later)."""
    return start + SESSION_LENGTH


LATEST_START = dt.date.max - dt.timedelta(days=31)
"""The latest first day an event may have: its days (9, or one per Finals round) must all
be calendar dates, and so must their session starts in any zone."""


def check_start(start: dt.date) -> None:
    """Refuse (ValueError) a first day that leaves no room for the event's days."""
    if start > LATEST_START:
        raise ValueError(
            f"{start.isoformat()} leaves no room for the event's days: the last possible "
            f"start is {LATEST_START.isoformat()}"
        )


def preliminary_day(round_no: int, rounds: int) -> int:
    """CCT-8a: the day (1-3) of a preliminary round, rounds spread evenly (11 → 4, 4, 3)."""
    if not 1 <= round_no <= rounds:
        raise ValueError(f"round {round_no} is outside 1..{rounds}")
    per_day, extra = divmod(rounds, PRELIMINARY_DAYS)
    last = 0
    for day in range(1, PRELIMINARY_DAYS + 1):
        last += per_day + (1 if day <= extra else 0)
        if round_no <= last:
            return day
    return PRELIMINARY_DAYS


def knockout_day(tie: Tie, match_no: int | None) -> int:
    """CCT-8d: match 1 on the round's first day; match 2 and the play-off (None) on its
    second."""
    return KNOCKOUT_FIRST_DAY[tie] + (0 if match_no == 1 else 1)


def finals_day(round_no: int, rounds: int = EVENT_DAYS) -> int:
    """CCT-8f: one Finals round a day (9 rounds for 10 finalists; a tour whose Finals size
    is set otherwise plays its `rounds` rounds the same way)."""
    if not 1 <= round_no <= rounds:
        raise ValueError(f"the Finals have rounds 1..{rounds}, not {round_no}")
    return round_no


def event_date(start: dt.date, day: int) -> dt.date:
    """The calendar date of an event's day `day` (day 1 is the start)."""
    return start + dt.timedelta(days=day - 1)


def session_start(date: dt.date, at: dt.time, zone: str) -> dt.datetime:
    """The instant a session on `date` starts: `at` local time in `zone` (aware)."""
    return dt.datetime.combine(date, at, tzinfo=ZoneInfo(zone))
