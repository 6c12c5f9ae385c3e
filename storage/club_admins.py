"""Club admins (CL-2..4): the Discord users of one guild linked to a chess.com club."""

from __future__ import annotations

from storage.database import to_text
from storage.scope import ReadScope, WriteScope


def normalise_club(club: str) -> str:
    """A chess.com club url-id as stored: trimmed and lower-case (chess.com ids are)."""
    club = club.strip().lower()
    if not club:
        raise ValueError("a club url-id cannot be empty")
    return club


class ClubAdminReader:
    """Links between users and clubs in exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def is_admin(self, club: str, user_id: int) -> bool:
        """Whether `user_id` is an admin of `club` in this guild."""
        row = await self._scope.fetchone(
            "SELECT 1 FROM club_admins WHERE guild_id = ? AND club = ? AND user_id = ?",
            (self._scope.guild_id, normalise_club(club), user_id),
        )
        return row is not None

    async def admins_of(self, club: str) -> list[int]:
        """The user ids of `club`'s admins in this guild, ascending."""
        rows = await self._scope.fetchall(
            "SELECT user_id FROM club_admins WHERE guild_id = ? AND club = ? ORDER BY user_id",
            (self._scope.guild_id, normalise_club(club)),
        )
        return [int(row[0]) for row in rows]

    async def clubs_of(self, user_id: int) -> list[str]:
        """The clubs `user_id` administers in this guild, by name."""
        rows = await self._scope.fetchall(
            "SELECT club FROM club_admins WHERE guild_id = ? AND user_id = ? ORDER BY club",
            (self._scope.guild_id, user_id),
        )
        return [str(row[0]) for row in rows]


class ClubAdminRepository(ClubAdminReader):
    """Links between users and clubs of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def add(self, club: str, user_id: int) -> bool:
        """Make `user_id` an admin of `club`; False if they already were (nothing changes)."""
        scope = self._write
        club = normalise_club(club)
        cursor = await scope.execute(
            "INSERT OR IGNORE INTO club_admins (guild_id, club, user_id, added_at)"
            " VALUES (?, ?, ?, ?)",
            (scope.guild_id, club, user_id, to_text(scope.now)),
        )
        if cursor.rowcount == 0:
            return False
        scope.record("club_admins_added", {"club": club, "user_id": user_id})
        return True

    async def remove(self, club: str, user_id: int) -> bool:
        """Unlink `user_id` from `club`; False if they were not an admin (nothing changes)."""
        scope = self._write
        club = normalise_club(club)
        cursor = await scope.execute(
            "DELETE FROM club_admins WHERE guild_id = ? AND club = ? AND user_id = ?",
            (scope.guild_id, club, user_id),
        )
        if cursor.rowcount == 0:
            return False
        scope.record("club_admins_removed", {"club": club, "user_id": user_id})
        return True
