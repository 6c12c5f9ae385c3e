"""CORE-3 / CL-17 primitives: SB and direct encounter on hand-computed examples."""

from __future__ import annotations

from fractions import Fraction as F

from core.crosstable import (
    Encounter,
    direct_encounter,
    koya,
    sonneborn_berger,
    sonneborn_berger_cut,
    totals,
)
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


def test_core_3_koya_counts_points_against_players_at_the_threshold() -> None:
    games = _rr()
    final = totals(games)
    # A 1½, B 1, C ½: with threshold 1, B and A count.
    assert koya(games, final, F(1)) == {"A": F(1), "B": F(0), "C": F(1, 2)}
    assert koya(games, final, F(2)) == {"A": F(0), "B": F(0), "C": F(0)}


def test_core_3_sb_cut_drops_lowest_opponent_then_lowest_contribution() -> None:
    games = [
        Encounter("A", "B", F(1), F(0)),
        Encounter("A", "C", F(1, 2), F(1, 2)),
        Encounter("B", "C", F(1), F(0)),
        Encounter("A", "D", F(0), F(1)),
    ]
    final = totals(games)
    assert final == {"A": F(3, 2), "B": F(1), "C": F(1, 2), "D": F(1)}
    sb = sonneborn_berger(games, final)
    cut = sonneborn_berger_cut(games, final)
    # A's lowest opponent is C (½): its ¼ goes; B's lowest is C (½), D's only game is A.
    assert sb["A"] - cut["A"] == F(1, 4)
    assert sb["B"] - cut["B"] == F(1, 2)
    assert cut["D"] == 0
    assert sonneborn_berger_cut(games, final, 0) == sb
