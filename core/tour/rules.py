"""The rule settings a tour freezes when it is created, by CCT-16.

They are the event sizes, the top of the standings that qualifies, the tour points tables, the
preliminaries' game scoring, the appeal deadline and its zone, the reconnection window, how long a
report waits for the opponent, how long before a round's start its pairings are posted, the session
start and the Ambassador pool. Events take their own values from their tour's rules when created.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from core.results import STANDARD, Scoring
from core.tour.appeals import DEADLINE_TIME, DEFAULT_APPEAL_ZONE
from core.tour.disconnections import RECONNECT_WINDOW
from core.tour.preliminary import SCORINGS
from core.tour.prizes import AMBASSADOR_POOL_MINIMUM
from core.tour.qualification import TOP_OF_STANDINGS
from core.tour.ranking import DEFAULT_POINTS_TABLES, EVENT_SIZES, EventType, PointsTable

CONFIRM_HOURS = 12
"""SURFACE: a player's report waits this long for the opponent before the bot confirms it."""
ROUND_REMINDER_MINUTES = 60
"""SURFACE: how long before its start a round's pairings and colours are posted and its players
pinged.

It is an event setting, frozen when the event is created.
"""
MAX_REMINDER_MINUTES = 24 * 60
"""A round's reminder comes at most a day before it, since sessions are a day apart."""
SESSION_START = dt.time(17, 0)
"""*Interpretation:* playing sessions start at 17:00 in the appeals zone.

The regulation gives no time. The 2020-21 sessions started then, CET.
"""


@dataclass(frozen=True, slots=True)
class TourRules:
    """CCT-16: every setting a tour keeps as created, whatever the config says later."""

    sizes: Mapping[EventType, int] = field(default_factory=lambda: dict(EVENT_SIZES))
    qualifying_top: int = TOP_OF_STANDINGS
    points: Mapping[EventType, PointsTable] = field(
        default_factory=lambda: dict(DEFAULT_POINTS_TABLES)
    )
    appeal_deadline: dt.time = DEADLINE_TIME
    appeal_zone: str = DEFAULT_APPEAL_ZONE
    reconnect_seconds: int = int(RECONNECT_WINDOW.total_seconds())
    confirm_hours: int = CONFIRM_HOURS
    session_start: dt.time = SESSION_START
    ambassador_pool: int = AMBASSADOR_POOL_MINIMUM
    round_reminder_minutes: int = ROUND_REMINDER_MINUTES
    scoring: Scoring = STANDARD
    """CCT-8a: the game scoring of a new event's preliminary, 1/½/0 or 3/1/0."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", MappingProxyType(dict(self.sizes)))
        object.__setattr__(self, "points", MappingProxyType(dict(self.points)))
        if set(self.sizes) != set(EventType):
            raise ValueError("a tour needs a size for every event type (CCT-2)")
        if any(size < 3 for size in self.sizes.values()):
            raise ValueError("an event needs at least 3 players")
        if self.confirm_hours < 1:
            raise ValueError("a report waits at least one hour for the opponent")
        if self.scoring not in SCORINGS.values():
            raise ValueError("a preliminary scores 1/½/0 or 3/1/0 (CCT-8a)")
        if not 1 <= self.round_reminder_minutes <= MAX_REMINDER_MINUTES:
            raise ValueError(
                f"a round's reminder comes 1 to {MAX_REMINDER_MINUTES} minutes before its start"
            )

    @property
    def reconnect_window(self) -> dt.timedelta:
        """CCT-10: the time a disconnected player has to reconnect."""
        return dt.timedelta(seconds=self.reconnect_seconds)

    def points_table(self, event_type: EventType) -> PointsTable | None:
        """CCT-6: the tour points table of a new event of this type, None for the Finals."""
        return self.points.get(event_type)
