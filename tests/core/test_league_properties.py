"""Property-based checks of the league (CORE-5, CL-14, CL-17, CL-DQ) on random seasons."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.formats.season_file import load_season
from bot.rendering.league.report_json import report_json
from core.crosstable import Encounter, sonneborn_berger
from core.league import league_report
from tests.support.cl_seasons import match, season
from tests.support.properties import examples

DIVISIONS = {"P": ["A", "B", "C", "D", "E"], "One": ["F", "G", "H"]}
POOL = [f"p{i}" for i in range(6)]


@st.composite
def seasons(draw: st.DrawFn) -> dict[str, Any]:
    """A random small season: some pairings, shared players, late challenges, limits."""
    matches = []
    for division, clubs in DIVISIONS.items():
        pairs = [(h, a) for i, h in enumerate(clubs) for a in clubs[i + 1 :]]
        for number, (home, away) in enumerate(pairs):
            if not draw(st.booleans()):
                continue
            if draw(st.booleans()):
                home, away = away, home
            size = draw(st.integers(1, 4))
            # Shared pool players make multi-team players; a player takes one seat a match.
            names = [*POOL, *(f"{home}{b}" for b in range(4)), *(f"{away}{b}" for b in range(4))]
            seats = draw(
                st.lists(st.sampled_from(names), min_size=2 * size, max_size=2 * size, unique=True)
            )
            boards = [
                (seats[2 * b], seats[2 * b + 1], draw(st.sampled_from([0, 0.5, 1, 1.5, 2])))
                for b in range(size)
            ]
            at_start = {
                club: {"members": 401} for club in (home, away) if draw(st.integers(0, 9)) == 0
            }
            matches.append(
                match(
                    f"{division}-{number}",
                    home,
                    away,
                    boards,
                    division=division,
                    round=draw(st.integers(1, len(clubs) - 1 + len(clubs) % 2)),
                    week=draw(st.integers(1, 6)),
                    finished=draw(st.integers(0, 5)) > 0,
                    challenge=draw(st.sampled_from(["accepted"] * 6 + ["issued", None])),
                    at_start=at_start,
                )
            )
    return season(
        matches,
        divisions=DIVISIONS,
        min_players=draw(st.integers(1, 3)),
        closed_accounts=draw(st.lists(st.sampled_from(POOL), max_size=2)),
    )


@settings(max_examples=examples(300), deadline=None)
@given(seasons(), st.randoms(use_true_random=False))
def test_core_5_standings_do_not_depend_on_the_order_of_matches_or_boards(
    data: dict[str, Any], rnd: random.Random
) -> None:
    shuffled = copy.deepcopy(data)
    rnd.shuffle(shuffled["matches"])
    for m in shuffled["matches"]:
        rnd.shuffle(m["boards"])
    assert report_json(league_report(load_season(shuffled))) == report_json(
        league_report(load_season(data))
    )


@settings(max_examples=examples(300), deadline=None)
@given(seasons())
def test_cl_14_match_points_sum_to_decided_matches_except_double_forfeits(
    data: dict[str, Any],
) -> None:
    report = league_report(load_season(data))
    out = {q.club for q in report.disqualified}
    counted = [r for r in report.results if r.home not in out and r.away not in out]
    double = sum(1 for r in counted if r.home_points == r.away_points == 0)
    total = sum(s.match_points for _, table in report.divisions for s in table)
    assert total == len(counted) - double


@settings(max_examples=examples(300), deadline=None)
@given(seasons(), st.sampled_from(["A", "C", "F"]), st.randoms(use_true_random=False))
def test_cl_dq_disqualified_club_appears_in_no_sb(
    data: dict[str, Any], club: str, rnd: random.Random
) -> None:
    data["director_disqualifications"] = [{"club": club}]
    report = league_report(load_season(data))
    # Rewriting the disqualified club's results changes nobody's line.
    changed = copy.deepcopy(data)
    for m in changed["matches"]:
        if club in (m["home"], m["away"]):
            for board in m["boards"]:
                board["home_points"] = rnd.choice([0, 1, 2])
                board["away_points"] = 2 - board["home_points"]
    other = league_report(load_season(changed))
    assert report_json(other)["divisions"] == report_json(report)["divisions"]
    # Every SB is the SB of the matches without the disqualified club.
    for _, table in report.divisions:
        active = {s.club: s.match_points for s in table if not s.disqualified}
        kept = [
            Encounter(r.home, r.away, r.home_points, r.away_points)
            for r in report.results
            if r.home in active and r.away in active
        ]
        assert {s.club: s.sb for s in table if not s.disqualified} == sonneborn_berger(kept, active)
        for line in table:
            if line.club == club:
                assert (line.disqualified, line.played, line.sb) == (True, 0, Fraction(0))
