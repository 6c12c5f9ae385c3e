"""Per-match deadlines (CL-15 challenge deadline, CL-13/22 start) and their consequences."""

from __future__ import annotations

import datetime as dt

from bot.formats.season_file import load_season
from core.league.deadlines import DeadlineKind, match_deadlines, season_deadlines
from tests.support.cl_seasons import match, season

START = dt.datetime(2017, 10, 1, 18, 0, tzinfo=dt.UTC)


def _deadlines(**kwargs: object):
    s = load_season(season([match("1", "A", "B", finished=False, **kwargs)], min_players=3))
    return match_deadlines(s, s.matches[0])


def test_cl_15_deadline_is_120_hours_before_start_and_both_forfeit_without_challenge() -> None:
    challenge, start = _deadlines(challenge=None)
    assert (challenge.kind, challenge.instant) == (
        DeadlineKind.CHALLENGE,
        START - dt.timedelta(hours=120),
    )
    assert [(b.club, b.rule) for b in challenge.forfeits] == [("A", "CL-15"), ("B", "CL-15")]
    assert (start.kind, start.instant, start.forfeits) == (DeadlineKind.START, START, ())


def test_cl_15_unaccepted_challenge_the_accepting_club_forfeits_at_the_deadline() -> None:
    challenge, _ = _deadlines(challenge="issued")
    assert [(b.club, b.rule) for b in challenge.forfeits] == [("B", "CL-15")]
    assert "B forfeits" in challenge.consequence


def test_cl_5_cl_20_start_deadline_judges_the_start_facts() -> None:
    at_start = {"A": {"members": 401, "players": 3}, "B": {"players": 2}}
    challenge, start = _deadlines(at_start=at_start)
    assert challenge.forfeits == ()
    assert [(b.club, b.rule) for b in start.forfeits] == [("A", "CL-5"), ("B", "CL-20")]


def test_season_deadlines_are_in_time_order_and_filter_by_instant() -> None:
    s = load_season(season([match("2", "C", "D", round=2), match("1", "A", "B", round=1)]))
    instants = [d.instant for d in season_deadlines(s)]
    assert instants == sorted(instants) and len(instants) == 4
    later = season_deadlines(s, after=START)
    assert [(d.match, d.kind) for d in later] == [
        ("2", DeadlineKind.CHALLENGE),
        ("2", DeadlineKind.START),
    ]
