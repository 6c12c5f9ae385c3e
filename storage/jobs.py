"""Durable scheduled jobs: the database is the only truth for deadlines and reminders.

A job is created pending for one guild; the scheduler reads every pending job at start-up
(`pending_jobs`, the one read across guilds, for the scheduler only) and claims a job before
running it with `UPDATE … WHERE status = 'pending'`, so a job fires at most once however often
it is scheduled.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage.database import Database, Transaction, from_text, to_text


@dataclass(frozen=True)
class Job:
    """One scheduled job row."""

    id: int
    guild_id: int
    kind: str
    due_at: datetime
    payload: dict[str, Any]
    status: str


_COLUMNS = "id, guild_id, kind, due_at, payload, status"


def _job(row: Any) -> Job:
    return Job(
        id=row["id"],
        guild_id=row["guild_id"],
        kind=row["kind"],
        due_at=from_text(row["due_at"]),
        payload=json.loads(row["payload"]),
        status=row["status"],
    )


class JobRepository:
    """Scheduled jobs of exactly one guild: create, cancel, read."""

    def __init__(self, database: Database, guild_id: int) -> None:
        self._database = database
        self.guild_id = guild_id

    async def create(
        self,
        actor_id: int | None,
        kind: str,
        due_at: datetime,
        payload: dict[str, Any] | None = None,
    ) -> Job:
        """A new pending job of `kind` due at `due_at` (aware), audited as `job.create`."""
        async with self._database.change(
            guild_id=self.guild_id,
            actor_id=actor_id,
            action="job.create",
            subject=f"job:{kind}",
        ) as transaction:
            return await insert_job(transaction, self.guild_id, kind, due_at, payload)

    async def cancel(self, actor_id: int | None, job_id: int) -> bool:
        """Cancel a pending job of this guild; False if it was not pending (nothing changes)."""
        async with self._database.change(
            guild_id=self.guild_id,
            actor_id=actor_id,
            action="job.cancel",
            subject=f"job:{job_id}",
        ) as transaction:
            await transaction.execute_or_abandon(
                "UPDATE scheduled_jobs SET status = 'cancelled', finished_at = ?"
                " WHERE id = ? AND guild_id = ? AND status = 'pending'",
                (to_text(transaction.now), job_id, self.guild_id),
            )
        return not transaction.unchanged

    async def get(self, job_id: int) -> Job | None:
        """The job `job_id` if it belongs to this guild."""
        async with self._database.read() as connection:
            cursor = await connection.execute(
                f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE id = ? AND guild_id = ?",
                (job_id, self.guild_id),
            )
            row = await cursor.fetchone()
        return None if row is None else _job(row)


async def insert_job(
    transaction: Transaction,
    guild_id: int,
    kind: str,
    due_at: datetime,
    payload: dict[str, Any] | None = None,
) -> Job:
    """Insert a pending job inside an open `Database.change()` (a service that schedules as
    part of a larger change); hand the result to `Scheduler.add` once the change commits."""
    payload = dict(payload or {})
    cursor = await transaction.execute(
        "INSERT INTO scheduled_jobs (guild_id, kind, due_at, payload, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (
            guild_id,
            kind,
            to_text(due_at),
            json.dumps(payload, sort_keys=True),
            to_text(transaction.now),
        ),
    )
    job_id = cursor.lastrowid
    assert job_id is not None
    transaction.details.setdefault("jobs", []).append(
        {"id": job_id, "kind": kind, "due_at": to_text(due_at), "payload": payload}
    )
    return Job(job_id, guild_id, kind, from_text(to_text(due_at)), payload, "pending")


async def pending_jobs(database: Database) -> list[Job]:
    """Every pending job of every guild, by due time: what the scheduler rebuilds at start-up."""
    async with database.read() as connection:
        cursor = await connection.execute(
            f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE status = 'pending' ORDER BY due_at, id"
        )
        return [_job(row) for row in await cursor.fetchall()]


async def release_interrupted_jobs(database: Database) -> list[int]:
    """Put back to pending every job left `running` by a process that died mid-run (audited).

    Call at start-up only, before `pending_jobs`: one bot process owns a database, so a
    running row at start-up can only be a run a crash interrupted. Its handler runs again,
    which is why job handlers must be idempotent."""
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT id, guild_id FROM scheduled_jobs WHERE status = 'running' ORDER BY id"
        )
        rows = [(row["id"], row["guild_id"]) for row in await cursor.fetchall()]
    released: list[int] = []
    for job_id, guild_id in rows:
        async with database.change(
            guild_id=guild_id, actor_id=None, action="job.release", subject=f"job:{job_id}"
        ) as transaction:
            await transaction.execute_or_abandon(
                "UPDATE scheduled_jobs SET status = 'pending'"
                " WHERE id = ? AND guild_id = ? AND status = 'running'",
                (job_id, guild_id),
            )
        if not transaction.unchanged:
            released.append(job_id)
    return released


async def claim_job(database: Database, job: Job) -> bool:
    """Mark a pending job running; False if another firing (or a cancel) got there first."""
    async with database.change(
        guild_id=job.guild_id, actor_id=None, action="job.run", subject=f"job:{job.id}"
    ) as transaction:
        await transaction.execute_or_abandon(
            "UPDATE scheduled_jobs SET status = 'running'"
            " WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (job.id, job.guild_id),
        )
    return not transaction.unchanged


async def finish_job(database: Database, job: Job, error: str | None = None) -> None:
    """Record the end of a claimed job: done, or failed with `error`."""
    status = "done" if error is None else "failed"
    async with database.change(
        guild_id=job.guild_id,
        actor_id=None,
        action=f"job.{status}",
        subject=f"job:{job.id}",
        details={} if error is None else {"error": error},
    ) as transaction:
        await transaction.execute(
            "UPDATE scheduled_jobs SET status = ?, error = ?, finished_at = ?"
            " WHERE id = ? AND guild_id = ? AND status = 'running'",
            (status, error, to_text(transaction.now), job.id, job.guild_id),
        )
