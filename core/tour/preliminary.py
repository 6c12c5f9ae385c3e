"""Ties in a preliminary's standings that the knock-out cannot start with (CCT-8b, CCT-8c):
a rank still shared after every CCT-8b criterion among the places that go on."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from core.standings import PlayerStanding
from core.tour.ranking import KNOCKOUT_PLACES


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
