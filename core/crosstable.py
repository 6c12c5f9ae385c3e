"""Encounters between competitors and the tie-break primitives that individual and team standings
share: Sonneborn-Berger and its cut, Koya and direct encounter, by CORE-3, CORE-4 and CL-17.

A competitor is any hashable id, such as a pairing number or a club name. An `Encounter` is one game
or one team match with the points each side scored in it. Callers decide which encounters count: in
a round robin forfeits do and void ones do not.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
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
    """Total points per competitor over `encounters`. Listed competitors start at 0."""
    encounters = tuple(encounters)
    scale = _scale(encounters, {})
    if scale is not None:  # exact integers over `scale` (see `_scale`)
        sums: dict[Hashable, int] = dict.fromkeys(competitors, 0)
        for e in encounters:
            sums[e.first] = sums.get(e.first, 0) + _scaled(e.first_points, scale)
            sums[e.second] = sums.get(e.second, 0) + _scaled(e.second_points, scale)
        return {c: Fraction(v, scale) for c, v in sums.items()}
    score: dict[Hashable, Fraction] = {c: Fraction(0) for c in competitors}
    for e in encounters:
        score[e.first] = score.get(e.first, Fraction(0)) + e.first_points
        score[e.second] = score.get(e.second, Fraction(0)) + e.second_points
    return score


SCALE_LIMIT = 1024
"""The largest common denominator the products below are computed over as integers."""


def _scale(encounters: Sequence[Encounter], final: Mapping[Hashable, Fraction]) -> int | None:
    """A common denominator of every score involved, or None when none is small.

    With halves it is 2. Products are then exact integers over its square, which gives the same
    exact values as Fraction arithmetic without its cost per operation, as CORE-5 requires.
    """
    scale = 1
    for value in final.values():
        scale = math.lcm(scale, value.denominator)
    for e in encounters:
        scale = math.lcm(scale, e.first_points.denominator, e.second_points.denominator)
        if scale > SCALE_LIMIT:
            return None
    return scale if scale <= SCALE_LIMIT else None


def _scaled(value: Fraction, scale: int) -> int:
    return value.numerator * (scale // value.denominator)


def sonneborn_berger(
    encounters: Iterable[Encounter], final: Mapping[Hashable, Fraction]
) -> dict[Hashable, Fraction]:
    """CORE-3 SB / CL-17a team SB: Σ over encounters of opponent's final score × points scored."""
    encounters = tuple(encounters)
    scale = _scale(encounters, final)
    if scale is not None:
        of = {c: _scaled(v, scale) for c, v in final.items()}
        sums: dict[Hashable, int] = dict.fromkeys(final, 0)
        for e in encounters:
            sums[e.first] = sums.get(e.first, 0) + of[e.second] * _scaled(e.first_points, scale)
            sums[e.second] = sums.get(e.second, 0) + of[e.first] * _scaled(e.second_points, scale)
        return {c: Fraction(v, scale * scale) for c, v in sums.items()}
    sb: dict[Hashable, Fraction] = {c: Fraction(0) for c in final}
    for e in encounters:
        sb[e.first] = sb.get(e.first, Fraction(0)) + final[e.second] * e.first_points
        sb[e.second] = sb.get(e.second, Fraction(0)) + final[e.first] * e.second_points
    return sb


def sonneborn_berger_cut(
    encounters: Iterable[Encounter], final: Mapping[Hashable, Fraction], cut: int = 1
) -> dict[Hashable, Fraction]:
    """CORE-3 SB-C1, FIDE C.07 art. 14.1: SB without each competitor's `cut` least significant
    games.

    The lowest opponent's final score goes first, then the lowest contribution.
    """
    if cut < 0:
        raise ValueError(f"cannot cut {cut} values")
    encounters = tuple(encounters)
    scale = _scale(encounters, final)
    if scale is not None:  # the same order and sums over exact integers (see `_scale`)
        of = {c: _scaled(v, scale) for c, v in final.items()}
        scaled: dict[Hashable, list[tuple[int, int]]] = {c: [] for c in final}
        for e in encounters:
            first, second = of[e.first], of[e.second]
            scaled.setdefault(e.first, []).append((second, second * _scaled(e.first_points, scale)))
            scaled.setdefault(e.second, []).append((first, first * _scaled(e.second_points, scale)))
        return {
            c: Fraction(sum(part for _, part in sorted(values)[cut:]), scale * scale)
            for c, values in scaled.items()
        }
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
    """CORE-3 KS, Koya: points scored against competitors whose final score is at least `threshold`.

    FIDE C.07 sets the threshold at 50 % of the maximum possible score.
    """
    encounters = tuple(encounters)
    scale = _scale(encounters, final)
    if scale is not None:  # exact integers over `scale` (see `_scale`)
        strong = {c for c, v in final.items() if v >= threshold}
        sums: dict[Hashable, int] = dict.fromkeys(final, 0)
        for e in encounters:
            if e.second in strong:
                sums[e.first] = sums.get(e.first, 0) + _scaled(e.first_points, scale)
            if e.first in strong:
                sums[e.second] = sums.get(e.second, 0) + _scaled(e.second_points, scale)
        return {c: Fraction(v, scale) for c, v in sums.items()}
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
    """CORE-3 DE and CL-17b: points among `group` only, averaged per pair when pairs met more than
    once.

    Returns None when some pair of the group never met, since DE then does not apply.
    """
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
