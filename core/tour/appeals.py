"""The fair-play appeal deadline by CCT-11: 23:59 in the configured zone on the session's day.

Instants are timezone-aware datetimes passed in by the caller and never read from a clock here.

*Interpretation:* "not later than 23:59" includes the whole minute 23:59, so an appeal is in time
when lodged before midnight local time. The local day is that of the playing session in the
configured zone, which defaults to Europe/Paris, CET or CEST.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_APPEAL_ZONE = "Europe/Paris"
"""CCT-11: the configured zone whose 23:59 is the deadline."""

DEADLINE_TIME = time(23, 59)
"""CCT-11: appeals by 23:59 on the day of the playing session."""


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"unknown time zone {name!r}") from error


def _aware(instant: datetime, what: str) -> datetime:
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{what} must be a timezone-aware datetime")
    return instant


def session_day(
    session_start: datetime,
    zone: str = DEFAULT_APPEAL_ZONE,
    *,
    session_end: datetime | None = None,
) -> date:
    """CCT-11: the calendar day of a playing session in the appeal zone.

    *Interpretation:* a session that runs past midnight takes place on both days. Its day is the
    last one, given as `session_end`, or the deadline would fall before its last games.
    """
    start = _aware(session_start, "the session start")
    if session_end is None:
        return start.astimezone(_zone(zone)).date()
    end = _aware(session_end, "the session end")
    if end < start:
        raise ValueError("the session ends before it starts")
    return end.astimezone(_zone(zone)).date()


def appeal_deadline(
    day: date, zone: str = DEFAULT_APPEAL_ZONE, at: time = DEADLINE_TIME
) -> datetime:
    """CCT-11: `at` local time on `day` in `zone`. The event sets `at`, by default 23:59."""
    return datetime.combine(day, at, tzinfo=_zone(zone))


def appeals_close(day: date, zone: str = DEFAULT_APPEAL_ZONE, at: time = DEADLINE_TIME) -> datetime:
    """CCT-11: when the appeals of a session day close, at the end of the deadline minute.

    *Interpretation:* "not later than 23:59" includes that whole minute.
    """
    return appeal_deadline(day, zone, at) + timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class AppealDecision:
    """CCT-11: whether an appeal is accepted, when it was lodged, and the deadline."""

    accepted: bool
    lodged_at: datetime
    deadline: datetime
    reason: str


def decide_appeal(
    lodged_at: datetime, day: date, zone: str = DEFAULT_APPEAL_ZONE, at: time = DEADLINE_TIME
) -> AppealDecision:
    """CCT-11: accepts an appeal lodged before the end of 23:59 local on the session day.

    A later one is refused, and so is one lodged before that day begins. That is the project's
    reading: an appeal is about a game played, and no game of the session is played before its day.
    """
    deadline = appeal_deadline(day, zone, at)
    lodged = _aware(lodged_at, "the time the appeal was lodged")
    local = lodged.astimezone(deadline.tzinfo)
    when = f"lodged {local:%Y-%m-%d %H:%M:%S %Z}"
    cutoff = f"deadline {deadline:%Y-%m-%d %H:%M %Z}"
    if local.date() < day:
        early = f"{when}, before the game's session day {day.isoformat()} (CCT-11)"
        return AppealDecision(False, lodged, deadline, early)
    accepted = lodged < appeals_close(day, zone, at)
    reason = f"{when}, in time ({cutoff})" if accepted else f"{when}, too late ({cutoff}, CCT-11)"
    return AppealDecision(accepted, lodged, deadline, reason)


@dataclass(frozen=True, slots=True)
class LodgedAppeal:
    """An appeal already recorded: its number, status and when it was lodged."""

    id: int
    status: str
    lodged_at: datetime


def second_appeal(earlier: Sequence[LodgedAppeal], zone: str = DEFAULT_APPEAL_ZONE) -> str | None:
    """CCT-11: why a player's appeal about a game they appealed already is refused, or None.
    *Interpretation:* one appeal per player per game. The first is decided, not repeated."""
    if not earlier:
        return None
    first = min(earlier, key=lambda appeal: appeal.id)
    local = _aware(first.lodged_at, "the time the appeal was lodged").astimezone(_zone(zone))
    return (
        f"you appealed this game already: appeal {first.id}, lodged {local:%Y-%m-%d %H:%M %Z}"
        f" ({first.status}); one appeal per player per game (CCT-11)"
    )


def check_undecided(status: str, appeal_id: int) -> None:
    """CCT-11: an appeal is decided once. Raises ValueError when it was decided already."""
    if status != "open":
        raise ValueError(f"appeal {appeal_id} was {status} already: an appeal is decided once")
