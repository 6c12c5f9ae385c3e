"""Clubs of one guild by CL-2..4: chess.com url-id, display name, HQ's decision and reminder
channel.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, cast

from core.names import name_key as name_key  # the key of clubs.name_key, seasons.name_key
from storage.engine.codecs import from_text, to_text
from storage.engine.connection import Row
from storage.engine.scope import ReadScope, WriteScope

ClubStatus = Literal["pending", "approved", "rejected", "excluded", "withdrawn"]
CLUB_STATUSES: tuple[ClubStatus, ...] = ("pending", "approved", "rejected", "excluded", "withdrawn")


def normalise_club(club: str) -> str:
    """A chess.com club url-id as stored: trimmed and lower-case, as chess.com ids are."""
    club = club.strip().lower()
    if not club:
        raise ValueError("a club url-id cannot be empty")
    return club


@dataclass(frozen=True)
class Club:
    """A club of one guild. `chesscom_id` is None for a club imported without one."""

    id: int
    guild_id: int
    name: str
    chesscom_id: str | None
    status: ClubStatus
    decided_by: int | None
    decided_at: datetime | None
    reason: str | None
    reminder_channel_id: int | None
    registered_by: int | None
    created_at: datetime


_COLUMNS = (
    "id, guild_id, name, chesscom_id, status, decided_by, decided_at, reason,"
    " reminder_channel_id, registered_by, created_at"
)

"""`_COLUMNS` of the table named `c` in a query."""


def _club(row: Row) -> Club:
    return Club(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        chesscom_id=row["chesscom_id"],
        status=cast(ClubStatus, row["status"]),
        decided_by=row["decided_by"],
        decided_at=from_text(row["decided_at"]) if row["decided_at"] else None,
        reason=row["reason"],
        reminder_channel_id=row["reminder_channel_id"],
        registered_by=row["registered_by"],
        created_at=from_text(row["created_at"]),
    )


class ClubReader:
    """The clubs of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def _one(self, where: str, *parameters: Any) -> Club | None:
        row = await self._scope.fetchone(
            f"SELECT {_COLUMNS} FROM clubs WHERE guild_id = ? AND {where}",
            (self._scope.guild_id, *parameters),
        )
        return None if row is None else _club(row)

    async def get(self, club_id: int) -> Club | None:
        """The club with this id, or None. Another guild's id also gives None."""
        return await self._one("id = ?", club_id)

    async def pair(self, first: int, second: int) -> tuple[Club | None, Club | None]:
        """The two clubs of a match with these ids, read in one query. An unknown id gives None."""
        rows = await self._scope.fetchall(
            f"SELECT {_COLUMNS} FROM clubs WHERE guild_id = ? AND id IN (?, ?)",
            (self._scope.guild_id, first, second),
        )
        found = {club.id: club for club in map(_club, rows)}
        return found.get(first), found.get(second)

    async def by_name(self, name: str) -> Club | None:
        """The club with this display name, compared case-insensitively."""
        return await self._one("name_key = ?", name_key(name))

    async def by_chesscom(self, url_id: str) -> Club | None:
        """The club registered for this chess.com url-id."""
        return await self._one("chesscom_id = ?", normalise_club(url_id))

    async def find(self, reference: str | int) -> Club | None:
        """A club by id, chess.com url-id or display name, tried in that order."""
        if isinstance(reference, int):
            return await self.get(reference)
        if not reference.strip():
            return None
        return await self.by_chesscom(reference) or await self.by_name(reference)

    async def names_in_division(self, division_id: int) -> dict[int, str]:
        """The names of a division's clubs, by id."""
        rows = await self._scope.fetchall(
            "SELECT c.id, c.name FROM division_clubs AS m JOIN clubs AS c ON c.id = m.club_id"
            " WHERE m.guild_id = ? AND m.division_id = ? AND c.guild_id = m.guild_id",
            (self._scope.guild_id, division_id),
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def all(self, status: ClubStatus | None = None) -> list[Club]:
        """The guild's clubs by name, only those of `status` when it is given."""
        where, parameters = "", cast(tuple[Any, ...], ())
        if status is not None:
            where, parameters = " AND status = ?", (status,)
        rows = await self._scope.fetchall(
            f"SELECT {_COLUMNS} FROM clubs WHERE guild_id = ?{where} ORDER BY name_key",
            (self._scope.guild_id, *parameters),
        )
        return [_club(row) for row in rows]


class ClubRepository(ClubReader):
    """The clubs of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def register(
        self,
        name: str,
        chesscom_id: str | None = None,
        *,
        status: ClubStatus = "pending",
        registered_by: int | None = None,
        decided_by: int | None = None,
    ) -> Club:
        """Adds a club, pending unless `status` says otherwise, as for an imported season's clubs.

        The name and the chess.com url-id must be new to the guild, or
        storage.engine.errors.IntegrityError is raised.
        """
        scope = self._write
        url_id = normalise_club(chesscom_id) if chesscom_id is not None else None
        now = to_text(scope.now)
        club_id = await scope.insert(
            "INSERT INTO clubs (guild_id, chesscom_id, name, name_key, status, decided_by,"
            " decided_at, registered_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                url_id,
                name.strip(),
                name_key(name),
                status,
                decided_by if status != "pending" else None,
                now if status != "pending" else None,
                registered_by,
                now,
            ),
        )
        scope.record("clubs_registered", {"club": club_id, "name": name, "status": status})
        club = await self.get(club_id)
        assert club is not None
        return club

    async def decide(
        self, club_id: int, status: ClubStatus, decided_by: int | None, reason: str | None = None
    ) -> Club | None:
        """Sets a club's status with who decided, when and why. Returns None if there is no such
        club.
        """
        scope = self._write
        cursor = await scope.execute(
            "UPDATE clubs SET status = ?, decided_by = ?, decided_at = ?, reason = ?"
            " WHERE guild_id = ? AND id = ?",
            (status, decided_by, to_text(scope.now), reason, scope.guild_id, club_id),
        )
        if cursor.rowcount == 0:
            return None
        scope.record("clubs_decided", {"club": club_id, "status": status, "reason": reason})
        return await self.get(club_id)

    async def reopen(self, club_id: int, name: str, registered_by: int | None) -> Club | None:
        """CL-2..4: a rejected club registers again and is pending once more under `name`.

        Its earlier decision is cleared, while its history stays in the audit. Returns None if there
        is no such club.
        """
        scope = self._write
        cursor = await scope.execute(
            "UPDATE clubs SET status = 'pending', decided_by = NULL, decided_at = NULL,"
            " reason = NULL, name = ?, name_key = ?, registered_by = ?"
            " WHERE guild_id = ? AND id = ?",
            (name, name_key(name), registered_by, scope.guild_id, club_id),
        )
        if cursor.rowcount == 0:
            return None
        scope.record("clubs_reopened", {"club": club_id})
        return await self.get(club_id)

    async def set_reminder_channel(self, club_id: int, channel_id: int | None) -> bool:
        """Sends the club's reminders to `channel_id`, or to the announcements channel for None."""
        scope = self._write
        cursor = await scope.execute(
            "UPDATE clubs SET reminder_channel_id = ? WHERE guild_id = ? AND id = ?",
            (channel_id, scope.guild_id, club_id),
        )
        if cursor.rowcount == 0:
            return False
        scope.record("clubs_channel", {"club": club_id, "channel": channel_id})
        return True
