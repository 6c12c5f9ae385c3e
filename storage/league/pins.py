"""The league's standings pins: the message per division of a season that the bot keeps up to
date, and which of them show an older version of their season than the database holds (stale).

An event's pin is stored with its event, in storage/tour/events.py. The bot keeps both kinds up
to date in bot/runtime/pin_refresher.py."""

from __future__ import annotations

from dataclasses import dataclass

from storage.engine.codecs import to_text
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope


@dataclass(frozen=True)
class Pin:
    """A pinned standings message: where it is, the outbox row that posted it and the season version
    it shows.

    The outbox row gives its Discord id once sent.
    """

    id: int
    guild_id: int
    season_id: int
    division_id: int
    channel_id: int
    outbox_id: int
    message_id: int | None
    rendered_version: int
    season_version: int


_SELECT = (
    "SELECT p.id, p.guild_id, p.season_id, p.division_id, p.channel_id, p.outbox_id,"
    " o.message_id, p.rendered_version, s.version FROM standings_pins AS p"
    " JOIN seasons AS s ON s.id = p.season_id AND s.guild_id = p.guild_id"
    " JOIN outbox AS o ON o.id = p.outbox_id"
)


class PinReader:
    """The standings pins of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def of_season(self, season_id: int) -> list[Pin]:
        """The season's pins, by division."""
        rows = await self._scope.fetchall(
            f"{_SELECT} WHERE p.guild_id = ? AND p.season_id = ? ORDER BY p.division_id",
            (self._scope.guild_id, season_id),
        )
        return [Pin(*row) for row in rows]

    async def stale(self) -> list[Pin]:
        """Pins whose message was posted and shows an older version than its season's."""
        rows = await self._scope.fetchall(
            f"{_SELECT} WHERE p.guild_id = ? AND p.rendered_version < s.version"
            " AND o.message_id IS NOT NULL ORDER BY p.id",
            (self._scope.guild_id,),
        )
        return [Pin(*row) for row in rows]

    async def unsent_stale(self) -> bool:
        """Whether a pin behind its season waits for its own message to reach Discord.

        Its edit needs the message's id.
        """
        row = await self._scope.fetchone(
            f"{_SELECT} WHERE p.guild_id = ? AND p.rendered_version < s.version"
            " AND o.message_id IS NULL LIMIT 1",
            (self._scope.guild_id,),
        )
        return row is not None


class PinRepository(PinReader):
    """The standings pins of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def pin(
        self,
        season_id: int,
        division_id: int,
        channel_id: int,
        outbox_id: int,
        version: int,
        created_by: int | None,
    ) -> None:
        """Pins the division's standings to the message posted by `outbox_id`.

        It replaces any earlier pin of that division.
        """
        scope = self._write
        await scope.execute(
            "INSERT INTO standings_pins (guild_id, season_id, division_id, channel_id,"
            " outbox_id, rendered_version, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (season_id, division_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " outbox_id = excluded.outbox_id, rendered_version = excluded.rendered_version,"
            " created_by = excluded.created_by, created_at = excluded.created_at",
            (
                scope.guild_id,
                season_id,
                division_id,
                channel_id,
                outbox_id,
                version,
                created_by,
                to_text(scope.now),
            ),
        )
        scope.record("pin", {"season_id": season_id, "division_id": division_id})

    async def rendered(self, pin_id: int, version: int) -> bool:
        """Records that the pin's message now shows `version`. The version only ever moves
        forward.
        """
        cursor = await self._write.execute(
            "UPDATE standings_pins SET rendered_version = ?"
            " WHERE id = ? AND guild_id = ? AND rendered_version < ?",
            (version, pin_id, self._write.guild_id, version),
        )
        return cursor.rowcount == 1


async def guilds_with_stale_pins(database: Database) -> list[int]:
    """Every guild holding a stale, posted pin, for the start-up repair."""
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT DISTINCT p.guild_id FROM standings_pins AS p"
            " JOIN seasons AS s ON s.id = p.season_id JOIN outbox AS o ON o.id = p.outbox_id"
            " WHERE p.rendered_version < s.version AND o.message_id IS NOT NULL"
            " ORDER BY p.guild_id"
        )
        return [int(row[0]) for row in await cursor.fetchall()]
