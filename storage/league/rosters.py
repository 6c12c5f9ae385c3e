"""Players of one guild: closed accounts, roster links and roster removals.

Closed chess.com accounts of a season are kept by CL-19. A roster link ties a Discord user to a
chess.com username. Roster removals a club asks for are checked by CL-18 and CL-21.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal, cast

from storage.engine.codecs import from_text, instant_text, to_text
from storage.engine.scope import ReadScope, WriteScope
from storage.league.clubs import name_key
from storage.league.seasons import SeasonRepository

RemovalReason = Literal["multi-team", "timeouts", "other"]
Verification = Literal["pending", "verified", "refuted", "motion"]


@dataclass(frozen=True)
class ClosedAccount:
    """A chess.com account seen closed by CL-19: when, and the status chess.com gave."""

    username: str
    seen_at: dt.datetime | None = None
    status: str | None = None


@dataclass(frozen=True)
class RosterLink:
    """A chess.com username linked to a Discord user of the guild."""

    user_id: int
    username: str
    linked_by: int | None
    linked_at: dt.datetime


@dataclass(frozen=True)
class Removal:
    """A club's request to remove a player, and what the bot's verification found."""

    id: int
    season_id: int
    club_id: int
    username: str
    reason: RemovalReason
    note: str | None
    verification: Verification
    requested_by: int | None
    requested_at: dt.datetime
    motion_id: int | None = None
    """The CL-21 forfeit motion its verification opened, if any."""


_REMOVAL_COLUMNS = (
    "id, season_id, club_id, username, reason, note, verification, requested_by,"
    " requested_at, motion_id"
)


def _removal(r: Any) -> Removal:
    return Removal(
        r[0],
        r[1],
        r[2],
        r[3],
        cast(RemovalReason, r[4]),
        r[5],
        cast(Verification, r[6]),
        r[7],
        from_text(r[8]),
        r[9],
    )


class RosterReader:
    """Closed accounts, roster links and removals of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def closed_accounts(self, season_id: int) -> list[ClosedAccount]:
        """The season's closed accounts, by username."""
        rows = await self._scope.fetchall(
            "SELECT username, seen_at, status FROM closed_accounts"
            " WHERE guild_id = ? AND season_id = ? ORDER BY username_key",
            (self._scope.guild_id, season_id),
        )
        return [ClosedAccount(r[0], from_text(r[1]) if r[1] else None, r[2]) for r in rows]

    async def user_of(self, username: str) -> RosterLink | None:
        """Who a chess.com username is linked to, or None."""
        row = await self._scope.fetchone(
            "SELECT user_id, username, linked_by, linked_at FROM roster_links"
            " WHERE guild_id = ? AND username_key = ?",
            (self._scope.guild_id, name_key(username)),
        )
        return None if row is None else RosterLink(row[0], row[1], row[2], from_text(row[3]))

    async def removals(self, season_id: int, club_id: int | None = None) -> list[Removal]:
        """The season's removals, oldest first, only those of `club` when it is given."""
        where, extra = "", cast(tuple[Any, ...], ())
        if club_id is not None:
            where, extra = " AND club_id = ?", (club_id,)
        rows = await self._scope.fetchall(
            f"SELECT {_REMOVAL_COLUMNS} FROM roster_removals"
            f" WHERE guild_id = ? AND season_id = ?{where} ORDER BY id",
            (self._scope.guild_id, season_id, *extra),
        )
        return [_removal(r) for r in rows]

    async def removal(self, removal_id: int) -> Removal | None:
        """One removal of this guild, or None."""
        row = await self._scope.fetchone(
            f"SELECT {_REMOVAL_COLUMNS} FROM roster_removals WHERE guild_id = ? AND id = ?",
            (self._scope.guild_id, removal_id),
        )
        return None if row is None else _removal(row)


class RosterRepository(RosterReader):
    """Closed accounts, links and removals of one guild, changed inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self._seasons = SeasonRepository(scope)

    async def mark_closed(self, season_id: int, account: ClosedAccount) -> None:
        """CL-19: records or updates a closed account of the season."""
        scope = self._write
        await self._seasons.bump(season_id)
        await scope.execute(
            "INSERT INTO closed_accounts (guild_id, season_id, username, username_key, seen_at,"
            " status) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, username_key)"
            " DO UPDATE SET seen_at = excluded.seen_at, status = excluded.status",
            (
                scope.guild_id,
                season_id,
                account.username,
                name_key(account.username),
                instant_text(account.seen_at) if account.seen_at else None,
                account.status,
            ),
        )
        scope.record("closed_accounts", {"season": season_id, "username": account.username})

    async def link(self, user_id: int, username: str, linked_by: int | None) -> bool:
        """Links a chess.com username to a Discord user.

        Returns False, changing nothing, if it already belongs to another user.
        """
        scope = self._write
        current = await self.user_of(username)
        if current is not None and current.user_id != user_id:
            return False
        await scope.execute(
            "INSERT INTO roster_links (guild_id, user_id, username, username_key, linked_by,"
            " linked_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, username_key)"
            " DO UPDATE SET username = excluded.username, linked_by = excluded.linked_by,"
            " linked_at = excluded.linked_at",
            (scope.guild_id, user_id, username, name_key(username), linked_by, to_text(scope.now)),
        )
        scope.record("roster_links", {"user_id": user_id, "username": username})
        return True

    async def unlink(self, username: str) -> bool:
        """Forget who a chess.com username belongs to."""
        scope = self._write
        cursor = await scope.execute(
            "DELETE FROM roster_links WHERE guild_id = ? AND username_key = ?",
            (scope.guild_id, name_key(username)),
        )
        scope.record("roster_unlinks", {"username": username})
        return cursor.rowcount > 0

    async def record_removal(
        self,
        season_id: int,
        club_id: int,
        username: str,
        reason: RemovalReason,
        note: str | None = None,
        requested_by: int | None = None,
    ) -> int:
        """Records a club's removal request with its verification pending, and returns its id."""
        scope = self._write
        await self._seasons.bump(season_id)
        new_id = await scope.insert(
            "INSERT INTO roster_removals (guild_id, season_id, club_id, username, reason, note,"
            " requested_by, requested_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                scope.guild_id,
                season_id,
                club_id,
                username,
                reason,
                note,
                requested_by,
                to_text(scope.now),
            ),
        )
        scope.record("roster_removals", {"club": club_id, "username": username, "reason": reason})
        return new_id

    async def verify_removal(
        self, removal_id: int, outcome: Verification, motion_id: int | None = None
    ) -> bool:
        """Records what the verification of a removal found and the motion it opened."""
        scope = self._write
        row = await self._scope.fetchone(
            "SELECT season_id FROM roster_removals WHERE guild_id = ? AND id = ?",
            (scope.guild_id, removal_id),
        )
        if row is None:
            return False
        await self._seasons.bump(int(row[0]))
        await scope.execute(
            "UPDATE roster_removals SET verification = ?, motion_id = ?"
            " WHERE guild_id = ? AND id = ?",
            (outcome, motion_id, scope.guild_id, removal_id),
        )
        scope.record(
            "roster_verified", {"removal": removal_id, "outcome": outcome, "motion": motion_id}
        )
        return True
