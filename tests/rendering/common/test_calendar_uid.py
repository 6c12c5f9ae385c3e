"""Calendar UIDs (issue 35): unique across guilds, kept by a rename, and no guild id in them.

Two servers on one site may both have a season "Spring 2024" with a match `A1`, or a tour event
"Open". A visitor subscribed to both calendars must see both, so the UIDs differ by guild. A rename
keeps every UID, since only ids go into one.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import icalendar

from bot.rendering.league.calendar_ics import CalendarMatch, season_calendar
from bot.rendering.tour.calendar_ics import event_calendar_ics, tour_calendar_ics

GUILDS = (123456789012345678, 876543210987654321)
STAMP = dt.datetime(2024, 3, 1, 12, tzinfo=dt.UTC)
START = dt.datetime(2024, 3, 4, 18, tzinfo=dt.UTC)
MATCHES = [
    CalendarMatch(key, "Premier", 1, "Ajax", "Benfica", START, START + dt.timedelta(days=2))
    for key in ("A1", "A2")
]


@dataclass(frozen=True)
class Day:
    day: int
    start: dt.datetime
    what: str


DAYS = [Day(1, START, "rounds 1-3"), Day(2, START + dt.timedelta(days=1), "rounds 4-6")]


def _uids(data: bytes) -> list[str]:
    return [str(e["uid"]) for e in icalendar.Calendar.from_ical(data).walk("VEVENT")]


def _league(guild: int, name: str, season_id: int = 3) -> list[str]:
    return _uids(season_calendar(name, MATCHES, STAMP, guild=guild, season_id=season_id))


def _event(guild: int, tour: str, event: str, event_id: int = 5) -> list[str]:
    return _uids(event_calendar_ics(tour, event, DAYS, STAMP, guild=guild, event_id=event_id))


def test_two_guilds_with_same_named_seasons_and_events_share_no_uid() -> None:
    first, second = (_league(g, "Spring 2024") for g in GUILDS)
    assert len(set(first)) == len(first) == 2
    assert not set(first) & set(second)
    one, other = (_event(g, "CCT 2024", "Open") for g in GUILDS)
    assert len(set(one)) == len(one) == 2
    assert not set(one) & set(other)
    assert not set(one) & set(first)


def test_a_rename_keeps_every_uid_and_another_record_changes_them() -> None:
    assert _league(GUILDS[0], "Spring 2024") == _league(GUILDS[0], "Spring '24 (renamed)")
    assert not set(_league(GUILDS[0], "Spring 2024")) & set(_league(GUILDS[0], "Spring 2024", 4))
    assert _event(GUILDS[0], "CCT 2024", "Open") == _event(GUILDS[0], "CCT", "Open (renamed)")
    assert not set(_event(GUILDS[0], "CCT", "Open")) & set(_event(GUILDS[0], "CCT", "Open", 6))


def test_a_players_calendar_keeps_its_own_uids() -> None:
    """The tag keeps a player's calendar apart from the event's, and is kept by a rename."""
    tagged = _uids(
        tour_calendar_ics("CCT", [(5, "Open", DAYS)], STAMP, guild=GUILDS[0], tag="player4")
    )
    renamed = _uids(
        tour_calendar_ics("T", [(5, "Other", DAYS)], STAMP, guild=GUILDS[0], tag="player4")
    )
    assert tagged == renamed
    assert not set(tagged) & set(_event(GUILDS[0], "CCT", "Open"))


def test_no_uid_shows_the_guild_id_or_a_name() -> None:
    uids = [*_league(GUILDS[0], "Spring 2024"), *_event(GUILDS[0], "CCT 2024", "Open")]
    for uid in uids:
        assert re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}@arbiter", uid)
        assert str(GUILDS[0]) not in uid and "Spring" not in uid and "Open" not in uid
