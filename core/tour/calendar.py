"""Which day of an event each game is played on, and when its session starts.

This follows CCT-2, CCT-8a, CCT-8c, CCT-8d and CCT-8f. The CCT-11 appeal deadline and the calendar
are read from it.

A Regular or Major event lasts 9 days. The preliminary takes days 1-3, its rounds spread as evenly
as possible with the earlier days taking the extra round. Each knock-out round then takes two days:
quarter-finals days 4-5, semi-finals days 6-7, and the Final and the 3rd-place match days 8-9. By
CCT-8d match 1 is on the first day, and match 2 and the play-off on the second. The Finals play one
round a day over 9 days by CCT-8f.

*Interpretation:* the regulation gives no hours. Every session starts at the tour's `session_start`
in its appeals zone and lasts a fixed 4 hours on a calendar.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from core.tour.knockout import Tie

PRELIMINARY_DAYS = 3
"""CCT-8a: the preliminaries are played over 3 days."""
EVENT_DAYS = 9
"""CCT-2: each tournament lasts 9 days with no free days."""
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
"""*Interpretation:* how long a session lasts on a calendar, its DTEND.

The regulation gives no hours. Four hours hold a preliminary day's rapid rounds or a knock-out day's
games with their play-off. Appeals stay open later, until 23:59 by CCT-11.
"""


def session_end(start: dt.datetime) -> dt.datetime:
    """When a session that starts at `start` ends on a calendar, `SESSION_LENGTH` later."""
    return start + SESSION_LENGTH


LATEST_START = dt.date.max - dt.timedelta(days=31)
"""The latest first day an event may have.

All its days, 9 or one per Finals round, must be calendar dates, and so must their session starts in
any zone.
"""


def check_start(start: dt.date) -> None:
    """Refuses with ValueError a first day that leaves no room for the event's days."""
    if start > LATEST_START:
        raise ValueError(
            f"{start.isoformat()} leaves no room for the event's days: the last possible "
            f"start is {LATEST_START.isoformat()}"
        )


def preliminary_day(round_no: int, rounds: int) -> int:
    """CCT-8a: the day 1-3 of a preliminary round. Rounds are spread evenly, so 11 gives 4, 4, 3."""
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
    """CCT-8d: match 1 is on the round's first day, and match 2 and the play-off on its second.

    The play-off is given as match None.
    """
    return KNOCKOUT_FIRST_DAY[tie] + (0 if match_no == 1 else 1)


def finals_day(round_no: int, rounds: int = EVENT_DAYS) -> int:
    """CCT-8f: one Finals round a day.

    That is 9 rounds for 10 finalists. A tour whose Finals size is set otherwise plays its `rounds`
    rounds the same way.
    """
    if not 1 <= round_no <= rounds:
        raise ValueError(f"the Finals have rounds 1..{rounds}, not {round_no}")
    return round_no


def event_date(start: dt.date, day: int) -> dt.date:
    """The calendar date of an event's day `day`, where day 1 is the start."""
    return start + dt.timedelta(days=day - 1)


def session_start(date: dt.date, at: dt.time, zone: str) -> dt.datetime:
    """The aware instant a session on `date` starts: `at` local time in `zone`."""
    return dt.datetime.combine(date, at, tzinfo=ZoneInfo(zone))
