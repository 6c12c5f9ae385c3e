"""A preliminary's game scoring (CCT-8a) and the ties in its standings that the knock-out
cannot start with (CCT-8b, CCT-8c): a rank still shared after every CCT-8b criterion among
the places that go on."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType

from core.results import STANDARD, THREE_ONE_ZERO, Scoring
from core.standings import PlayerStanding
from core.tour.ranking import KNOCKOUT_PLACES

SCORINGS: Mapping[str, Scoring] = MappingProxyType({"1/½/0": STANDARD, "3/1/0": THREE_ONE_ZERO})
"""CCT-8a (config): the game scorings a preliminary may use, by name: 1 / ½ / 0 (the
regulation's), or 3 / 1 / 0 as later seasons used. An event freezes its own (CCT-16)."""


def scoring_name(scoring: Scoring) -> str:
    """CCT-8a: the name of a preliminary's game scoring (`1/½/0` or `3/1/0`)."""
    for key, known in SCORINGS.items():
        if known == scoring:
            return key
    raise ValueError("a preliminary scores 1/½/0 or 3/1/0 (CCT-8a)")


def ties_for_places_going_on(
    rows: Sequence[PlayerStanding], places: int = KNOCKOUT_PLACES
) -> tuple[tuple[Hashable, ...], ...]:
    """CCT-8b/8c: the groups of players still sharing a rank within the first `places`
    places (default 1-8, which go on to the knock-out, each place to its own bracket slot):
    a play-off is required before the knock-out. A tie wholly below them stands; a tie a
    drawing of lots decided (`by_lot`) is no longer shared."""
    groups: dict[int, list[Hashable]] = {}
    for row in rows:
        if row.tied and row.rank <= places:
            groups.setdefault(row.rank, []).append(row.player)
    return tuple(tuple(group) for _, group in sorted(groups.items()))
