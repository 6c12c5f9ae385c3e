"""CL-12 round-robin schedule from the Berger tables, CL-13/CL-22 start instants."""

from __future__ import annotations

import datetime as dt
from itertools import combinations
from zoneinfo import ZoneInfo

import pytest

from core.berger import berger_table
from core.league.schedule import division_schedule, start_instant

CLUBS = [f"Club {i:02d}" for i in range(1, 14)]
CALENDAR = [dt.date(2017, 10, 1) + dt.timedelta(weeks=w) for w in range(13)]


def test_cl_12_thirteen_clubs_play_thirteen_rounds_one_idle_each() -> None:
    schedule = division_schedule("Premier Division", CLUBS, CALENDAR)
    assert len(schedule.fixtures) == 13 * 12 // 2
    assert {f.round for f in schedule.fixtures} == set(range(1, 14))
    for number in range(1, 14):
        playing = [c for f in schedule.fixtures if f.round == number for c in (f.home, f.away)]
        assert len(playing) == len(set(playing)) == 12
        assert set(CLUBS) - set(playing) == {schedule.idle[number - 1]}
    pairs = {frozenset((f.home, f.away)) for f in schedule.fixtures}
    assert pairs == {frozenset(p) for p in combinations(CLUBS, 2)}
    assert sorted(schedule.idle) == sorted(CLUBS)


def test_cl_12_home_is_the_berger_white() -> None:
    schedule = division_schedule("Premier Division", CLUBS, CALENDAR)
    table = berger_table(13)
    round_one = [f for f in schedule.fixtures if f.round == 1]
    assert [(f.home, f.away) for f in round_one] == [
        (CLUBS[p.white - 1], CLUBS[p.black - 1]) for p in table.rounds[0]
    ]
    assert round_one[0].id == "PD-1-1"
    assert (round_one[0].challenge, round_one[0].boards) == (None, ())


def test_cl_13_rounds_start_on_their_calendar_dates_at_11_pacific() -> None:
    schedule = division_schedule("Premier Division", CLUBS, CALENDAR)
    for f in schedule.fixtures:
        local = f.start.astimezone(ZoneInfo("America/Los_Angeles"))
        assert local.date() == CALENDAR[f.round - 1]
        assert local.time() == dt.time(11, 0)
        assert f.start.tzinfo == dt.UTC


def test_cl_22_start_is_20_cet_in_winter_and_19_when_us_and_eu_dst_differ() -> None:
    paris = ZoneInfo("Europe/Paris")
    winter = start_instant(dt.date(2018, 1, 20))
    assert winter == dt.datetime(2018, 1, 20, 19, 0, tzinfo=dt.UTC)
    assert winter.astimezone(paris).hour == 20
    # US on daylight time since 11 March 2018, EU only from 25 March.
    gap = start_instant(dt.date(2018, 3, 20))
    assert gap == dt.datetime(2018, 3, 20, 18, 0, tzinfo=dt.UTC)
    assert gap.astimezone(paris).hour == 19
    summer = start_instant(dt.date(2018, 4, 3))
    assert summer.astimezone(paris).hour == 20


def test_cl_13_calendar_too_short_is_refused() -> None:
    with pytest.raises(ValueError, match="needs 13 round dates"):
        division_schedule("Premier Division", CLUBS, CALENDAR[:12])
