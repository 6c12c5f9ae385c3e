"""How an event stands, as every card and page shows it: its status word and its winner.

A Regular or Major event is finished once its knock-out is over (CCT-8c). The Finals are under
way once drawn and finished once every match is decided, won by the one player first on match
points plus bonus, or tied for first for the organiser to decide (CCT-8f). Both are read from
the facts, not from a stored field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from bot.tour.store import LoadedEvent, LoadedTour
from core.tour.event_facts import finals_finished, finals_table, played_event
from core.tour.knockout import KnockoutError
from core.tour.ranking import EventType

FINISHED = "finished"
UNDER_WAY = "under way"
"""A drawn Finals with a match still to decide."""


@dataclass(frozen=True)
class EventState:
    """An event's status word, its winner once known, and the players sharing first place in
    finished Finals."""

    status: str
    winner: str | None = None
    tied_for_first: tuple[str, ...] = ()


def event_state(event: LoadedEvent, bonus: Mapping[str, Fraction]) -> EventState:
    """CCT-8c and CCT-8f: how `event` stands. `bonus` is the Finals' bonus per finalist and is
    read only for finished Finals. Finals whose stored facts do not replay stay under way, and
    `/finals standings` says what is wrong."""
    record = event.record
    facts = event.facts
    if record.type is EventType.FINALS:
        if not facts.players:
            return EventState(record.status)
        try:
            if not finals_finished(facts):
                return EventState(UNDER_WAY)
            table = finals_table(facts, bonus)
        except KnockoutError:
            return EventState(UNDER_WAY)
        leader = table.leader
        tied = tuple(str(p) for p in table.tied_for_first)
        return EventState(FINISHED, None if leader is None else str(leader), tied)
    played = played_event(facts)
    if played is None:
        return EventState(record.status)
    return EventState(FINISHED, str(played.tour_event().winner))


def tour_event_state(tour: LoadedTour, event: LoadedEvent) -> EventState:
    """How `event` of the loaded `tour` stands, with the Finals' bonus from the tour."""
    is_finals = event.record.type is EventType.FINALS
    return event_state(event, tour.finals_bonus(event) if is_finals else {})
