"""Club admins by CL-2..4: the Discord users of one guild linked to one of its clubs.

A club is named by its id, or by text: its chess.com url-id or its display name. Adding an admin to
a chess.com url-id the guild does not know yet registers that club as pending, so HQ decides it.
Migration 0003 did the same for admins linked before clubs had rows.
"""

from __future__ import annotations

from storage.engine.codecs import to_text
from storage.engine.scope import ReadScope, WriteScope
from storage.league.clubs import ClubReader, ClubRepository, normalise_club

__all__ = ["ClubAdminReader", "ClubAdminRepository", "normalise_club"]


class ClubAdminReader:
    """Links between users and clubs in exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope
        self._clubs = ClubReader(scope)

    async def _club_id(self, club: str | int) -> int | None:
        found = await self._clubs.find(club)
        return None if found is None else found.id

    async def is_admin(self, club: str | int, user_id: int) -> bool:
        """Whether `user_id` is an admin of `club` in this guild."""
        club_id = await self._club_id(club)
        if club_id is None:
            return False
        row = await self._scope.fetchone(
            "SELECT 1 FROM club_admins WHERE guild_id = ? AND club_id = ? AND user_id = ?",
            (self._scope.guild_id, club_id, user_id),
        )
        return row is not None

    async def admins_of(self, club: str | int) -> list[int]:
        """The user ids of `club`'s admins in this guild, ascending."""
        club_id = await self._club_id(club)
        rows = await self._scope.fetchall(
            "SELECT user_id FROM club_admins WHERE guild_id = ? AND club_id = ? ORDER BY user_id",
            (self._scope.guild_id, club_id),
        )
        return [int(row[0]) for row in rows]

    async def clubs_of(self, user_id: int) -> list[str]:
        """The clubs `user_id` administers in this guild: chess.com url-id, else name."""
        rows = await self._scope.fetchall(
            "SELECT coalesce(c.chesscom_id, c.name) FROM club_admins AS a"
            " JOIN clubs AS c ON c.guild_id = a.guild_id AND c.id = a.club_id"
            " WHERE a.guild_id = ? AND a.user_id = ? ORDER BY 1",
            (self._scope.guild_id, user_id),
        )
        return [str(row[0]) for row in rows]

    async def club_ids_of(self, user_id: int) -> set[int]:
        """The ids of the clubs `user_id` administers in this guild, read in one query."""
        rows = await self._scope.fetchall(
            "SELECT club_id FROM club_admins WHERE guild_id = ? AND user_id = ?",
            (self._scope.guild_id, user_id),
        )
        return {int(row[0]) for row in rows}


class ClubAdminRepository(ClubAdminReader):
    """Links between users and clubs of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def add(self, club: str | int, user_id: int) -> bool:
        """Makes `user_id` an admin of `club`. Returns False, changing nothing, if they already
        were.

        An unknown club id raises LookupError and an unknown url-id registers a pending club.
        """
        scope = self._write
        club_id = await self._club_id(club)
        if club_id is None:
            if isinstance(club, int):
                raise LookupError(f"no club {club} in this guild")
            registered = await ClubRepository(scope).register(normalise_club(club), club)
            club_id = registered.id
        cursor = await scope.execute(
            "INSERT INTO club_admins (guild_id, club_id, user_id, added_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (scope.guild_id, club_id, user_id, to_text(scope.now)),
        )
        if cursor.rowcount == 0:
            return False
        scope.record("club_admins_added", {"club": club_id, "user_id": user_id})
        return True

    async def remove(self, club: str | int, user_id: int) -> bool:
        """Unlinks `user_id` from `club`. Returns False, changing nothing, if they were not an
        admin.
        """
        scope = self._write
        club_id = await self._club_id(club)
        if club_id is None:
            return False
        cursor = await scope.execute(
            "DELETE FROM club_admins WHERE guild_id = ? AND club_id = ? AND user_id = ?",
            (scope.guild_id, club_id, user_id),
        )
        if cursor.rowcount == 0:
            return False
        scope.record("club_admins_removed", {"club": club_id, "user_id": user_id})
        return True
