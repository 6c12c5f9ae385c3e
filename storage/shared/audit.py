"""Reads a guild's audit trail. Each unit of work writes one row, see `storage/guild.py`."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.engine.codecs import from_text, record
from storage.engine.connection import Row
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
        entries = await self._scope.each(
            _entry,
            "SELECT id, guild_id, actor_id, action, subject, details, at FROM audit"
            " WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (self._scope.guild_id, limit),
        )
        return entries[::-1]


def _entry(row: Row) -> AuditEntry:
    return record(AuditEntry, row, details=json.loads(row["details"]), at=from_text(row["at"]))
