"""Forfeits derived from facts (CL-15, CL-5, CL-6, CL-20, CL-21, CL-FF) and CL-DQ."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F

from bot.formats.season_file import load_season
from core.league import league_report
from core.league.report import LeagueReport
from tests.support.cl_seasons import match, season


def _report(data: dict, as_of: dt.date | None = None) -> LeagueReport:
    return league_report(load_season(data), as_of=as_of)


def _line(report: LeagueReport, club: str, division: str = "P"):
    return next(s for s in report.standings(division) if s.club == club)


def _forfeits(report: LeagueReport) -> list[tuple[str, str, str]]:
    return [(b.match, b.club, b.rule) for b in report.forfeits]


def test_cl_15_challenge_issued_never_accepted_the_other_club_forfeits() -> None:
    # A issued, B never accepted; A lost every board, yet B forfeits.
    report = _report(season([match("1", "A", "B", [("a", "b", 0)], challenge="issued")]))
    assert _forfeits(report) == [("1", "B", "CL-15")]
    assert _line(report, "A").match_points == 1
    assert (_line(report, "B").match_points, _line(report, "B").lost) == (0, 1)
    assert _line(report, "A").game_points == 0  # forfeits score no game points


def test_cl_15_challenge_never_issued_both_clubs_score_zero() -> None:
    report = _report(season([match("1", "A", "B", finished=False, challenge=None)]))
    assert _forfeits(report) == [("1", "A", "CL-15"), ("1", "B", "CL-15")]
    for club in "AB":
        line = _line(report, club)
        assert (line.played, line.lost, line.match_points) == (1, 1, 0)


def test_cl_15_challenge_accepted_after_the_deadline_is_late() -> None:
    data = season([match("1", "A", "B")])
    data["matches"][0]["challenge"]["accepted"] = "2017-09-27T18:00:01Z"  # 1 s after 120 h
    assert _forfeits(_report(data)) == [("1", "B", "CL-15")]
    data["matches"][0]["challenge"]["accepted"] = "2017-09-26T18:00:00Z"  # exactly at it
    assert _forfeits(_report(data)) == []


def test_cl_5_club_over_400_members_loses_by_forfeit() -> None:
    at_start = {"A": {"members": 401}, "B": {"members": 400}}
    report = _report(season([match("1", "A", "B", at_start=at_start)]))
    assert _forfeits(report) == [("1", "A", "CL-5")]
    assert (_line(report, "A").match_points, _line(report, "B").match_points) == (0, 1)


def test_cl_5_both_clubs_over_the_limit_double_forfeit() -> None:
    at_start = {"A": {"members": 401}, "B": {"members": 999}}
    report = _report(season([match("1", "A", "B", at_start=at_start)]))
    assert {(_line(report, c).match_points, _line(report, c).lost) for c in "AB"} == {(0, 1)}


def test_cl_6_club_over_1700_average_loses_by_forfeit() -> None:
    at_start = {"A": {"avg_rating": 1700}, "B": {"avg_rating": 1700.5}}
    report = _report(season([match("1", "A", "B", [("a", "b", 0)], at_start=at_start)]))
    assert _forfeits(report) == [("1", "B", "CL-6")]
    assert _line(report, "A").won == 1


def test_cl_20_club_one_player_short_loses_by_forfeit() -> None:
    at_start = {"A": {"players": 5}, "B": {"players": 4}}
    data = season([match("1", "A", "B", [("a", "b", 0)], at_start=at_start)], min_players=5)
    report = _report(data)
    assert _forfeits(report) == [("1", "B", "CL-20")]
    assert _line(report, "A").match_points == 1


def test_cl_20_player_count_from_boards_once_finished_both_short() -> None:
    data = season([match("1", "A", "B")], min_players=4)  # 3 boards, 4 needed
    report = _report(data)
    assert _forfeits(report) == [("1", "A", "CL-20"), ("1", "B", "CL-20")]
    assert _line(report, "A").match_points == _line(report, "B").match_points == 0


def test_cl_ff_one_forfeit_counts_for_every_rule_broken_but_not_after_cl_15() -> None:
    at_start = {"A": {"members": 500, "players": 0}}
    report = _report(season([match("1", "A", "B", at_start=at_start)]))
    assert _forfeits(report) == [("1", "A", "CL-5"), ("1", "A", "CL-20")]
    assert _line(report, "A").played == 1 and _line(report, "B").won == 1
    # Not started on time: CL-15 only, the start facts are not judged.
    late = _report(season([match("1", "A", "B", at_start=at_start, challenge="issued")]))
    assert _forfeits(late) == [("1", "B", "CL-15")]


def test_cl_21_director_forfeit_overrides_the_board_result() -> None:
    data = season(
        [match("1", "A", "B")],
        director_forfeits=[{"match": "1", "club": "A", "rule": "CL-21"}],
    )
    report = _report(data)
    assert _forfeits(report) == [("1", "A", "CL-21")]
    assert (_line(report, "A").match_points, _line(report, "B").match_points) == (0, 1)


def _three_failures(**extra: object) -> dict:
    """D beats A over the board, then never accepts three challenges; A beats B."""
    return season(
        [
            match("1", "D", "A", [("d", "a", 2)], week=1),
            match("2", "A", "B", [("a", "b", 2)], week=2),
            match("3", "B", "D", week=3, finished=False, challenge="issued"),
            match("4", "C", "D", week=4, finished=False, challenge="issued"),
            match("5", "E", "D", week=5, finished=False, challenge="issued"),
            match("6", "C", "E", [("c", "e", 2)], week=6),
        ],
        divisions={"P": ["A", "B", "C", "D", "E"]},
        **extra,
    )


def test_cl_dq_same_club_failing_three_times_is_disqualified_and_its_matches_vanish() -> None:
    report = _report(_three_failures())
    assert [(q.club, q.rule) for q in report.disqualified] == [("D", "CL-15")]
    d = _line(report, "D")
    assert (d.disqualified, d.rank, d.played, d.match_points) == (True, None, 0, 0)
    assert report.standings("P")[-1].club == "D"
    a = _line(report, "A")  # lost to D over the board: that loss no longer counts
    assert (a.played, a.won, a.lost, a.match_points) == (1, 1, 0, 1)
    # forfeit wins against D are gone too: B only lost to A, E only lost to C
    assert (_line(report, "B").played, _line(report, "B").match_points) == (1, 0)
    assert (_line(report, "E").played, _line(report, "E").match_points) == (1, 0)
    c = _line(report, "C")
    assert (c.played, c.match_points, c.sb) == (1, 1, 0)


def test_cl_dq_before_the_third_failure_the_played_match_still_counts() -> None:
    # The third deadline (match 5) is 2017-10-24 18:00; the day before, D is still in.
    report = _report(_three_failures(), as_of=dt.date(2017, 10, 23))
    assert report.disqualified == ()
    d = _line(report, "D")  # the win over A (finished 10-21) and two forfeit losses
    assert (d.played, d.won, d.lost, d.match_points) == (3, 1, 2, 1)
    assert _line(report, "A").lost == 1


def test_cl_dq_counters_are_separate() -> None:
    data = season(
        [
            match("1", "B", "A", week=1, challenge="issued"),
            match("2", "C", "A", week=2, challenge="issued"),
            match("3", "A", "D", week=3, at_start={"A": {"players": 0}}),
            match("4", "A", "E", week=4, at_start={"A": {"players": 0}}),
        ],
        divisions={"P": ["A", "B", "C", "D", "E"]},
    )
    report = _report(data)
    assert report.disqualified == ()
    assert _line(report, "A").lost == 4


def test_cl_dq_director_disqualification() -> None:
    data = season(
        [match("1", "A", "B"), match("2", "C", "D")],
        director_disqualifications=[
            {"club": "A", "rule": "CL-18", "decided": "2017-12-01T00:00:00Z"}
        ],
    )
    report = _report(data)
    assert [(q.club, q.rule) for q in report.disqualified] == [("A", "CL-18")]
    assert _line(report, "B").played == 0
    before = _report(data, as_of=dt.date(2017, 11, 30))
    assert before.disqualified == () and _line(before, "B").match_points == F(1, 2)


def test_cl_15_either_club_may_issue_and_at_the_deadline_instant_is_on_time() -> None:
    # Away club B issues the challenge; home club A must accept. Start 2017-10-01T18:00Z,
    # so the deadline is 2017-09-26T18:00Z ("no later than": that instant is on time).
    data = season([match("1", "A", "B", [("a", "b", 0)])])
    at_deadline = "2017-09-26T20:00:00+02:00"  # the deadline instant, written in CEST
    data["matches"][0]["challenge"] = {
        "issued_by": "B",
        "issued": at_deadline,
        "accepted": at_deadline,
    }
    assert _forfeits(_report(data)) == []
    data["matches"][0]["challenge"]["accepted"] = "2017-09-26T18:00:01Z"
    assert _forfeits(_report(data)) == [("1", "A", "CL-15")]  # A had to accept
    data["matches"][0]["challenge"]["accepted"] = None
    assert _forfeits(_report(data)) == [("1", "A", "CL-15")]
    data["matches"][0]["challenge"]["issued"] = "2017-09-26T18:00:01Z"
    assert _forfeits(_report(data)) == [("1", "A", "CL-15"), ("1", "B", "CL-15")]
    # As at the day before the deadline nothing is forfeited yet; on its day it is.
    assert _forfeits(_report(data, as_of=dt.date(2017, 9, 25))) == []
    assert len(_forfeits(_report(data, as_of=dt.date(2017, 9, 26)))) == 2
