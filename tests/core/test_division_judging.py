"""`division_facts` (CL-FF, CL-DQ, CL-20): a match judged on its own division's facts is judged
as on the whole season's, since clubs play only within their division."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.formats.season_file import load_season
from core.league.facts import challenge_deadline
from core.league.forfeits import SeasonJudging, division_facts
from core.league.lifecycle import match_view, void_clubs
from core.league.season import DirectorDisqualification, DirectorForfeit, Season
from tests.core.test_league_properties import seasons
from tests.support.properties import examples


def _instants(season: Season) -> list[dt.datetime]:
    """Every instant a judgement may change at, and a second either side of it."""
    hours = season.rules.challenge_deadline_hours
    second = dt.timedelta(seconds=1)
    points = {t for m in season.matches for t in (m.start, challenge_deadline(m, hours))}
    points |= {m.finished for m in season.matches if m.finished is not None}
    points |= {q.decided for q in season.director_disqualifications if q.decided is not None}
    return sorted(t + d for t in points for d in (-second, dt.timedelta(0), second))


@st.composite
def decided_seasons(draw: st.DrawFn) -> Season:
    """A random season of two divisions with director forfeits (CL-21) and disqualifications
    (CL-23) added, so clubs go out in both divisions."""
    data: dict[str, Any] = draw(seasons())
    season = load_season(data)
    if not season.matches:
        return season
    forfeited = draw(st.lists(st.sampled_from(season.matches), max_size=6))
    forfeits = tuple(
        DirectorForfeit(
            m.id,
            draw(st.sampled_from((m.home, m.away))),
            "CL-21",
            draw(st.sampled_from((None, m.start + dt.timedelta(days=1)))),
        )
        for m in forfeited
    )
    clubs = [club for d in season.divisions for club in d.clubs]
    starts = sorted(m.start for m in season.matches)
    out = tuple(
        DirectorDisqualification(club, "CL-23", draw(st.sampled_from((None, *starts))))
        for club in draw(st.lists(st.sampled_from(clubs), max_size=2, unique=True))
    )
    return replace(season, director_forfeits=forfeits, director_disqualifications=out)


@settings(max_examples=examples(400), deadline=None)
@given(decided_seasons())
def test_cl_ff_cl_dq_cl_20_a_match_judged_on_its_division_is_judged_as_on_the_season(
    season: Season,
) -> None:
    whole = SeasonJudging(season)
    for division in season.divisions:
        own = division_facts(season, division.name)
        assert {m.id for m in own.matches} == {
            m.id for m in season.matches if m.division == division.name
        }
        judging = SeasonJudging(own)
        clubs = set(division.clubs)
        for instant in _instants(season):
            everywhere, here = whole.at(instant), judging.at(instant)
            assert here.breaches == tuple(b for b in everywhere.breaches if b.club in clubs), (
                "CL-FF: the division's breaches"
            )
            assert here.disqualified == {
                club: q for club, q in everywhere.disqualified.items() if club in clubs
            }, "CL-DQ: the division's clubs out"
            out_everywhere, out_here = void_clubs(whole, instant), void_clubs(judging, instant)
            for match in own.matches:
                assert match_view(own, match.id, instant, out_here) == match_view(
                    season, match.id, instant, out_everywhere
                )


def test_cl_dq_a_disqualification_elsewhere_voids_nothing_in_the_division() -> None:
    """A club put out in another division leaves this division's facts and judgement alone."""
    data = {
        "name": "Two",
        "divisions": [
            {"name": "P", "min_players": 1, "clubs": ["A", "B"]},
            {"name": "One", "min_players": 1, "clubs": ["C", "D"]},
        ],
        "matches": [
            {
                "id": "P-1",
                "division": "P",
                "round": 1,
                "home": "A",
                "away": "B",
                "start": "2024-03-01T19:00:00Z",
            },
            {
                "id": "O-1",
                "division": "One",
                "round": 1,
                "home": "C",
                "away": "D",
                "start": "2024-03-01T19:00:00Z",
            },
        ],
        "director_disqualifications": [{"club": "C", "rule": "CL-23"}],
        "director_forfeits": [{"match": "O-1", "club": "D", "rule": "CL-21"}],
    }
    season = load_season(data)
    own = division_facts(season, "P")
    assert own.director_disqualifications == () and own.director_forfeits == ()
    assert [m.id for m in own.matches] == ["P-1"]
    later = dt.datetime(2024, 3, 2, tzinfo=dt.UTC)
    assert void_clubs(season, later) == {"C": dt.datetime.min.replace(tzinfo=dt.UTC)}
    assert void_clubs(own, later) == {}
    assert match_view(own, "P-1", later) == match_view(season, "P-1", later)
