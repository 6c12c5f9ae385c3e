"""Reads a guild's audit trail. Each unit of work writes one row, see `storage/guild.py`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.engine.codecs import from_text
from storage.engine.scope import ReadScope


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


class AuditReader:
    """The audit rows of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def recent(self, limit: int = 50) -> list[AuditEntry]:
        """The latest `limit` entries, oldest first."""
        rows = await self._scope.fetchall(
            "SELECT id, guild_id, actor_id, action, subject, details, at FROM audit"
            " WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, limit),
        )
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
            for row in reversed(rows)
        ]
