"""An event's days as an iCalendar file by RFC 5545.

There is one calendar event per session, saying what is played that day. It starts at its session
start in UTC and ends 4 hours later, by `core.tour.calendar.SESSION_LENGTH`, so no calendar shows a
zero-length event. Its UID comes from the guild, the event's id and the day, by
`bot.rendering.common.calendar_uid`, so a renamed tour or event keeps its UIDs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Protocol

import icalendar

from bot.rendering.common.calendar_uid import calendar_uid
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
    tour: str,
    event: str,
    days: Iterable[SessionDay],
    stamp: dt.datetime,
    *,
    guild: int,
    event_id: int,
) -> bytes:
    """The event's sessions as an .ics file. `stamp` is DTSTAMP, from the database clock."""
    calendar = [(event_id, event, days)]
    return tour_calendar_ics(tour, calendar, stamp, guild=guild, name=f"{tour}: {event}")


def tour_calendar_ics(
    tour: str,
    events: Iterable[tuple[int, str, Iterable[SessionDay]]],
    stamp: dt.datetime,
    *,
    guild: int,
    name: str | None = None,
    tag: str = "",
) -> bytes:
    """Every session of several events of a tour, the whole tour, as one .ics file.

    Each event is given by its id, its name and its days. A `tag` such as `player7` goes into each
    entry's UID, so a player's own calendar and the event's never share one.
    """
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Arbiter//CCT event calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name or tour)
    for event_id, event, days in events:
        _add_days(calendar, tour, (guild, event_id, event), days, stamp, tag)
    data: bytes = calendar.to_ical()
    return data


def _add_days(
    calendar: icalendar.Calendar,
    tour: str,
    where: tuple[int, int, str],
    days: Iterable[SessionDay],
    stamp: dt.datetime,
    tag: str = "",
) -> None:
    """One calendar event per session day of an event, given as its guild, id and name."""
    guild, event_id, event = where
    for day in days:
        entry = icalendar.Event()
        tags = [tag] if tag else []
        entry.add("uid", calendar_uid(guild, "session", event_id, f"day{day.day}", *tags))
        entry.add("dtstamp", stamp.astimezone(dt.UTC))
        entry.add("dtstart", day.start.astimezone(dt.UTC))
        entry.add("dtend", session_end(day.start).astimezone(dt.UTC))
        entry.add("summary", f"{event}: {day.what}")
        entry.add("description", f"{tour}, {event}, day {day.day}: {day.what}.")
        calendar.add_component(entry)
