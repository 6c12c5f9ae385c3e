"""Multi-team players (CL-18), closed accounts (CL-19) and the board adjustment (CL-ADJ)."""

from __future__ import annotations

import pytest

from bot.formats.season_file import SeasonFileError, load_season
from core.league import league_report
from core.league.report import LeagueReport
from tests.support.cl_seasons import match, season

CLUBS = {"P": ["A", "B", "C"], "One": ["D", "E"]}


def _dave_season(twice: bool) -> dict:
    """Dave plays twice for A; once (or twice, across divisions) for other clubs."""
    matches = [
        match("1", "A", "C", [("Dave", "c1", 2), ("a2", "c2", 1)], week=1),
        match("2", "A", "B", [("dave", "b1", 1.5), ("a2", "b2", 0)], week=2),
        match("3", "D", "E", [("DAVE", "e1", 2), ("d2", "e2", 0)], week=3, division="One"),
    ]
    if twice:
        matches.append(match("4", "C", "B", [("c1", "b1", 0), ("carol", "dave", 0)], week=4))
    return season(matches, divisions=CLUBS, closed_accounts=["Carol"])


def _report(data: dict) -> LeagueReport:
    return league_report(load_season(data))


def _result(report: LeagueReport, match_id: str) -> tuple[int, int, object, object]:
    r = next(r for r in report.results if r.match == match_id)
    return r.home_half, r.away_half, r.home_points, r.away_points


def test_cl_18_one_match_for_another_club_is_tolerated() -> None:
    report = _report(_dave_season(twice=False))
    assert report.multi_team_players == ()
    assert _result(report, "1") == (6, 2, 1, 0)  # 3:1 in halves
    assert _result(report, "3") == (4, 4, 0.5, 0.5)
    assert report.adjusted_players == (("carol", "CL-19"),)


def test_cl_18_two_matches_elsewhere_adjust_every_board_of_the_player() -> None:
    report = _report(_dave_season(twice=True))
    [dave] = report.multi_team_players
    assert (dave.player, dave.home_club, dave.other_matches) == ("dave", "A", 2)
    assert ("dave", "CL-18") in report.adjusted_players
    # Match 1: Dave's 2 go to c1: A 1:3 C (was 3:1).
    assert _result(report, "1") == (2, 6, 0, 1)
    # Match 2: Dave's 1.5 go to b1: A 0:4 B.
    assert _result(report, "2") == (0, 8, 0, 1)
    # Match 3 (another division): D 0+0 : E 2+2.
    assert _result(report, "3") == (0, 8, 0, 1)


def test_cl_adj_both_players_adjusted_split_the_board_one_one() -> None:
    report = _report(_dave_season(twice=True))
    # Board 2 of match 4: closed carol v multi-team dave → 1:1 whatever was played (0:2).
    # Board 1: c1 0 : b1 2 → C 1 : B 3.
    assert _result(report, "4") == (2, 6, 0, 1)


def test_cl_19_closed_account_scores_zero_case_insensitively() -> None:
    data = season(
        [match("1", "A", "B", [("alice", "Bob", 0), ("a2", "b2", 2)])], closed_accounts=["BOB"]
    )
    report = _report(data)
    assert report.adjusted_players == (("bob", "CL-19"),)
    assert _result(report, "1") == (8, 0, 1, 0)  # was 2:2; Bob's 2 go to alice
    a = next(s for s in report.standings("P") if s.club == "A")
    assert (a.won, a.match_points, a.game_points) == (1, 1, 4)


def test_cl_18_home_club_tie_goes_to_the_earliest_first_match() -> None:
    data = season(
        [
            match("1", "B", "C", [("eve", "c1", 2)], week=1),
            match("2", "A", "C", [("eve", "c1", 2)], week=2),
            match("3", "A", "D", [("eve", "d1", 2)], week=3),
            match("4", "B", "D", [("eve", "d2", 2)], week=4),
        ]
    )
    [eve] = _report(data).multi_team_players
    assert (eve.home_club, eve.other_matches) == ("B", 2)


def test_cl_18_appearances_count_only_finished_matches() -> None:
    # x: twice for A, once for B finished, once for B unfinished: one match elsewhere so far.
    data = season(
        [
            match("1", "A", "C", [("x", "c1", 2)], week=1),
            match("2", "A", "D", [("x", "d2", 2)], week=2),
            match("3", "B", "C", [("x", "c1", 1), ("b2", "c2", 1)], week=3),
            match("4", "B", "D", [("x", "d1", 1)], week=4, finished=False),
        ]
    )
    assert _report(data).multi_team_players == ()
    data["matches"][3] = match("4", "B", "D", [("x", "d1", 1)], week=4)
    [x] = _report(data).multi_team_players
    assert (x.home_club, x.other_matches) == ("A", 2)


def test_cl_18_a_player_takes_one_seat_in_a_match() -> None:
    # chess.com seats a player on one board of a team match: a file seating them twice (or
    # against themselves) is refused, naming the board, before CL-18 counts anything.
    data = season([match("3", "B", "C", [("x", "c1", 1), ("X", "c2", 1), ("c3", "C3", 2)])])
    with pytest.raises(SeasonFileError) as caught:
        load_season(data)
    assert caught.value.problems == [
        ("matches[0].boards[1].home_player", "'X' already plays on boards[0] of this match"),
        ("matches[0].boards[2].away_player", "'C3' cannot play themselves"),
    ]


def test_cl_18_home_club_tie_on_first_match_start_goes_to_club_name_not_match_id() -> None:
    # Fay plays twice for Alpha and twice for Zeta; both first matches start at the same
    # instant (round 1 of two divisions), so the tie goes to the club name: Alpha, even
    # though Zeta's first match has the smaller match id.
    data = season(
        [
            match("a1", "Zeta", "Eta", [("fay", "e1", 2)], week=1, division="Two"),
            match("z1", "Alpha", "Beta", [("fay", "b1", 2)], week=1, division="One"),
            match("a2", "Theta", "Zeta", [("t1", "fay", 0)], week=2, division="Two"),
            match("z2", "Gamma", "Alpha", [("g1", "FAY", 0)], week=2, division="One"),
        ],
        divisions={"One": ["Alpha", "Beta", "Gamma"], "Two": ["Zeta", "Eta", "Theta"]},
    )
    [fay] = _report(data).multi_team_players
    assert (fay.player, fay.home_club, fay.other_matches) == ("fay", "Alpha", 2)
