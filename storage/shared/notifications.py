"""Members' choices of direct messages, and whose direct messages Discord refused.

A choice is stored only once a member makes it with `/notify`. Until then the kind's default
applies, which `bot/kernel/notifications.py` holds. Kinds are plain text here.
"""

from __future__ import annotations

from collections.abc import Iterable

from storage.engine.codecs import to_text
from storage.engine.scope import ReadScope, WriteScope


class NotificationReader:
    """Reads the notification choices of exactly one guild's members."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def choices(self, user_id: int) -> dict[str, bool]:
        """The kinds `user_id` chose, each with whether it is on."""
        rows = await self._scope.fetchall(
            "SELECT kind, enabled FROM notification_choices WHERE guild_id = ? AND user_id = ?"
            " ORDER BY kind",
            (self._scope.guild_id, user_id),
        )
        return {str(row["kind"]): bool(row["enabled"]) for row in rows}

    async def choices_of(self, user_ids: Iterable[int], kind: str) -> dict[int, bool]:
        """The choice of `kind` of each of `user_ids` who made one."""
        users = sorted(set(user_ids))
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self._scope.fetchall(
            "SELECT user_id, enabled FROM notification_choices"
            f" WHERE guild_id = ? AND kind = ? AND user_id IN ({marks})",
            (self._scope.guild_id, kind, *users),
        )
        return {int(row["user_id"]): bool(row["enabled"]) for row in rows}

    async def closed(self, user_ids: Iterable[int]) -> set[int]:
        """Those of `user_ids` whose direct messages Discord refused since they last ran
        `/notify`."""
        users = sorted(set(user_ids))
        if not users:
            return set()
        marks = ", ".join("?" for _ in users)
        rows = await self._scope.fetchall(
            f"SELECT user_id FROM closed_dms WHERE guild_id = ? AND user_id IN ({marks})",
            (self._scope.guild_id, *users),
        )
        return {int(row["user_id"]) for row in rows}


class NotificationRepository(NotificationReader):
    """Changes one guild's notification choices inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def choose(self, user_id: int, kind: str, enabled: bool) -> None:
        """Stores `user_id`'s choice of `kind`, replacing an earlier one."""
        scope = self._write
        await scope.execute(
            "INSERT INTO notification_choices (guild_id, user_id, kind, enabled, changed_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, kind)"
            " DO UPDATE SET enabled = excluded.enabled, changed_at = excluded.changed_at",
            (scope.guild_id, user_id, kind, int(enabled), to_text(scope.now)),
        )
        scope.record("notification", {"user_id": user_id, "kind": kind, "enabled": enabled})

    async def forget(self, user_id: int) -> int:
        """Deletes every choice of `user_id`, so the defaults apply again. Returns how many."""
        scope = self._write
        cursor = await scope.execute(
            "DELETE FROM notification_choices WHERE guild_id = ? AND user_id = ?",
            (scope.guild_id, user_id),
        )
        scope.record("notification", {"user_id": user_id, "forgotten": cursor.rowcount})
        return cursor.rowcount

    async def mark_closed(self, user_id: int) -> None:
        """Notes that Discord refused a direct message to `user_id` (50007)."""
        scope = self._write
        await scope.execute(
            "INSERT INTO closed_dms (guild_id, user_id, closed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO NOTHING",
            (scope.guild_id, user_id, to_text(scope.now)),
        )
        scope.record("closed_dms", {"user_id": user_id})

    async def reopen(self, user_id: int) -> bool:
        """Forgets that `user_id`'s direct messages were refused, so they are tried again.

        Returns False if they were not marked.
        """
        scope = self._write
        cursor = await scope.execute(
            "DELETE FROM closed_dms WHERE guild_id = ? AND user_id = ?", (scope.guild_id, user_id)
        )
        return cursor.rowcount > 0
