"""A preliminary scored 3/1/0 (CCT-8a): its points column, direct encounter, SB and Koya
count 3 a win and 1 a draw, exactly, and can order players otherwise than 1/½/0 (CCT-8b)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from core.results import THREE_ONE_ZERO, Result
from core.tour.event_facts import EventFacts, PrelimGame, preliminary_standings
from core.tour.ranking import EventType

PLAYERS = ("A", "B", "C1", "C2", "C3", "C4", "C5", "C6")


def _result(white: str, black: str) -> Result:
    """A wins 4 and loses 3; B wins 2 and draws 5 (no loss); the Cs draw among themselves."""
    wins = {("B", "A"), ("B", "C1"), ("A", "C1"), ("A", "C2"), ("A", "C3"), ("A", "C4")}
    wins |= {("C5", "A"), ("C6", "A")}
    if (white, black) in wins:
        return Result.WHITE_WIN
    if (black, white) in wins:
        return Result.BLACK_WIN
    return Result.DRAW


FACTS = EventFacts(
    "Reversal",
    EventType.REGULAR,
    PLAYERS,
    tuple(PrelimGame(1, w, b, _result(w, b)) for w, b in combinations(PLAYERS, 2)),
)


def test_cct_8a_cct_8b_3_1_0_puts_the_player_with_more_wins_first() -> None:
    """1/½/0: B (2 wins, 5 draws: 4½) is first, A (4 wins, 3 losses: 4) 4th behind C5 and
    C6 by direct encounter. 3/1/0: A has 12, B 11, and A is first."""
    standard = preliminary_standings(FACTS)
    assert [(r.player, r.points) for r in standard[:2]] == [("B", Fraction(9, 2)), ("C5", 4)]
    assert next(r.rank for r in standard if r.player == "A") == 4

    rows = preliminary_standings(replace(FACTS, scoring=THREE_ONE_ZERO))
    points = {r.player: r.points for r in rows}
    assert [r.player for r in rows[:2]] == ["A", "B"]
    assert points == {"A": 12, "B": 11, "C1": 5, "C2": 6, "C3": 6, "C4": 6, "C5": 9, "C6": 9}
    assert all(isinstance(p, Fraction) for p in points.values())


def test_cct_8b_sb_and_koya_read_3_1_0_points() -> None:
    """SB: the opponent's 3/1/0 score times the 3/1/0 points scored against them (A beat C1-C4:
    3 x (5 + 6 + 6 + 6) = 69; B: 3 x 12 + 3 x 5 + 1 x (6 + 6 + 6 + 9 + 9) = 87). Koya: the
    3/1/0 points against players with at least half of 3 x 7 (A and B): B's win over A, 3."""
    rows = {r.player: r for r in preliminary_standings(replace(FACTS, scoring=THREE_ONE_ZERO))}
    assert (rows["A"].sb, rows["B"].sb) == (69, 87)
    assert (rows["A"].ks, rows["B"].ks) == (0, 3)
    assert rows["A"].wins == 4 and rows["B"].wins == 2  # WIN counts wins whatever the scoring
