"""An arbiter's records of a guild's tour events.

They are disconnection incidents with their computed outcome by CCT-10, and fair-play appeals with
their deadline and decision by CCT-11.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal, cast

from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope

Outcome = Literal["continue", "paused", "lost"]
AppealStatus = Literal["open", "upheld", "dismissed"]


@dataclass(frozen=True)
class Incident:
    """CCT-10: a disconnection during a game, as the arbiter gave it, and its ruling."""

    id: int
    event_id: int
    game: str
    player_id: int
    clock_seconds: int
    reconnected: bool
    offline_seconds: int | None
    backup: bool
    outcome: Outcome
    clock_after: int | None
    reason: str
    recorded_by: int | None
    recorded_at: dt.datetime


@dataclass(frozen=True)
class NewIncident:
    """What recording an incident stores."""

    game: str
    player_id: int
    clock_seconds: int
    reconnected: bool
    offline_seconds: int | None
    backup: bool
    outcome: Outcome
    clock_after: int | None
    reason: str


@dataclass(frozen=True)
class Appeal:
    """CCT-11: a fair-play appeal lodged in time, its deadline and decision."""

    id: int
    event_id: int
    game: str
    player_id: int
    lodged_by: int
    text: str
    lodged_at: dt.datetime
    deadline: dt.datetime
    status: AppealStatus
    decided_by: int | None
    decided_at: dt.datetime | None
    reason: str | None


_INCIDENT = (
    "SELECT id, event_id, game, player_id, clock_seconds, reconnected, offline_seconds, backup,"
    " outcome, clock_after, reason, recorded_by, recorded_at FROM tour_incidents"
)
_APPEAL = (
    "SELECT id, event_id, game, player_id, lodged_by, text, lodged_at, deadline, status,"
    " decided_by, decided_at, reason FROM tour_appeals"
)


def _incident(row: Row) -> Incident:
    return Incident(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        bool(row[5]),
        row[6],
        bool(row[7]),
        cast(Outcome, row[8]),
        row[9],
        row[10],
        row[11],
        from_text(row[12]),
    )


def _appeal(row: Row) -> Appeal:
    return Appeal(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        from_text(row[6]),
        from_text(row[7]),
        cast(AppealStatus, row[8]),
        row[9],
        None if row[10] is None else from_text(row[10]),
        row[11],
    )


class TourRulingReader:
    """The incidents and appeals of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def incidents(self, event_id: int) -> list[Incident]:
        """CCT-10: the event's incidents, oldest first."""
        rows = await self._scope.fetchall(
            f"{_INCIDENT} WHERE guild_id = ? AND event_id = ? ORDER BY id",
            (self._scope.guild_id, event_id),
        )
        return [_incident(row) for row in rows]

    async def appeals(self, event_id: int) -> list[Appeal]:
        """CCT-11: the event's appeals, oldest first."""
        rows = await self._scope.fetchall(
            f"{_APPEAL} WHERE guild_id = ? AND event_id = ? ORDER BY id",
            (self._scope.guild_id, event_id),
        )
        return [_appeal(row) for row in rows]

    async def appeal(self, appeal_id: int) -> Appeal | None:
        """The appeal with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"{_APPEAL} WHERE guild_id = ? AND id = ?", (self._scope.guild_id, appeal_id)
        )
        return None if row is None else _appeal(row)

    async def recent_appeals(self, text: str, limit: int = 200) -> list[Appeal]:
        """Appeals whose id, game or text holds `text`, open first, then newest first."""
        typed = text.strip().casefold().replace("%", "").replace("_", "")
        like = "%" + typed.replace("\\", "\\\\") + "%"
        rows = await self._scope.fetchall(
            f"{_APPEAL} WHERE guild_id = ? AND (CAST(id AS TEXT) LIKE ? ESCAPE '\\'"
            " OR lower(game) LIKE ? ESCAPE '\\' OR lower(text) LIKE ? ESCAPE '\\')"
            " ORDER BY status <> 'open', id DESC LIMIT ?",
            (self._scope.guild_id, like, like, like, limit),
        )
        return [_appeal(row) for row in rows]


class TourRulingRepository(TourRulingReader):
    """The incidents and appeals of one guild inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def add_incident(self, event_id: int, incident: NewIncident, by: int | None) -> int:
        """CCT-10: record a disconnection and its ruling."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_incidents (guild_id, event_id, game, player_id, clock_seconds,"
            " reconnected, offline_seconds, backup, outcome, clock_after, reason, recorded_by,"
            " recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                event_id,
                incident.game,
                incident.player_id,
                incident.clock_seconds,
                int(incident.reconnected),
                incident.offline_seconds,
                int(incident.backup),
                incident.outcome,
                incident.clock_after,
                incident.reason,
                by,
                to_text(scope.now),
            ),
        )
        scope.record("tour_incidents", {"id": new_id, "outcome": incident.outcome})
        return new_id

    async def add_appeal(
        self,
        event_id: int,
        game: str,
        player_id: int,
        lodged_by: int,
        text: str,
        deadline: dt.datetime,
    ) -> int:
        """CCT-11: records an appeal lodged in time, now, with its deadline."""
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_appeals (guild_id, event_id, game, player_id, lodged_by, text,"
            " lodged_at, deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                event_id,
                game,
                player_id,
                lodged_by,
                text,
                to_text(scope.now),
                to_text(deadline),
            ),
        )
        scope.record("tour_appeals", {"id": new_id})
        return new_id

    async def decide_appeal(
        self, appeal_id: int, status: AppealStatus, reason: str, by: int | None
    ) -> bool:
        """CCT-11: an arbiter's decision on an open appeal. Returns False if it was not open."""
        scope = self._write
        cursor = await scope.execute(
            "UPDATE tour_appeals SET status = ?, reason = ?, decided_by = ?, decided_at = ?"
            " WHERE guild_id = ? AND id = ? AND status = 'open'",
            (status, reason, by, to_text(scope.now), scope.guild_id, appeal_id),
        )
        scope.record("tour_appeal_decisions", {"id": appeal_id, "status": status})
        return cursor.rowcount > 0
