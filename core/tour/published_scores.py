"""Finished knock-out rounds known only by their scores, by CCT-8d.

A tour file or an imported report may give a round as its two rapid match scores and a play-off
score rather than game by game. These functions check such scores and read who won from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from core.tour.knockout import (
    BLITZ_GAMES,
    MATCH_GAMES,
    SERIES_SAFE_SCORE,
    WINNING_SCORE,
    KnockoutError,
    MatchOutcome,
    match_outcome,
    score_text,
)


def finished_match(first: Fraction, second: Fraction) -> MatchOutcome:
    """CCT-8d: the outcome of a finished rapid match from its final score alone.

    It took 3 games only when someone reached 2½, as in 2½–½ or 3–0. It took 4 games when it was
    open after 3, with a leader of at most 3: 3–1, 2½–1½ or 2–2. Raises KnockoutError for a score no
    match can end on.
    """
    games = first + second
    text = score_text(first, second)
    if min(first, second) < 0 or games.denominator != 1 or games not in (3, 4):
        raise KnockoutError(
            f"{text} is not a finished match: a match is 3 or 4 rapid games (CCT-8d)"
        )
    outcome = match_outcome(first, second, int(games))
    if outcome is MatchOutcome.IN_PROGRESS:
        raise KnockoutError(f"{text} after 3 games is not decided, so a 4th game follows (CCT-8d)")
    if games == MATCH_GAMES and max(first, second) - 1 >= WINNING_SCORE:
        raise KnockoutError(
            f"{text}: the match was won at 2.5 after 3 games, so no 4th game was played (CCT-8d)"
        )
    return outcome


def series_matches(days: Sequence[tuple[Fraction, Fraction]]) -> list[MatchOutcome]:
    """CCT-8d: the outcomes of a series' two rapid matches from their final scores.

    The second match may have stopped early, at 2–0 or 2–1 for the winner of the first, because the
    series was then decided. A score that match could not have reached without stopping first, 3–0
    or 3–1 for that player, is refused. Raises KnockoutError naming the match.
    """
    if len(days) != 2:
        raise KnockoutError(f"a round is 2 matches (CCT-8d), not {len(days)}")
    first_day = finished_match(*days[0])
    first, second = days[1]
    if first_day is MatchOutcome.FIRST_WON:
        leader, other = first, second
    elif first_day is MatchOutcome.SECOND_WON:
        leader, other = second, first
    else:
        return [first_day, finished_match(first, second)]
    games = first + second
    if leader == SERIES_SAFE_SCORE and games < MATCH_GAMES and other < SERIES_SAFE_SCORE:
        if min(first, second) < 0 or games.denominator != 1:
            raise KnockoutError(f"{score_text(first, second)} is not a match score (CCT-8d)")
        return [first_day, MatchOutcome.STOPPED]
    outcome = finished_match(first, second)
    if leader > WINNING_SCORE:
        raise KnockoutError(
            f"{score_text(first, second)}: the winner of match 1 had 2 points in match 2 before "
            "its last game, so the series was decided and the match stopped there (CCT-8d)"
        )
    return [first_day, outcome]


def series_decided_by_matches(outcomes: Sequence[MatchOutcome]) -> bool | None:
    """CCT-8d: whether a player won the series in the rapid matches, or None when a play-off
    follows.

    Returns True for the first player and False for the second. A player wins by winning both
    matches, winning one and drawing the other, or winning one while the other stopped.
    """
    won = set(outcomes)
    if (MatchOutcome.FIRST_WON in won) != (MatchOutcome.SECOND_WON in won):
        return MatchOutcome.FIRST_WON in won
    return None


def blitz_decides(first: Fraction, second: Fraction) -> bool | None:
    """CCT-8d: whether a player won the 2 blitz games of a play-off.

    Returns True for the first player and False for the second. At 1–1 it returns None, since an
    Armageddon follows. Raises KnockoutError for a score that is not 2 games.
    """
    if min(first, second) < 0 or first + second != BLITZ_GAMES:
        raise KnockoutError(
            f"{score_text(first, second)} is not a play-off of {BLITZ_GAMES} blitz games (CCT-8d)"
        )
    return None if first == second else first > second
