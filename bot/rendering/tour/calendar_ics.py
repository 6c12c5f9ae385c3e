"""An event's days as an iCalendar file by RFC 5545.

There is one calendar event per session, saying what is played that day. It starts at its session
start in UTC and ends 4 hours later, by `core.tour.calendar.SESSION_LENGTH`, so no calendar shows a
zero-length event.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Protocol

import icalendar

from core.tour.calendar import session_end


class SessionDay(Protocol):
    """One day of an event: its number, session start and what is played."""

    @property
    def day(self) -> int:
        """The event day, where day 1 is the first."""

    @property
    def start(self) -> dt.datetime:
        """The session start."""

    @property
    def what(self) -> str:
        """What is played."""


def event_calendar_ics(
    tour: str, event: str, days: Iterable[SessionDay], stamp: dt.datetime
) -> bytes:
    """The event's sessions as an .ics file. `stamp` is DTSTAMP, from the database clock."""
    return tour_calendar_ics(tour, [(event, days)], stamp, name=f"{tour}: {event}")


def tour_calendar_ics(
    tour: str,
    events: Iterable[tuple[str, Iterable[SessionDay]]],
    stamp: dt.datetime,
    *,
    name: str | None = None,
    tag: str = "",
) -> bytes:
    """Every session of several events of a tour, the whole tour, as one .ics file.

    A `tag` such as `player7` goes into each entry's UID, so a player's own calendar and the
    event's never share one.
    """
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Arbiter//CCT event calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name or tour)
    for event, days in events:
        _add_days(calendar, tour, event, days, stamp, tag)
    data: bytes = calendar.to_ical()
    return data


def _add_days(
    calendar: icalendar.Calendar,
    tour: str,
    event: str,
    days: Iterable[SessionDay],
    stamp: dt.datetime,
    tag: str = "",
) -> None:
    """One calendar event per session day of `event`."""
    for day in days:
        entry = icalendar.Event()
        suffix = f"/{tag}" if tag else ""
        entry.add("uid", f"{tour}/{event}/day{day.day}{suffix}@arbiter")
        entry.add("dtstamp", stamp.astimezone(dt.UTC))
        entry.add("dtstart", day.start.astimezone(dt.UTC))
        entry.add("dtend", session_end(day.start).astimezone(dt.UTC))
        entry.add("summary", f"{event}: {day.what}")
        entry.add("description", f"{tour}, {event}, day {day.day}: {day.what}.")
        calendar.add_component(entry)
