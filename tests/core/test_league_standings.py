"""Division standings (CL-14, CL-17), as-of dates (CL-1) and promotion (CL-8)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F

from bot.formats.season_file import load_season
from core.league import league_report, promotion_proposal
from core.league.report import LeagueReport
from tests.support.cl_seasons import match, season


def _round_robin(results: dict[str, float]) -> dict:
    """Clubs A-D, one board per match; `results` maps "AB" to A's points on it."""
    matches = [
        match(pair, pair[0], pair[1], [(pair[0].lower(), pair[1].lower(), points)], week=i + 1)
        for i, (pair, points) in enumerate(results.items())
    ]
    return season(matches)


def _table(report: LeagueReport) -> list[tuple]:
    return [(s.rank, s.club, s.match_points, s.sb, s.de, s.tied) for s in report.standings("P")]


def test_cl_14_match_points_from_game_points() -> None:
    report = league_report(load_season(_round_robin({"AB": 2, "CD": 1, "AC": 0})))
    lines = {s.club: s for s in report.standings("P")}
    assert (lines["A"].won, lines["A"].lost, lines["A"].match_points) == (1, 1, 1)
    assert (lines["C"].drawn, lines["C"].won, lines["C"].match_points) == (1, 1, F(3, 2))
    assert lines["C"].game_points == 3 and lines["B"].game_points == 0


def test_cl_17_sb_tie_broken() -> None:
    # A beats B and C, loses to D; B beats C and D; C beats D. A and B on 2: SB 3 v 2.
    data = _round_robin({"AB": 2, "AC": 2, "AD": 0, "BC": 2, "BD": 2, "CD": 2})
    assert _table(league_report(load_season(data))) == [
        (1, "A", 2, 3, None, False),
        (2, "B", 2, 2, None, False),
        (3, "D", 1, 2, None, False),
        (4, "C", 1, 1, None, False),
    ]


def test_cl_17_sb_tie_decided_by_direct_encounter() -> None:
    # B and D both 1½ with SB 1¾; B beat D.
    data = _round_robin({"AB": 2, "AC": 2, "AD": 1, "BC": 1, "BD": 2, "CD": 0})
    assert _table(league_report(load_season(data))) == [
        (1, "A", F(5, 2), F(11, 4), None, False),
        (2, "B", F(3, 2), F(7, 4), 1, False),
        (3, "D", F(3, 2), F(7, 4), 0, False),
        (4, "C", F(1, 2), F(3, 4), None, False),
    ]


def test_cl_17_tie_that_remains_is_shared_in_name_order() -> None:
    # C and D drew each other and lost to A and B: same points, SB and DE.
    data = _round_robin({"AB": 2, "AC": 2, "AD": 2, "BC": 2, "BD": 2, "DC": 1})
    table = _table(league_report(load_season(data)))
    assert table[2:] == [
        (3, "C", F(1, 2), F(1, 4), None, True),
        (3, "D", F(1, 2), F(1, 4), None, True),
    ]


def test_cl_17_direct_encounter_needs_every_tied_club_to_have_met() -> None:
    # A beats C, B beats D: A and B equal on points and SB (0), but never met.
    table = _table(league_report(load_season(_round_robin({"AC": 2, "BD": 2}))))
    assert table[:2] == [(1, "A", 1, 0, None, True), (1, "B", 1, 0, None, True)]
    assert table[2:] == [(3, "C", 0, 0, None, True), (3, "D", 0, 0, None, True)]


def test_cl_1_as_of_before_and_after_a_forfeit_deadline() -> None:
    # B never accepts A's challenge; the match starts 2017-10-08 18:00 UTC, so the
    # challenge deadline is 2017-10-03 18:00 UTC.
    data = season([match("1", "A", "B", week=2, finished=False, challenge="issued")])
    before = league_report(load_season(data), as_of=dt.date(2017, 10, 2))
    assert before.forfeits == ()
    assert all(s.played == 0 for s in before.standings("P"))
    after = league_report(load_season(data), as_of=dt.date(2017, 10, 3))
    assert [(b.club, b.rule) for b in after.forfeits] == [("B", "CL-15")]
    assert after.standings("P")[0].club == "A" and after.standings("P")[0].match_points == 1


def test_cl_1_as_of_counts_only_matches_finished_by_that_day() -> None:
    data = season([match("1", "A", "B", [("a", "b", 2)])])  # finishes 2017-10-21 18:00
    assert league_report(load_season(data), as_of=dt.date(2017, 10, 20)).results == ()
    assert len(league_report(load_season(data), as_of=dt.date(2017, 10, 21)).results) == 1


def _three_divisions() -> LeagueReport:
    names = {"P": "ABCDE", "One": "FGHIJ", "Two": "KLMNO"}
    matches = []
    for division, clubs in names.items():
        for i, home in enumerate(clubs):
            for away in clubs[i + 1 :]:  # the earlier letter wins: standings in letter order
                matches.append(match(home + away, home, away, [(home, away, 2)], division=division))
    data = season(matches, divisions={d: list(c) for d, c in names.items()})
    return league_report(load_season(data))


def _moves(proposal) -> set[tuple[str, str, str]]:
    return {(m.club, m.from_division, m.to_division) for m in proposal.moves}


def test_cl_8_promotion_and_relegation_of_two_per_boundary() -> None:
    proposal = promotion_proposal(_three_divisions().divisions, places=2)
    assert dict(proposal.divisions) == {
        "P": ("A", "B", "C", "F", "G"),
        "One": ("D", "E", "H", "K", "L"),
        "Two": ("I", "J", "M", "N", "O"),
    }
    assert _moves(proposal) == {
        ("F", "One", "P"),
        ("G", "One", "P"),
        ("D", "P", "One"),
        ("E", "P", "One"),
        ("K", "Two", "One"),
        ("L", "Two", "One"),
        ("I", "One", "Two"),
        ("J", "One", "Two"),
    }


def test_cl_8_a_withdrawal_spares_a_relegation_then_promotes_one_more() -> None:
    report = _three_divisions()
    one_gone = promotion_proposal(report.divisions, places=2, withdrawn=["B"])
    # B's place keeps D up; below, One then has a free place: I stays up.
    assert dict(one_gone.divisions) == {
        "P": ("A", "C", "F", "G", "D"),
        "One": ("E", "H", "K", "L", "I"),
        "Two": ("J", "M", "N", "O"),
    }
    assert one_gone.withdrawn == ("B",)
    three_gone = promotion_proposal(report.divisions, places=2, withdrawn=["A", "B", "C"])
    # Three places freed in P: nobody goes down, and H comes up as well.
    assert dict(three_gone.divisions)["P"] == ("F", "G", "D", "E", "H")
    assert ("D", "P", "One") not in _moves(three_gone)


def test_cl_16_champion_only_once_every_match_is_decided() -> None:
    done = league_report(
        load_season(_round_robin({"AB": 2, "CD": 0, "AC": 2, "AD": 2, "BC": 1, "BD": 1}))
    )
    assert done.complete and done.champion == "A"
    data = _round_robin({"AB": 2, "CD": 0})
    data["matches"].append(match("AC", "A", "C", week=3, finished=False))
    pending = league_report(load_season(data))
    assert not pending.complete and pending.champion is None


def test_cl_9_11_minimum_players_is_per_division() -> None:
    at_start = {"A": {"players": 11}, "B": {"players": 15}}
    at_start_one = {"C": {"players": 11}, "D": {"players": 10}}
    data = season(
        [
            match("1", "A", "B", at_start=at_start),
            match("2", "C", "D", at_start=at_start_one, division="One"),
        ],
        divisions={"P": ["A", "B"], "One": ["C", "D"]},
    )
    data["divisions"][0]["min_players"] = 15
    data["divisions"][1]["min_players"] = 11
    report = league_report(load_season(data))
    assert [(b.club, b.rule) for b in report.forfeits] == [("A", "CL-20"), ("D", "CL-20")]


def test_cl_16_no_champion_while_a_round_robin_pairing_has_no_match_yet() -> None:
    # CL-12: a division is a single round robin, so with A-D six matches decide the season.
    # Three decided matches in the file are not the end of the season (CL-1).
    partial = league_report(load_season(_round_robin({"AB": 2, "CD": 0, "AC": 2})))
    assert not partial.complete and partial.champion is None


def test_cl_16_pairings_of_a_disqualified_club_are_not_awaited() -> None:
    # D is disqualified by the directors: its matches are void, and the season is complete
    # once A, B and C have met each other.
    data = _round_robin({"AB": 2, "AC": 2, "BC": 1, "AD": 0})
    data["director_disqualifications"] = [{"club": "D", "rule": "CL-23"}]
    report = league_report(load_season(data))
    assert report.complete and report.champion == "A"
