"""Events of a guild's tours and their players, by CCT-2, CCT-8a, CCT-8c and CCT-16.

An event holds its type, size, start, 3rd-place match, tie-break reading and frozen rules. It holds
the draw with its seed and pairing numbers, the knock-out start with its seeds, the event's pin, and
the version every change bumps.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from core.names import name_key
from core.results import STANDARD, Scoring
from core.tiebreaks import DeReading
from core.tour.ranking import EventType, PointsTable
from core.tour.rules import ROUND_REMINDER_MINUTES
from core.tour.timecontrols import TimeControls
from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope
from storage.tour.codecs import event_rules_of, event_rules_text, event_scoring_of

EventStatus = Literal["setup", "preliminary", "knockout", "recorded"]


@dataclass(frozen=True)
class TourEventRecord:
    """An event as stored.

    `drawn_at` is set once the draw is made and `knockout_started_at` once the knock-out was built.
    `recorded` marks an event imported by its known results.
    """

    id: int
    guild_id: int
    tour_id: int
    position: int
    name: str
    type: EventType
    size: int
    start: dt.date
    third_place_match: bool
    reading: DeReading
    points: PointsTable | None
    time_controls: TimeControls
    draw_seed: str | None
    drawn_by: int | None
    drawn_at: dt.datetime | None
    lots_seed: str | None
    knockout_started_at: dt.datetime | None
    recorded: bool
    version: int
    pinned: bool = False
    """The event has a pinned message in `tour_pins`."""
    round_reminder_minutes: int = ROUND_REMINDER_MINUTES
    """How long before a round's start its pairings are posted and its players pinged, frozen."""
    scoring: Scoring = STANDARD
    """CCT-8a: the preliminary's game scoring, frozen and changeable before the draw."""

    @property
    def status(self) -> EventStatus:
        """Where the event stands.

        It is before the draw, in its preliminary or Finals round robin, in its knock-out, or
        imported by its results.
        """
        if self.recorded:
            return "recorded"
        if self.knockout_started_at is not None:
            return "knockout"
        return "preliminary" if self.drawn_at is not None else "setup"


@dataclass(frozen=True)
class EventPlayer:
    """A player's entry in an event.

    It holds the entry order, pairing number, knock-out seed, imported official place, and whether
    the organiser entered the player as a Finals wildcard by CCT-3.
    """

    player_id: int
    name: str
    user_id: int | None
    entry_no: int
    pairing_no: int | None
    ko_seed: int | None
    recorded_place: int | None
    wildcard: bool = False


@dataclass(frozen=True)
class FinalsDecline:
    """CCT-3: a player who declined the Finals, with the organiser's note, who recorded it
    and when."""

    player_id: int
    name: str
    note: str | None
    declined_by: int | None
    declined_at: dt.datetime


@dataclass(frozen=True)
class NewEvent:
    """What creating an event stores."""

    name: str
    type: EventType
    size: int
    start: dt.date
    third_place_match: bool
    reading: DeReading
    points: PointsTable | None
    time_controls: TimeControls
    round_reminder_minutes: int = ROUND_REMINDER_MINUTES
    scoring: Scoring = STANDARD


@dataclass(frozen=True)
class TourPin:
    """An event's pinned message: where it is, its outbox row and the event version it shows.

    The outbox row gives its Discord id once sent.
    """

    id: int
    event_id: int
    channel_id: int
    outbox_id: int
    message_id: int | None
    rendered_version: int
    event_version: int


_EVENT = (
    "SELECT id, guild_id, tour_id, position, name, type, size, start, third_place_match,"
    " tiebreaks, rules, draw_seed, drawn_by, drawn_at, lots_seed, knockout_started_at,"
    " recorded, version, EXISTS (SELECT 1 FROM tour_pins AS p WHERE p.event_id = tour_events.id)"
    " FROM tour_events"
)


_PIN = (
    "SELECT p.id, p.event_id, p.channel_id, p.outbox_id, o.message_id,"
    " p.rendered_version, e.version FROM tour_pins AS p"
    " JOIN tour_events AS e ON e.id = p.event_id AND e.guild_id = p.guild_id"
    " JOIN outbox AS o ON o.id = p.outbox_id"
)


def _instant(text: str | None) -> dt.datetime | None:
    return None if text is None else from_text(text)


def _event(row: Row) -> TourEventRecord:
    points, controls, reminder = event_rules_of(row[10])
    return TourEventRecord(
        id=row[0],
        guild_id=row[1],
        tour_id=row[2],
        position=row[3],
        name=row[4],
        type=EventType(row[5]),
        size=row[6],
        start=dt.date.fromisoformat(row[7]),
        third_place_match=bool(row[8]),
        reading=DeReading(row[9]),
        points=points,
        time_controls=controls,
        draw_seed=row[11],
        drawn_by=row[12],
        drawn_at=_instant(row[13]),
        lots_seed=row[14],
        knockout_started_at=_instant(row[15]),
        recorded=bool(row[16]),
        version=row[17],
        pinned=bool(row[18]),
        round_reminder_minutes=reminder,
        scoring=event_scoring_of(row[10]),
    )


class TourEventReader:
    """The tour events and event players of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, event_id: int) -> TourEventRecord | None:
        """The event with this id, or None. Another guild's id also gives None."""
        row = await self._scope.fetchone(
            f"{_EVENT} WHERE guild_id = ? AND id = ?", (self._scope.guild_id, event_id)
        )
        return None if row is None else _event(row)

    async def by_name(self, name: str, tour_id: int | None = None) -> list[TourEventRecord]:
        """The events of this name, compared case-insensitively, newest tour first.

        Only events of `tour_id` are read when it is given. Names are unique within a tour.
        """
        if not name.strip():
            return []
        tour_filter = " AND tour_id = ?" if tour_id is not None else ""
        parameters: tuple[object, ...] = (self._scope.guild_id, name_key(name))
        if tour_id is not None:
            parameters += (tour_id,)
        rows = await self._scope.fetchall(
            f"{_EVENT} WHERE guild_id = ? AND name_key = ?{tour_filter} ORDER BY tour_id DESC",
            parameters,
        )
        return [_event(row) for row in rows]

    async def of_tour(self, tour_id: int, type: EventType | None = None) -> list[TourEventRecord]:
        """The tour's events in tour order, or only those of `type`."""
        type_filter = "" if type is None else " AND type = ?"
        parameters: tuple[object, ...] = (self._scope.guild_id, tour_id)
        if type is not None:
            parameters += (type.value,)
        rows = await self._scope.fetchall(
            f"{_EVENT} WHERE guild_id = ? AND tour_id = ?{type_filter} ORDER BY position",
            parameters,
        )
        return [_event(row) for row in rows]

    async def version(self, event_id: int) -> int | None:
        """The event's version counter, or None if there is no such event."""
        row = await self._scope.fetchone(
            "SELECT version FROM tour_events WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, event_id),
        )
        return None if row is None else int(row[0])

    async def players(self, event_id: int) -> list[EventPlayer]:
        """The event's players in entry order."""
        rows = await self._scope.fetchall(
            "SELECT e.player_id, p.name, p.user_id, e.entry_no, e.pairing_no, e.ko_seed,"
            " e.recorded_place, e.wildcard FROM event_players AS e"
            " JOIN tour_players AS p ON p.id = e.player_id"
            " WHERE e.guild_id = ? AND e.event_id = ? ORDER BY e.entry_no",
            (self._scope.guild_id, event_id),
        )
        return [EventPlayer(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7])) for r in rows]

    async def declines(self, event_id: int) -> list[FinalsDecline]:
        """CCT-3: the players who declined the Finals `event_id`, in the order they did."""
        rows = await self._scope.fetchall(
            "SELECT d.player_id, p.name, d.note, d.declined_by, d.declined_at"
            " FROM finals_declines AS d JOIN tour_players AS p ON p.id = d.player_id"
            " WHERE d.guild_id = ? AND d.event_id = ? ORDER BY d.id",
            (self._scope.guild_id, event_id),
        )
        return [FinalsDecline(r[0], r[1], r[2], r[3], from_text(r[4])) for r in rows]

    async def events_of_player(self, player_id: int) -> list[int]:
        """The ids of the events the tour player is entered in."""
        rows = await self._scope.fetchall(
            "SELECT event_id FROM event_players WHERE guild_id = ? AND player_id = ?",
            (self._scope.guild_id, player_id),
        )
        return [int(row[0]) for row in rows]

    async def pin(self, event_id: int) -> TourPin | None:
        """The event's pin, with its Discord message id once sent, or None."""
        row = await self._scope.fetchone(
            f"{_PIN} WHERE p.guild_id = ? AND p.event_id = ?", (self._scope.guild_id, event_id)
        )
        return None if row is None else TourPin(*row)

    async def stale_pins(self) -> list[TourPin]:
        """The pins behind their event's version, posted ones first by id, which the pin refresher
        edits.

        A pin whose message is not in Discord yet has no message id.
        """
        rows = await self._scope.fetchall(
            f"{_PIN} WHERE p.guild_id = ? AND p.rendered_version < e.version"
            " ORDER BY o.message_id IS NULL, p.id",
            (self._scope.guild_id,),
        )
        return [TourPin(*row) for row in rows]


class TourEventRepository(TourEventReader):
    """The tour events of one guild inside a unit of work.

    Every change to an event bumps its version, once per unit of work.
    """

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self.bumped: set[int] = set()

    async def bump(self, event_id: int) -> None:
        """Marks the event changed, once per unit of work."""
        if event_id in self.bumped:
            return
        scope = self._write
        await scope.execute(
            "UPDATE tour_events SET version = version + 1 WHERE guild_id = ? AND id = ?",
            (scope.guild_id, event_id),
        )
        self.bumped.add(event_id)

    async def create(
        self, tour_id: int, event: NewEvent, *, created_by: int | None = None
    ) -> TourEventRecord:
        """A new event, last of its tour, with its rules frozen by CCT-16.

        A taken name raises IntegrityError.
        """
        scope = self._write
        new_id = await scope.insert(
            "INSERT INTO tour_events (guild_id, tour_id, position, name, name_key, type, size,"
            " start, third_place_match, tiebreaks, rules, created_by, created_at)"
            " SELECT ?, ?, coalesce(max(position), 0) + 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
            " FROM tour_events WHERE guild_id = ? AND tour_id = ?",
            (
                scope.guild_id,
                tour_id,
                event.name.strip(),
                name_key(event.name),
                event.type.value,
                event.size,
                event.start.isoformat(),
                int(event.third_place_match),
                event.reading.value,
                event_rules_text(
                    event.points, event.time_controls, event.round_reminder_minutes, event.scoring
                ),
                created_by,
                to_text(scope.now),
                scope.guild_id,
                tour_id,
            ),
        )
        scope.record("tour_events_created", {"event": new_id, "name": event.name})
        record = await self.get(new_id)
        assert record is not None
        return record

    async def set_points(
        self, event: TourEventRecord, points: PointsTable | None, scoring: Scoring
    ) -> bool:
        """CCT-6 and CCT-8a: replaces the event's own tour points table and preliminary scoring.

        By CCT-16 a drawn event keeps what it had, so this returns False once it is drawn.
        """
        scope = self._write
        await self.bump(event.id)
        text = event_rules_text(points, event.time_controls, event.round_reminder_minutes, scoring)
        cursor = await scope.execute(
            "UPDATE tour_events SET rules = ? WHERE guild_id = ? AND id = ?"
            " AND drawn_at IS NULL AND recorded = 0",
            (text, scope.guild_id, event.id),
        )
        scope.record("tour_event_points", {"event": event.id})
        return cursor.rowcount > 0

    async def add_player(
        self, event: TourEventRecord, player_id: int, *, wildcard: bool = False
    ) -> None:
        """Enters a tour player in the event, last in entry order.

        With `wildcard` the player enters as a Finals wildcard by CCT-3. Entering twice raises
        IntegrityError.
        """
        scope = self._write
        await self.bump(event.id)
        await scope.execute(
            "INSERT INTO event_players (guild_id, tour_id, event_id, player_id, entry_no,"
            " wildcard) SELECT ?, ?, ?, ?, coalesce(max(entry_no), 0) + 1, ? FROM event_players"
            " WHERE guild_id = ? AND event_id = ?",
            (
                scope.guild_id,
                event.tour_id,
                event.id,
                player_id,
                int(wildcard),
                scope.guild_id,
                event.id,
            ),
        )
        details: dict[str, object] = {"event": event.id, "player": player_id}
        if wildcard:
            details["wildcard"] = True
        scope.record("event_players_added", details)

    async def add_decline(
        self, event: TourEventRecord, player_id: int, note: str | None, by: int | None
    ) -> None:
        """CCT-3: the player declined the Finals `event`. Declining twice raises IntegrityError."""
        scope = self._write
        await self.bump(event.id)
        await scope.execute(
            "INSERT INTO finals_declines (guild_id, tour_id, event_id, player_id, note,"
            " declined_by, declined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (scope.guild_id, event.tour_id, event.id, player_id, note, by, to_text(scope.now)),
        )
        scope.record("finals_declines_added", {"event": event.id, "player": player_id})

    async def remove_decline(self, event_id: int, player_id: int) -> bool:
        """CCT-3: a decline withdrawn before the draw. Returns False when there was none."""
        return await self._remove_row("finals_declines", event_id, player_id)

    async def remove_player(self, event_id: int, player_id: int) -> bool:
        """Takes a player out of an event before the draw."""
        return await self._remove_row("event_players", event_id, player_id)

    async def _remove_row(self, table: str, event_id: int, player_id: int) -> bool:
        """Deletes the player's row of `table` for the event. Returns False when there was none."""
        scope = self._write
        await self.bump(event_id)
        cursor = await scope.execute(
            f"DELETE FROM {table} WHERE guild_id = ? AND event_id = ? AND player_id = ?",
            (scope.guild_id, event_id, player_id),
        )
        scope.record(f"{table}_removed", {"event": event_id, "player": player_id})
        return cursor.rowcount > 0

    async def record_draw(
        self,
        event_id: int,
        seed: str | None,
        numbers: Mapping[int, int],
        drawn_by: int | None,
    ) -> None:
        """CCT-8a: the draw, its seed and each player's pairing number.

        The seed is None when the numbers were drawn elsewhere and given. `numbers` maps player id
        to number.
        """
        scope = self._write
        await self.bump(event_id)
        await scope.execute(
            "UPDATE tour_events SET draw_seed = ?, drawn_by = ?, drawn_at = ?"
            " WHERE guild_id = ? AND id = ?",
            (seed, drawn_by, to_text(scope.now), scope.guild_id, event_id),
        )
        await scope.executemany(
            "UPDATE event_players SET pairing_no = ? WHERE guild_id = ? AND event_id = ?"
            " AND player_id = ?",
            [(number, scope.guild_id, event_id, player) for player, number in numbers.items()],
        )
        scope.record("tour_draws", {"event": event_id, "seed": seed})

    async def cancel_draw(self, event_id: int) -> bool:
        """CCT-8f: the draw undone, which clears its seed, who drew it and when, and every pairing
        number.

        The entries stay. Returns False when the event has no draw of its own to undo, because it is
        not drawn, was imported by its results, or its knock-out started.
        """
        scope = self._write
        await self.bump(event_id)
        cursor = await scope.execute(
            "UPDATE tour_events SET draw_seed = NULL, drawn_by = NULL, drawn_at = NULL"
            " WHERE guild_id = ? AND id = ? AND drawn_at IS NOT NULL AND recorded = 0"
            " AND knockout_started_at IS NULL",
            (scope.guild_id, event_id),
        )
        if cursor.rowcount == 0:
            return False
        await scope.execute(
            "UPDATE event_players SET pairing_no = NULL WHERE guild_id = ? AND event_id = ?",
            (scope.guild_id, event_id),
        )
        scope.record("tour_draws_cancelled", {"event": event_id})
        return True

    async def start_knockout(
        self, event_id: int, seeds: Sequence[int], lots_seed: str | None, by: int | None
    ) -> None:
        """CCT-8c: the knock-out built from preliminary places 1-8.

        `seeds` are player ids, 1st first. They are frozen with the drawing of lots that settled
        remaining ties, if any.
        """
        scope = self._write
        await self.bump(event_id)
        await scope.execute(
            "UPDATE tour_events SET knockout_started_at = ?, knockout_started_by = ?,"
            " lots_seed = ? WHERE guild_id = ? AND id = ?",
            (to_text(scope.now), by, lots_seed, scope.guild_id, event_id),
        )
        await scope.executemany(
            "UPDATE event_players SET ko_seed = ? WHERE guild_id = ? AND event_id = ?"
            " AND player_id = ?",
            [(place, scope.guild_id, event_id, p) for place, p in enumerate(seeds, start=1)],
        )
        scope.record("tour_knockouts", {"event": event_id, "seeds": list(seeds)})

    async def record_results(
        self, event_id: int, places: Mapping[int, int], seeds: Sequence[int]
    ) -> None:
        """An imported event: its official preliminary places and the knock-out seeds they give.

        The places map player id to place. The event is marked recorded.
        """
        scope = self._write
        await self.bump(event_id)
        now = to_text(scope.now)
        await scope.execute(
            "UPDATE tour_events SET recorded = 1, drawn_at = ?, knockout_started_at = ?"
            " WHERE guild_id = ? AND id = ?",
            (now, now if seeds else None, scope.guild_id, event_id),
        )
        seed_of = {p: place for place, p in enumerate(seeds, start=1)}
        await scope.executemany(
            "UPDATE event_players SET recorded_place = ?, pairing_no = ?, ko_seed = ?"
            " WHERE guild_id = ? AND event_id = ? AND player_id = ?",
            [
                (place, place, seed_of.get(p), scope.guild_id, event_id, p)
                for p, place in places.items()
            ],
        )

    async def add_pin(self, event_id: int, channel_id: int, outbox_id: int, by: int | None) -> None:
        """The event's pin, showing its current version. It replaces an earlier one."""
        scope = self._write
        await scope.execute(
            "INSERT INTO tour_pins (guild_id, event_id, channel_id, outbox_id,"
            " rendered_version, created_by, created_at)"
            " SELECT guild_id, id, ?, ?, version, ?, ? FROM tour_events"
            " WHERE guild_id = ? AND id = ?"
            " ON CONFLICT (event_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " outbox_id = excluded.outbox_id, rendered_version = excluded.rendered_version,"
            " created_by = excluded.created_by, created_at = excluded.created_at",
            (channel_id, outbox_id, by, to_text(scope.now), scope.guild_id, event_id),
        )

    async def pin_rendered(self, event_id: int, version: int) -> None:
        """The pin now shows the event at `version`."""
        scope = self._write
        await scope.execute(
            "UPDATE tour_pins SET rendered_version = ? WHERE guild_id = ? AND event_id = ?",
            (version, scope.guild_id, event_id),
        )


async def guilds_with_stale_event_pins(database: Database) -> list[int]:
    """Every guild holding an event pin that is posted and behind its event, for the start-up
    repair.

    Such a pin comes from a change committed while no refresher followed it.
    """
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT DISTINCT p.guild_id FROM tour_pins AS p"
            " JOIN tour_events AS e ON e.id = p.event_id JOIN outbox AS o ON o.id = p.outbox_id"
            " WHERE p.rendered_version < e.version AND o.message_id IS NOT NULL"
            " ORDER BY p.guild_id"
        )
        return [int(row[0]) for row in await cursor.fetchall()]
