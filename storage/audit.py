"""Reading a guild's audit trail (rows are written by `Database.change`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.database import Database, from_text


@dataclass(frozen=True)
class AuditEntry:
    """One audited change: who did what to which subject, when, with what details."""

    id: int
    guild_id: int
    actor_id: int | None
    action: str
    subject: str
    details: dict[str, Any]
    at: datetime


class AuditRepository:
    """The audit rows of exactly one guild."""

    def __init__(self, database: Database, guild_id: int) -> None:
        self._database = database
        self.guild_id = guild_id

    async def recent(self, limit: int = 50) -> list[AuditEntry]:
        """The latest `limit` entries, oldest first."""
        async with self._database.read() as connection:
            cursor = await connection.execute(
                "SELECT id, guild_id, actor_id, action, subject, details, at FROM audit"
                " WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (self.guild_id, limit),
            )
            rows = await cursor.fetchall()
        return [
            AuditEntry(
                id=row["id"],
                guild_id=row["guild_id"],
                actor_id=row["actor_id"],
                action=row["action"],
                subject=row["subject"],
                details=json.loads(row["details"]),
                at=from_text(row["at"]),
            )
            for row in reversed(list(rows))
        ]
