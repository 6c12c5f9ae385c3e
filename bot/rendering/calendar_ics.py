"""A season's matches as an iCalendar file (RFC 5545): one event per match with both clubs
and its start in UTC, and the CL-15 challenge deadline as an alarm on the event."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

import icalendar


@dataclass(frozen=True)
class CalendarMatch:
    """What the calendar shows of one match; `deadline` is its CL-15 challenge deadline."""

    id: str
    division: str
    round: int
    home: str
    away: str
    start: dt.datetime
    deadline: dt.datetime
    cancelled: bool = False
    """Void (CL-DQ: a club of it is disqualified): the event says STATUS:CANCELLED."""


def season_calendar(season: str, matches: Iterable[CalendarMatch], stamp: dt.datetime) -> bytes:
    """The matches as an .ics file: each event starts at the match start (UTC), names both
    clubs, and carries an alarm at the challenge deadline (CL-15) — a void match (CL-DQ) is
    cancelled instead (STATUS:CANCELLED, no alarm). `stamp` is DTSTAMP."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Arbiter//CL season calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", season)
    stamp = stamp.astimezone(dt.UTC)
    for match in sorted(matches, key=lambda m: (m.start, m.id)):
        start = match.start.astimezone(dt.UTC)
        deadline = match.deadline.astimezone(dt.UTC)
        event = icalendar.Event()
        event.add("uid", f"{season}/{match.id}@arbiter")  # stable: a re-import updates it
        event.add("dtstamp", stamp)
        event.add("dtstart", start)
        event.add("summary", f"{match.home} – {match.away}")
        event.add(
            "description",
            f"{season}, {match.division}, round {match.round} (match {match.id}).\n"
            f"Challenge deadline (CL-15): {deadline.isoformat().replace('+00:00', 'Z')}",
        )
        event.add("categories", [match.division])
        if match.cancelled:
            event.add("status", "CANCELLED")
            calendar.add_component(event)
            continue
        alarm = icalendar.Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Challenge deadline (CL-15): {match.home} – {match.away}")
        alarm.add("trigger", deadline, parameters={"VALUE": "DATE-TIME"})
        event.add_component(alarm)
        calendar.add_component(event)
    return calendar.to_ical()
