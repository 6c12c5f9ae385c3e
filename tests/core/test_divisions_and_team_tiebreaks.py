"""CL-7 divisions as configuration (names and order) and CORE-4 team tie-breaks (CL-17's SB
then DE on match points, computed by `core.crosstable`)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core.league.standings as league_standings
from bot.cli import main
from bot.formats.season_file import load_season
from core import crosstable
from core.league import league_report, promotion_proposal
from tests.support.cl_seasons import match, season
from tests.support.properties import examples


def _two_divisions(order: list[str]) -> dict:
    """Clubs A-C in "Élite" and D-F in "Division Ouest"; the earlier letter wins each match.
    `order` is the order the divisions are listed in the file."""
    clubs = {"Élite": "ABC", "Division Ouest": "DEF"}
    matches = [
        match(home + away, home, away, [(home, away, 2)], division=name, week=r + 1)
        for name, letters in clubs.items()
        for r, (home, away) in enumerate(itertools.combinations(letters, 2))
    ]
    return season(
        matches,
        divisions={name: list(clubs[name]) for name in order},
        rules={"promotion_places": 1},
    )


def test_cl_7_division_names_are_configuration_and_tables_follow_the_file_order() -> None:
    report = league_report(load_season(_two_divisions(["Élite", "Division Ouest"])))
    assert [name for name, _ in report.divisions] == ["Élite", "Division Ouest"]
    assert [s.club for s in report.standings("Élite")] == ["A", "B", "C"]
    swapped = league_report(load_season(_two_divisions(["Division Ouest", "Élite"])))
    assert [name for name, _ in swapped.divisions] == ["Division Ouest", "Élite"]


def test_cl_7_the_first_listed_division_is_the_top_one_for_promotion() -> None:
    report = league_report(load_season(_two_divisions(["Élite", "Division Ouest"])))
    proposal = promotion_proposal(report.divisions, places=1)
    assert dict(proposal.divisions) == {"Élite": ("A", "B", "D"), "Division Ouest": ("C", "E", "F")}
    # The same results with the divisions listed the other way round: Élite is now below.
    swapped = league_report(load_season(_two_divisions(["Division Ouest", "Élite"])))
    proposal = promotion_proposal(swapped.divisions, places=1)
    assert dict(proposal.divisions) == {"Division Ouest": ("D", "E", "A"), "Élite": ("F", "B", "C")}


def test_cl_7_the_champion_comes_from_the_first_listed_division() -> None:
    assert league_report(load_season(_two_divisions(["Élite", "Division Ouest"]))).champion == "A"
    assert league_report(load_season(_two_divisions(["Division Ouest", "Élite"]))).champion == "D"


def test_cl_7_a_division_name_listed_twice_is_refused() -> None:
    data = _two_divisions(["Élite", "Division Ouest"])
    data["divisions"][1]["name"] = "Élite"
    with pytest.raises(ValueError, match="division 'Élite' is listed twice"):
        load_season(data)


def test_core_4_league_standings_call_crosstable_sb_and_de_on_match_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, object]] = []

    def spy_sb(encounters, final):
        calls.append(("sb", dict(final)))
        return crosstable.sonneborn_berger(encounters, final)

    def spy_de(group, encounters):
        calls.append(("de", sorted(group)))
        return crosstable.direct_encounter(group, encounters)

    monkeypatch.setattr(league_standings, "sonneborn_berger", spy_sb)
    monkeypatch.setattr(league_standings, "direct_encounter", spy_de)
    # B and D tie on 1½ match points and SB 1¾; B beat D: DE decides.
    pairs = {"AB": 2, "AC": 2, "AD": 1, "BC": 1, "BD": 2, "CD": 0}
    data = season(
        [
            match(p, p[0], p[1], [(p[0].lower(), p[1].lower(), pts)], week=i + 1)
            for i, (p, pts) in enumerate(pairs.items())
        ]
    )
    table = league_report(load_season(data)).standings("P")
    # SB is given the final *match* points (not game points), DE the tied group only.
    assert calls == [
        ("sb", {"A": F(5, 2), "B": F(3, 2), "C": F(1, 2), "D": F(3, 2)}),
        ("de", ["B", "D"]),
    ]
    assert [(s.club, s.sb, s.de) for s in table] == [
        ("A", F(11, 4), None),
        ("B", F(7, 4), F(1)),
        ("D", F(7, 4), F(0)),
        ("C", F(3, 4), None),
    ]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2]), min_size=10, max_size=10))
def test_core_4_league_order_is_match_points_then_crosstable_sb_then_de(
    points: list[float],
) -> None:
    clubs = "ABCDE"
    pairs = list(itertools.combinations(clubs, 2))
    data = season(
        [
            match(h + a, h, a, [(h.lower(), a.lower(), p)], week=i + 1)
            for i, ((h, a), p) in enumerate(zip(pairs, points, strict=True))
        ],
        divisions={"P": list(clubs)},
    )
    report = league_report(load_season(data))
    encounters = [
        crosstable.Encounter(r.home, r.away, r.home_points, r.away_points) for r in report.results
    ]
    mp = crosstable.totals(encounters, clubs)
    sb = crosstable.sonneborn_berger(encounters, mp)
    table = report.standings("P")
    for line in table:
        assert (line.match_points, line.sb) == (mp[line.club], sb[line.club])
    # Independently: the order is (match points, SB) descending, then DE within the group.
    for above, below in itertools.pairwise(table):
        key_above, key_below = (mp[above.club], sb[above.club]), (mp[below.club], sb[below.club])
        assert key_above >= key_below
        if key_above == key_below:
            group = [c for c in clubs if (mp[c], sb[c]) == key_above]
            de = crosstable.direct_encounter(group, encounters)
            assert de is not None  # a full round robin: every tied club met every other
            assert de[above.club] >= de[below.club]
            assert (above.rank == below.rank) == (de[above.club] == de[below.club])
        else:
            assert above.rank < below.rank


def test_cl_8_cl_dq_a_disqualified_club_is_proposed_nowhere_and_listed_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CL-DQ: A, who won every Élite match, is disqualified by the directors, so none of its
    matches count. CL-8's proposal neither keeps it in Élite nor relegates it by position:
    it is listed apart for the directors, and its freed place spares C from relegation."""
    data = _two_divisions(["Élite", "Division Ouest"])
    data["director_disqualifications"] = [{"club": "A", "rule": "CL-18"}]
    report = league_report(load_season(data))
    proposal = promotion_proposal(report.divisions, places=1)
    assert dict(proposal.divisions) == {"Élite": ("B", "D", "C"), "Division Ouest": ("E", "F")}
    assert proposal.disqualified == ("A",) and proposal.withdrawn == ()
    assert [(m.club, m.to_division) for m in proposal.moves] == [("D", "Élite")]
    # the same through `arbiter league --promotion` on the season file
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["league", str(path), "--promotion"]) == 0
    printed = capsys.readouterr().out
    assert (
        "Disqualified (CL-DQ), placed in no division:\n  A — disqualified: its place is" in printed
    )
    assert "  A: " not in printed  # not among the moves
