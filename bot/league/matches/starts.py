"""A start as a league member types it, by CL-13 and CL-22, as an instant in UTC.

A local date and time is read in the league's zone, which is the season's frozen start zone,
`America/Los_Angeles` by default. It may instead carry an explicit offset or IANA zone.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.kernel.date_window import EARLIEST_DAY, YEARS_AHEAD, latest_day
from bot.kernel.errors import UserError
from bot.kernel.inputs import shown


def parse_local_instant(text: str, what: str, zone: str) -> dt.datetime:
    """`YYYY-MM-DD HH:MM` read in `zone` as an instant in UTC.

    The zone is the league's by CL-13 and CL-22, `America/Los_Angeles` by default. An explicit
    offset such as `…+02:00` or `…Z`, or an IANA zone after the time as in `2026-04-01 20:00
    Europe/Paris`, overrides it. A local time that does not exist because daylight saving skipped
    it, or that exists twice, is refused rather than guessed.
    """
    words = text.strip().rsplit(" ", 1)
    place = zone
    if len(words) == 2 and ("/" in words[1] or words[1].upper() == "UTC"):
        text, place = words[0], "UTC" if words[1].upper() == "UTC" else words[1]
    try:
        local = ZoneInfo(place)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long
        raise UserError(f"{shown(place)} is not a time zone: use an IANA name.") from None
    try:
        instant = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(
            f"{shown(text)} is not a date and time: write YYYY-MM-DD HH:MM ({zone} time),"
            " or add a zone (… Europe/Paris)."
        ) from None
    if instant.date() < EARLIEST_DAY:
        raise UserError(f"The {what} {instant:%Y-%m-%d %H:%M} is before {EARLIEST_DAY.year}.")
    try:
        return _in_utc(instant, local, place)
    except OverflowError:  # 9999-12-31 23:00-05:00 is past the last representable instant
        raise UserError(f"{shown(text)} is too far ahead.") from None


def _in_utc(instant: dt.datetime, local: ZoneInfo, place: str) -> dt.datetime:
    """The naive `instant`, read in `local`, in UTC. A skipped or doubled local time is refused."""
    if instant.tzinfo is not None:
        return instant.astimezone(dt.UTC)
    early = instant.replace(tzinfo=local, fold=0)
    late = instant.replace(tzinfo=local, fold=1)
    if early.astimezone(dt.UTC).astimezone(local).replace(tzinfo=None) != instant:
        raise UserError(f"{instant:%Y-%m-%d %H:%M} does not exist in {place} (the clocks skip it).")
    if early.utcoffset() != late.utcoffset():
        raise UserError(
            f"{instant:%Y-%m-%d %H:%M} happens twice in {place} (the clocks go back):"
            " give the offset, e.g. …-07:00."
        )
    return early.astimezone(dt.UTC)


def start_in_window(start: dt.datetime, what: str, now: dt.datetime) -> None:
    """Refuses a start more than `YEARS_AHEAD` years after `now`, as every date a command reads is
    refused.

    A typo such as 9999 is caught here. The life cycle judges the rest, such as a past start or the
    notice.
    """
    if start.date() > latest_day(now.date()):
        raise UserError(
            f"The {what} {start:%Y-%m-%d %H:%M} is more than {YEARS_AHEAD} years ahead."
        )
