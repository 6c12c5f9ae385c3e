"""A preliminary's game scoring by CCT-8a, and the ties the knock-out cannot start with.

By CCT-8b and CCT-8c, such a tie is a rank still shared after every CCT-8b criterion among the
places that go on.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from types import MappingProxyType

from core.results import STANDARD, THREE_ONE_ZERO, Scoring
from core.standings import PlayerStanding
from core.tour.ranking import KNOCKOUT_PLACES

SCORINGS: Mapping[str, Scoring] = MappingProxyType({"1/½/0": STANDARD, "3/1/0": THREE_ONE_ZERO})
"""CCT-8a: the configured game scorings a preliminary may use, by name.

They are the regulation's 1 / ½ / 0, and 3 / 1 / 0 as later seasons used. An event freezes its own
by CCT-16.
"""


def scoring_name(scoring: Scoring) -> str:
    """CCT-8a: the name of a preliminary's game scoring, `1/½/0` or `3/1/0`."""
    for key, known in SCORINGS.items():
        if known == scoring:
            return key
    raise ValueError("a preliminary scores 1/½/0 or 3/1/0 (CCT-8a)")


def ties_for_places_going_on(
    rows: Sequence[PlayerStanding], places: int = KNOCKOUT_PLACES
) -> tuple[tuple[Hashable, ...], ...]:
    """CCT-8b and CCT-8c: the groups of players still sharing a rank within the first `places`
    places.

    By default these are places 1-8, which go on to the knock-out with each place in its own bracket
    slot. A play-off is required before the knock-out. A tie wholly below them stands. A tie that a
    drawing of lots decided, marked `by_lot`, is no longer shared.
    """
    groups: dict[int, list[Hashable]] = {}
    for row in rows:
        if row.tied and row.rank <= places:
            groups.setdefault(row.rank, []).append(row.player)
    return tuple(tuple(group) for _, group in sorted(groups.items()))
