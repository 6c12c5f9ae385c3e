"""CCT-11: fair-play appeal deadline, 23:59 Europe/Paris on the session day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from core.tour.appeals import appeal_deadline, appeals_close, decide_appeal, session_day


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_cct_11_deadline_is_2359_paris_in_winter_and_summer() -> None:
    assert appeal_deadline(date(2021, 2, 7)).astimezone(UTC) == utc(2021, 2, 7, 22, 59)
    assert appeal_deadline(date(2021, 7, 7)).astimezone(UTC) == utc(2021, 7, 7, 21, 59)


def test_cct_11_deadline_on_dst_change_days() -> None:
    # 28 March 2021: CET → CEST; 31 October 2021: CEST → CET. 23:59 is after both changes.
    assert appeal_deadline(date(2021, 3, 28)).astimezone(UTC) == utc(2021, 3, 28, 21, 59)
    assert appeal_deadline(date(2021, 10, 31)).astimezone(UTC) == utc(2021, 10, 31, 22, 59)


def test_cct_11_appeal_just_before_midnight_paris_is_in_time() -> None:
    decision = decide_appeal(utc(2021, 7, 7, 21, 59, 59), date(2021, 7, 7))
    assert decision.accepted and "in time" in decision.reason


def test_cct_11_appeal_after_midnight_paris_is_late_though_same_utc_day() -> None:
    # 22:30 UTC on 7 July is 00:30 on 8 July in Paris.
    decision = decide_appeal(utc(2021, 7, 7, 22, 30), date(2021, 7, 7))
    assert not decision.accepted
    assert "too late" in decision.reason and "2021-07-08 00:30:00 CEST" in decision.reason


def test_cct_11_winter_appeal_at_2330_utc_is_late() -> None:
    assert not decide_appeal(utc(2021, 2, 7, 23, 0), date(2021, 2, 7)).accepted
    assert decide_appeal(utc(2021, 2, 7, 22, 59, 30), date(2021, 2, 7)).accepted


def test_cct_11_appeal_lodged_in_another_zone_is_compared_as_an_instant() -> None:
    new_york = timezone(timedelta(hours=-4))
    lodged = datetime(2021, 7, 7, 17, 0, tzinfo=new_york)  # 23:00 Paris
    assert decide_appeal(lodged, date(2021, 7, 7)).accepted
    assert not decide_appeal(lodged + timedelta(hours=1), date(2021, 7, 7)).accepted


def test_cct_11_session_day_is_the_paris_calendar_day() -> None:
    # A session starting 23:30 UTC on 27 March 2021 is on 28 March in Paris.
    assert session_day(utc(2021, 3, 27, 23, 30)) == date(2021, 3, 28)


def test_cct_11_zone_is_configurable() -> None:
    deadline = appeal_deadline(date(2021, 7, 7), zone="America/New_York")
    assert deadline.astimezone(UTC) == utc(2021, 7, 8, 3, 59)


def test_cct_11_naive_instants_and_unknown_zones_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        decide_appeal(datetime(2021, 7, 7, 12, 0), date(2021, 7, 7))
    with pytest.raises(ValueError, match="unknown time zone"):
        appeal_deadline(date(2021, 7, 7), zone="Mars/Olympus")


def test_cct_11_session_ending_after_midnight_has_the_deadline_of_its_last_day() -> None:
    """CCT-11: a session from 23:00 to 01:00 Paris takes place on both days; taking its
    first day would put the deadline before its last games end, so the last day counts."""
    start, end = utc(2021, 2, 7, 22, 0), utc(2021, 2, 8, 0, 0)  # 23:00 → 01:00 Paris
    assert session_day(start) == date(2021, 2, 7)
    day = session_day(start, session_end=end)
    assert day == date(2021, 2, 8)
    assert decide_appeal(end + timedelta(minutes=30), day).accepted
    with pytest.raises(ValueError, match="ends before it starts"):
        session_day(end, session_end=start)


def test_cct_11_appeals_close_when_the_deadline_minute_is_over() -> None:
    """The close the bot announces is the first instant an appeal is refused."""
    day = date(2021, 7, 7)
    close = appeals_close(day)
    assert close.astimezone(UTC) == utc(2021, 7, 7, 22, 0)  # 00:00 in Paris (CEST)
    assert decide_appeal(close - timedelta(microseconds=1), day).accepted
    assert not decide_appeal(close, day).accepted


def test_cct_11_an_appeal_before_the_sessions_day_is_refused() -> None:
    """CCT-11 (the project's reading): no game of a session is played before its day, so an
    appeal lodged the evening before (Paris time) is refused, saying why; on the day it counts."""
    early = decide_appeal(utc(2021, 7, 6, 21, 59), date(2021, 7, 7))  # 23:59 Paris, the 6th
    assert not early.accepted and "before the game's session day 2021-07-07" in early.reason
    assert decide_appeal(utc(2021, 7, 6, 22, 0), date(2021, 7, 7)).accepted  # 00:00 Paris
