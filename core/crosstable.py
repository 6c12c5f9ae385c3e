"""Encounters between competitors and the tie-break primitives both individual and team
standings share: Sonneborn-Berger (and its cut), Koya and direct encounter (CORE-3, CORE-4,
CL-17).

A competitor is any hashable id (a pairing number, a club name). An `Encounter` is one
game (individual) or one match (team) with the points each side scored in it; callers
decide which encounters count (forfeits do, in a round robin; void ones do not).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations


@dataclass(frozen=True, slots=True)
class Encounter:
    """One counted game or match: the two competitors and the points each scored."""

    first: Hashable
    second: Hashable
    first_points: Fraction
    second_points: Fraction


def totals(
    encounters: Iterable[Encounter], competitors: Iterable[Hashable] = ()
) -> dict[Hashable, Fraction]:
    """Total points per competitor over `encounters` (competitors listed start at 0)."""
    score: dict[Hashable, Fraction] = {c: Fraction(0) for c in competitors}
    for e in encounters:
        score[e.first] = score.get(e.first, Fraction(0)) + e.first_points
        score[e.second] = score.get(e.second, Fraction(0)) + e.second_points
    return score


def sonneborn_berger(
    encounters: Iterable[Encounter], final: Mapping[Hashable, Fraction]
) -> dict[Hashable, Fraction]:
    """CORE-3 SB / CL-17a team SB: Σ over encounters of opponent's final score × points scored."""
    sb: dict[Hashable, Fraction] = {c: Fraction(0) for c in final}
    for e in encounters:
        sb[e.first] = sb.get(e.first, Fraction(0)) + final[e.second] * e.first_points
        sb[e.second] = sb.get(e.second, Fraction(0)) + final[e.first] * e.second_points
    return sb


def sonneborn_berger_cut(
    encounters: Iterable[Encounter], final: Mapping[Hashable, Fraction], cut: int = 1
) -> dict[Hashable, Fraction]:
    """CORE-3 SB-C1 (FIDE C.07 art. 14.1): SB without each competitor's `cut` least
    significant games: lowest opponent's final score first, then lowest contribution."""
    if cut < 0:
        raise ValueError(f"cannot cut {cut} values")
    parts: dict[Hashable, list[tuple[Fraction, Fraction]]] = {c: [] for c in final}
    for e in encounters:
        parts.setdefault(e.first, []).append((final[e.second], final[e.second] * e.first_points))
        parts.setdefault(e.second, []).append((final[e.first], final[e.first] * e.second_points))
    return {
        c: sum((part for _, part in sorted(values)[cut:]), Fraction(0))
        for c, values in parts.items()
    }


def koya(
    encounters: Iterable[Encounter], final: Mapping[Hashable, Fraction], threshold: Fraction
) -> dict[Hashable, Fraction]:
    """CORE-3 KS (Koya): points scored against competitors whose final score is at least
    `threshold` (50 % of the maximum possible score in FIDE C.07)."""
    ks: dict[Hashable, Fraction] = {c: Fraction(0) for c in final}
    for e in encounters:
        if final[e.second] >= threshold:
            ks[e.first] = ks.get(e.first, Fraction(0)) + e.first_points
        if final[e.first] >= threshold:
            ks[e.second] = ks.get(e.second, Fraction(0)) + e.second_points
    return ks


def direct_encounter(
    group: Iterable[Hashable], encounters: Iterable[Encounter]
) -> dict[Hashable, Fraction] | None:
    """CORE-3 DE / CL-17b: points among `group` only, averaged per pair when pairs met more
    than once; None when some pair of the group never met (DE then does not apply)."""
    members = set(group)
    per_pair: dict[frozenset[Hashable], list[tuple[Hashable, Fraction, Hashable, Fraction]]] = (
        defaultdict(list)
    )
    for e in encounters:
        if e.first in members and e.second in members and e.first != e.second:
            per_pair[frozenset((e.first, e.second))].append(
                (e.first, e.first_points, e.second, e.second_points)
            )
    if any(frozenset(pair) not in per_pair for pair in combinations(members, 2)):
        return None
    score: dict[Hashable, Fraction] = {c: Fraction(0) for c in members}
    for meetings in per_pair.values():
        count = len(meetings)
        for first, first_points, second, second_points in meetings:
            score[first] += first_points / count
            score[second] += second_points / count
    return score
