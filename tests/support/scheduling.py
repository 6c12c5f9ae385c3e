"""Scheduling jobs in the runtime tests: one unit of work that schedules (or moves) a job,
audited as `job.create`, in the guild these tests share."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import Job

GUILD = 42
"""The guild of the scheduler tests' jobs."""


async def schedule_job(
    database: Database,
    kind: str,
    subject: str,
    due_at: datetime,
    payload: dict[str, Any] | None = None,
    *,
    guild_id: int = GUILD,
) -> Job:
    """Schedule the job (kind, subject) due at `due_at` in its own unit of work (moving the
    pending one of that key, if any); the job as stored."""
    async with GuildStore(database, guild_id).change(None, "job.create", subject) as uow:
        return await uow.jobs.schedule(kind, subject, due_at, payload)
