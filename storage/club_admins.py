"""Club admins (CL-2..4): the Discord users of one guild linked to a chess.com club."""

from __future__ import annotations

from storage.database import Database, to_text


def normalise_club(club: str) -> str:
    """A chess.com club url-id as stored: trimmed and lower-case (chess.com ids are)."""
    club = club.strip().lower()
    if not club:
        raise ValueError("a club url-id cannot be empty")
    return club


class ClubAdminRepository:
    """Links between users and clubs in exactly one guild; every change is audited."""

    def __init__(self, database: Database, guild_id: int) -> None:
        self._database = database
        self.guild_id = guild_id

    async def add(self, actor_id: int | None, club: str, user_id: int) -> bool:
        """Make `user_id` an admin of `club`; False if they already were (nothing changes)."""
        club = normalise_club(club)
        async with self._database.change(
            guild_id=self.guild_id,
            actor_id=actor_id,
            action="club_admin.add",
            subject=f"club:{club}",
            details={"user_id": user_id},
        ) as transaction:
            await transaction.execute_or_abandon(
                "INSERT OR IGNORE INTO club_admins (guild_id, club, user_id, added_at)"
                " VALUES (?, ?, ?, ?)",
                (self.guild_id, club, user_id, to_text(transaction.now)),
            )
        return not transaction.unchanged

    async def remove(self, actor_id: int | None, club: str, user_id: int) -> bool:
        """Unlink `user_id` from `club`; False if they were not an admin (nothing changes)."""
        club = normalise_club(club)
        async with self._database.change(
            guild_id=self.guild_id,
            actor_id=actor_id,
            action="club_admin.remove",
            subject=f"club:{club}",
            details={"user_id": user_id},
        ) as transaction:
            await transaction.execute_or_abandon(
                "DELETE FROM club_admins WHERE guild_id = ? AND club = ? AND user_id = ?",
                (self.guild_id, club, user_id),
            )
        return not transaction.unchanged

    async def is_admin(self, club: str, user_id: int) -> bool:
        """Whether `user_id` is an admin of `club` in this guild."""
        async with self._database.read() as connection:
            cursor = await connection.execute(
                "SELECT 1 FROM club_admins WHERE guild_id = ? AND club = ? AND user_id = ?",
                (self.guild_id, normalise_club(club), user_id),
            )
            return await cursor.fetchone() is not None

    async def admins_of(self, club: str) -> list[int]:
        """The user ids of `club`'s admins in this guild, ascending."""
        async with self._database.read() as connection:
            cursor = await connection.execute(
                "SELECT user_id FROM club_admins WHERE guild_id = ? AND club = ? ORDER BY user_id",
                (self.guild_id, normalise_club(club)),
            )
            return [row[0] for row in await cursor.fetchall()]

    async def clubs_of(self, user_id: int) -> list[str]:
        """The clubs `user_id` administers in this guild, by name."""
        async with self._database.read() as connection:
            cursor = await connection.execute(
                "SELECT club FROM club_admins WHERE guild_id = ? AND user_id = ? ORDER BY club",
                (self.guild_id, user_id),
            )
            return [row[0] for row in await cursor.fetchall()]
