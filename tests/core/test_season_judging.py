"""`SeasonJudging` (CL-FF, CL-DQ): the judgement kept for a season's facts, judged again at
another instant or after one match's facts changed, is what judging the facts afresh gives."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.formats.season_file import load_season
from core.league.facts import challenge_deadline
from core.league.forfeits import SeasonJudging
from core.league.season import Board, ClubAtStart, Match, Season
from tests.core.test_league_properties import seasons
from tests.support.cl_seasons import match, season
from tests.support.properties import examples

CHANGES = ("unchallenged", "fewer boards", "fielded none", "unfinished", "points only")


def _changed(match: Match, how: str) -> Match:
    """`match` with one kind of fact changed, as a result, an at-start snapshot or a
    correction changes it."""
    if how == "unchallenged":
        return replace(match, challenge=None)
    if how == "fewer boards":
        return replace(match, boards=match.boards[:1])
    if how == "fielded none":
        return replace(match, at_start={match.home: ClubAtStart(players=0)})
    if how == "unfinished":
        return replace(match, finished=None, boards=())
    return replace(
        match, boards=tuple(Board(b.home_player, b.away_player, 0, 4) for b in match.boards)
    )


def _cutoffs(season: Season) -> list[dt.datetime | None]:
    """Every instant a judgement may change at, a second either side of it, and None."""
    hours = season.rules.challenge_deadline_hours
    second = dt.timedelta(seconds=1)
    instants = {
        t + d
        for m in season.matches
        for t in (m.start, challenge_deadline(m, hours), m.finished or m.start)
        for d in (-second, dt.timedelta(0), second)
    }
    return [None, *sorted(instants)]


@settings(max_examples=examples(300), deadline=None)
@given(seasons(), st.data())
def test_cl_ff_cl_dq_judging_again_after_one_match_changed_is_judging_afresh(
    data: dict[str, Any], draw: st.DataObject
) -> None:
    before = load_season(data)
    if not before.matches:
        return
    match = draw.draw(st.sampled_from(before.matches))
    how = draw.draw(st.sampled_from(CHANGES))
    after = replace(
        before,
        matches=tuple(_changed(m, how) if m.id == match.id else m for m in before.matches),
    )
    kept = SeasonJudging(before)
    cutoffs = _cutoffs(before)
    for cutoff in cutoffs:  # the memo filled, in time order and back
        assert kept.at(cutoff) == SeasonJudging(before).at(cutoff)
    again = kept.with_match(after, match.id)
    for cutoff in reversed(cutoffs):
        assert again.at(cutoff) == SeasonJudging(after).at(cutoff)


def test_cl_ff_a_change_that_breaks_no_rule_keeps_the_judgements_made() -> None:
    """A result whose boards break nothing (points only) shares the judgements already
    made; one that breaks a rule (too few boards: CL-20) is judged again."""
    data = season(
        [match("m1", "A", "B", [("a1", "b1", 2), ("a2", "b2", 1)])],
        divisions={"P": ["A", "B"]},
        min_players=2,
    )
    before = load_season(data)
    now = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    kept = SeasonJudging(before)
    judged = kept.at(now)
    assert judged.breaches == ()
    (played,) = before.matches
    points = replace(before, matches=(_changed(played, "points only"),))
    assert kept.with_match(points, "m1").at(now) is judged
    fewer = replace(before, matches=(_changed(played, "fewer boards"),))
    rejudged = kept.with_match(fewer, "m1").at(now)
    assert [(b.club, b.rule) for b in rejudged.breaches] == [("A", "CL-20"), ("B", "CL-20")]
