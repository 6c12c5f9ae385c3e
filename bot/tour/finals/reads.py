"""`/finals standings`: the CCT-8f Finals table and each match's state.

The table has each finalist's bonus from the tour points at the Finals' start, from the events
before them. It has match points of 3/0 and 2/1, the total and shared ranks, and it flags a tie for
first.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.tour.references import find_event, find_tour
from bot.tour.store import load_tour
from core.tour.event_facts import FinalsMatchState, finals_matches, finals_table
from core.tour.finals import FinalsStandings
from core.tour.knockout import KnockoutError
from core.tour.ranking import EventType
from storage.guild import GuildStore


@dataclass(frozen=True)
class FinalsCard:
    """The Finals' table, bonus per finalist and the matches."""

    event: str
    standings: FinalsStandings
    bonus: dict[str, Fraction]
    matches: tuple[FinalsMatchState, ...]


async def finals_card(store: GuildStore, event: str | int) -> FinalsCard:
    """CCT-8f: the table of the Finals `event` names."""
    async with store.read() as view:
        record = await find_event(view, event)
        if record.type is not EventType.FINALS:
            raise UserError(f"{named(record.name)} is not the Finals: `/event standings`.")
        tour = await load_tour(view, await find_tour(view, record.tour_id))
    loaded = next(e for e in tour.events if e.record.id == record.id)
    if not loaded.facts.players:
        raise UserError(f"{named(record.name)} has no draw yet (`/event draw`).")
    bonus = {str(p): b for p, b in tour.finals_bonus(loaded).items()}
    try:
        matches = finals_matches(loaded.facts)
        table = finals_table(loaded.facts, bonus)
    except KnockoutError as error:
        raise UserError(f"The Finals {named(record.name)}: {error}") from None
    return FinalsCard(record.name, table, bonus, matches)
