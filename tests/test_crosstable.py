"""CORE-3 / CL-17 primitives: SB and direct encounter on hand-computed examples."""

from __future__ import annotations

from fractions import Fraction as F

from core.crosstable import Encounter, direct_encounter, sonneborn_berger, totals
from core.results import STANDARD, Outcome, Result, Scoring


def _rr() -> list[Encounter]:
    # A beats B, B beats C, C draws A.
    return [
        Encounter("A", "B", F(1), F(0)),
        Encounter("B", "C", F(1), F(0)),
        Encounter("C", "A", F(1, 2), F(1, 2)),
    ]


def test_core_3_sb_is_sum_of_opponent_score_times_points() -> None:
    games = _rr()
    final = totals(games)
    assert final == {"A": F(3, 2), "B": F(1), "C": F(1, 2)}
    sb = sonneborn_berger(games, final)
    assert sb == {"A": F(1) + F(1, 4), "B": F(1, 2), "C": F(3, 4)}


def test_core_3_de_needs_every_pair_to_have_met() -> None:
    games = _rr()
    assert direct_encounter(["A", "B"], games) == {"A": F(1), "B": F(0)}
    assert direct_encounter(["A", "B", "D"], games) is None


def test_core_3_de_averages_pairs_that_met_twice() -> None:
    games = [Encounter("A", "B", F(1), F(0)), Encounter("B", "A", F(1, 2), F(1, 2))]
    assert direct_encounter(["A", "B"], games) == {"A": F(3, 4), "B": F(1, 4)}


def test_core_2_forfeits_count_as_wins_and_double_forfeit_scores_nothing() -> None:
    assert Result.WHITE_FORFEIT_WIN.outcome(white=True) is Outcome.WIN
    assert Result.DOUBLE_FORFEIT.outcome(white=False) is Outcome.LOSS
    assert STANDARD.points(Outcome.DRAW) == F(1, 2)
    assert Scoring(F(3), F(1), F(0)).points(Outcome.WIN) == 3
