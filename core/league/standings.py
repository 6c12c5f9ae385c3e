"""Division standings by CL-14 and CL-17.

Clubs rank by match points, W/D/L and game points, then by Sonneborn-Berger and direct encounter
from `core.crosstable`. Remaining ties share the rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.crosstable import Encounter, direct_encounter, sonneborn_berger, totals
from core.points import HALF, ONE, ZERO
from core.ranks import equal_runs, shared_ranks


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A decided match as it counts by CL-14: match points, game points and whether it was a
    forfeit.

    Game points are in halves, and forfeits score no game points.
    """

    match: str
    home: str
    away: str
    home_points: Fraction
    away_points: Fraction
    home_half: int
    away_half: int
    forfeit: bool


def board_result(match: str, home: str, away: str, home_half: int, away_half: int) -> MatchResult:
    """CL-14: more game points wins the match and 1 point, and a draw gives ½ each."""
    if home_half > away_half:
        points = (ONE, ZERO)
    elif home_half < away_half:
        points = (ZERO, ONE)
    else:
        points = (HALF, HALF)
    return MatchResult(match, home, away, *points, home_half, away_half, False)


def forfeit_result(match: str, home: str, away: str, losers: Iterable[str]) -> MatchResult:
    """CL-5, CL-6, CL-15, CL-20 and CL-21: a club that forfeits scores 0 and its opponent 1.

    When both forfeit, both score 0.
    """
    lost = set(losers)
    return MatchResult(
        match,
        home,
        away,
        ZERO if home in lost else ONE,
        ZERO if away in lost else ONE,
        0,
        0,
        True,
    )


@dataclass(frozen=True, slots=True)
class ClubStanding:
    """One club's line in a division table, as docs/season-file.md shows the output."""

    rank: int | None
    club: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: Fraction
    game_points: Fraction
    sb: Fraction
    de: Fraction | None
    tied: bool
    disqualified: bool


def division_standings(
    clubs: Sequence[str], results: Sequence[MatchResult], disqualified: Iterable[str] = ()
) -> list[ClubStanding]:
    """CL-17: ranks a division by match points, then SB, then direct encounter.

    Direct encounter applies once, among the clubs still tied, and only when they all met. Remaining
    ties share the rank, as in 1, 2, 2, 4, and are listed in name order. Clubs disqualified by CL-DQ
    follow unranked, and no match of theirs counts for anyone. `results` are the division's decided
    matches.
    """
    out_clubs = set(disqualified)
    active = [c for c in clubs if c not in out_clubs]
    counted = [r for r in results if r.home not in out_clubs and r.away not in out_clubs]
    stats = {c: [0, 0, 0, 0, 0] for c in active}  # played, won, drawn, lost, game halves
    encounters = []
    for r in counted:
        mine, theirs = r.home_points, r.away_points
        encounters.append(Encounter(r.home, r.away, mine, theirs))
        home, away = stats[r.home], stats[r.away]
        home[0] += 1
        away[0] += 1
        if mine > theirs:
            home[1] += 1
            away[3] += 1
        elif mine < theirs:
            home[3] += 1
            away[1] += 1
        elif mine:
            home[2] += 1
            away[2] += 1
        else:  # a double forfeit (0:0) is a loss for both
            home[3] += 1
            away[3] += 1
        home[4] += r.home_half
        away[4] += r.away_half
    points = totals(encounters, active)
    sb = sonneborn_berger(encounters, points)
    score = {c: (points[c], sb[c]) for c in active}
    # Best first and ties in name order: the sort keeps the name order among equal scores.
    ordered = sorted(sorted(active), key=score.__getitem__, reverse=True)
    tiers: list[list[str]] = []  # clubs still tied after DE, best first, in name order
    de_shown: dict[str, Fraction] = {}
    for group in equal_runs(ordered, score.__getitem__):
        de_scores = direct_encounter(group, encounters) if len(group) > 1 else None
        if de_scores is not None and len(set(de_scores.values())) > 1:
            de_shown.update((str(club), value) for club, value in de_scores.items())
            by_de = sorted(group, key=lambda c: (-de_scores[c], c))
            tiers.extend(equal_runs(by_de, de_scores.__getitem__))
        else:
            tiers.append(group)
    table: list[ClubStanding] = []
    for rank, tier in shared_ranks(tiers):
        for club in tier:
            played, won, drawn, lost, half = stats[club]
            table.append(
                ClubStanding(
                    rank=rank,
                    club=club,
                    played=played,
                    won=won,
                    drawn=drawn,
                    lost=lost,
                    match_points=points[club],
                    game_points=Fraction(half, 2),
                    sb=sb[club],
                    de=de_shown.get(club),
                    tied=len(tier) > 1,
                    disqualified=False,
                )
            )
    for club in sorted(out_clubs & set(clubs)):
        table.append(ClubStanding(None, club, 0, 0, 0, 0, ZERO, ZERO, ZERO, None, False, True))
    return table
