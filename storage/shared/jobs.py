"""Durable scheduled jobs: the database is the only truth for deadlines and reminders.

A job has a natural key of kind and subject, such as ("challenge-deadline", "match:7"). A guild has
at most one pending job per key, so scheduling it again moves that job. The scheduler reads every
pending job at start-up with `pending_jobs`, the one read across guilds, which is for the scheduler
only. It claims a job in the unit of work that runs it with `UPDATE … WHERE status = 'pending'`, so
a job's writes are committed at most once however often it fires.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from storage.engine.codecs import from_text, record, to_text
from storage.engine.connection import Row
from storage.engine.database import Database
from storage.engine.scope import ReadScope, WriteScope
from storage.engine.shards import Shards, shard_condition


@dataclass(frozen=True)
class Job:
    """One scheduled job row."""

    id: int
    guild_id: int
    kind: str
    subject: str
    due_at: datetime
    payload: dict[str, Any]
    status: str


_COLUMNS = "id, guild_id, kind, subject, due_at, payload, status"


def _job(row: Row) -> Job:
    return record(Job, row, due_at=from_text(row["due_at"]), payload=json.loads(row["payload"]))


class JobReader:
    """Scheduled jobs of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self, job_id: int) -> Job | None:
        """The job `job_id` if it belongs to this guild."""
        return await self._scope.one(
            _job,
            f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE id = ? AND guild_id = ?",
            (job_id, self._scope.guild_id),
        )

    async def due(self, subject: str, until: datetime) -> list[Job]:
        """The pending jobs of `subject` of any kind due by `until`, in due order with ties by id.

        One firing runs these, so jobs of one subject run in due order whatever fired first.
        """
        return await self._scope.each(
            _job,
            f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE guild_id = ? AND subject = ?"
            " AND status = 'pending' AND due_at <= ? ORDER BY due_at, id",
            (self._scope.guild_id, subject, to_text(until)),
        )

    async def of_subject(self, subject: str) -> list[Job]:
        """Every job of `subject` whatever its status, oldest first, which is its history."""
        return await self._scope.each(
            _job,
            f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE guild_id = ? AND subject = ? ORDER BY id",
            (self._scope.guild_id, subject),
        )

    async def pending(self, kind: str, subject: str) -> Job | None:
        """The pending job of `kind` and `subject`, if any."""
        return await self._scope.one(
            _job,
            f"SELECT {_COLUMNS} FROM scheduled_jobs"
            " WHERE guild_id = ? AND kind = ? AND subject = ? AND status = 'pending'",
            (self._scope.guild_id, kind, subject),
        )


class JobRepository(JobReader):
    """Scheduled jobs of one guild, changed inside a unit of work. `changed` lists the jobs
    scheduled, moved or cancelled, for the scheduler once the unit of work commits."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope
        self.changed: list[Job] = []

    async def schedule(
        self, kind: str, subject: str, due_at: datetime, payload: dict[str, Any] | None = None
    ) -> Job:
        """Schedules the pending job of `kind` and `subject` at the aware `due_at`.

        A pending one is moved there with the new payload and keeps its id.
        """
        if not kind or not subject:
            raise ValueError("a job needs a kind and a subject")
        scope = self._write
        payload = dict(payload or {})
        due_text = to_text(due_at)
        existing = await self.pending(kind, subject)
        if existing is None:
            job_id = await scope.insert(
                "INSERT INTO scheduled_jobs (guild_id, kind, subject, due_at, payload, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (scope.guild_id, kind, subject, due_text, _dumps(payload), to_text(scope.now)),
            )
        else:
            job_id = existing.id
            await scope.execute(
                "UPDATE scheduled_jobs SET due_at = ?, payload = ?"
                " WHERE id = ? AND guild_id = ? AND status = 'pending'",
                (due_text, _dumps(payload), job_id, scope.guild_id),
            )
        job = Job(job_id, scope.guild_id, kind, subject, from_text(due_text), payload, "pending")
        scope.record(
            "jobs",
            {
                "id": job_id,
                "kind": kind,
                "subject": subject,
                "due_at": due_text,
                "payload": payload,
                **({} if existing is None else {"moved_from": to_text(existing.due_at)}),
            },
        )
        self.changed.append(job)
        return job

    async def cancel(self, kind: str, subject: str) -> bool:
        """Cancels the pending job of `kind` and `subject`. Returns False, changing nothing, if
        there is none."""
        scope = self._write
        row = await scope.fetchone(  # at most one pending job per key: one row at most
            "UPDATE scheduled_jobs SET status = 'cancelled', finished_at = ?"
            " WHERE guild_id = ? AND kind = ? AND subject = ? AND status = 'pending'"
            f" RETURNING {_COLUMNS}",
            (to_text(scope.now), scope.guild_id, kind, subject),
        )
        if row is None:
            return False
        cancelled = _job(row)
        scope.record("jobs_cancelled", {"id": cancelled.id, "kind": kind, "subject": subject})
        self.changed.append(cancelled)
        return True

    async def cancel_pending(self, job: Job) -> None:
        """Cancels `job`, read pending in this unit of work, which no other unit of the guild can
        change meanwhile."""
        if job.status != "pending" or job.guild_id != self._write.guild_id:
            raise ValueError(f"job {job.id} was not read pending in this guild")
        scope = self._write
        await scope.execute(
            "UPDATE scheduled_jobs SET status = 'cancelled', finished_at = ?"
            " WHERE id = ? AND guild_id = ? AND status = 'pending'",
            (to_text(scope.now), job.id, scope.guild_id),
        )
        scope.record("jobs_cancelled", {"id": job.id, "kind": job.kind, "subject": job.subject})
        self.changed.append(replace(job, status="cancelled"))

    async def claim(self, job_id: int, due_at: datetime | None = None) -> bool:
        """Marks a pending job running, as the scheduler does in the unit of work that runs it.

        Returns False if it was not pending, because another firing or a cancel got there first.
        With `due_at` it also returns False if the job was moved to another time since it was read.
        """
        sql = (
            "UPDATE scheduled_jobs SET status = 'running'"
            " WHERE id = ? AND guild_id = ? AND status = 'pending'"
        )
        parameters: tuple[object, ...] = (job_id, self._write.guild_id)
        if due_at is not None:
            sql += " AND due_at = ?"
            parameters += (to_text(due_at),)
        cursor = await self._write.execute(sql, parameters)
        return cursor.rowcount > 0

    async def finish(self, job_id: int, error: str | None = None) -> None:
        """Record the end of a claimed job: done, or failed with `error`."""
        scope = self._write
        await scope.execute(
            "UPDATE scheduled_jobs SET status = ?, error = ?, finished_at = ?"
            " WHERE id = ? AND guild_id = ? AND status = 'running'",
            (
                "done" if error is None else "failed",
                error,
                to_text(scope.now),
                job_id,
                scope.guild_id,
            ),
        )
        if error is not None:
            scope.details["error"] = error

    async def release(self, job_id: int) -> bool:
        """Puts a job a crash left `running` back to pending, and returns True if it was released.

        If a pending job of the same key exists, the interrupted one is cancelled as superseded.
        """
        scope = self._write
        cursor = await scope.execute(
            "UPDATE scheduled_jobs SET status = 'pending'"
            " WHERE id = ? AND guild_id = ? AND status = 'running' AND NOT EXISTS ("
            "  SELECT 1 FROM scheduled_jobs AS other WHERE other.status = 'pending'"
            "  AND other.guild_id = scheduled_jobs.guild_id AND other.kind = scheduled_jobs.kind"
            "  AND other.subject = scheduled_jobs.subject)",
            (job_id, scope.guild_id),
        )
        if cursor.rowcount > 0:
            return True
        await scope.execute(
            "UPDATE scheduled_jobs SET status = 'cancelled', finished_at = ?,"
            " error = 'interrupted by a crash; superseded by a pending job of the same key'"
            " WHERE id = ? AND guild_id = ? AND status = 'running'",
            (to_text(scope.now), job_id, scope.guild_id),
        )
        return False


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, sort_keys=True)


async def pending_jobs(
    database: Database,
    *,
    due_from: datetime | None = None,
    due_before: datetime | None = None,
    shards: Shards | None = None,
    guild_id: int | None = None,
) -> list[Job]:
    """The pending jobs due in [due_from, due_before), by due time, for the scheduler's timer.

    It reads every guild's jobs, or those of `shards`' guilds, or of `guild_id` only. The window is
    unbounded by default. Only the scheduler calls it.
    """
    condition, shard_parameters = shard_condition(shards)
    sql = f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE status = 'pending'{condition}"
    parameters: list[object] = [*shard_parameters]
    if guild_id is not None:
        sql += " AND guild_id = ?"
        parameters.append(guild_id)
    if due_from is not None:
        sql += " AND due_at >= ?"
        parameters.append(to_text(due_from))
    if due_before is not None:
        sql += " AND due_at < ?"
        parameters.append(to_text(due_before))
    async with database.read() as connection:
        cursor = await connection.execute(sql + " ORDER BY due_at, id", parameters)
        return [_job(row) for row in await cursor.fetchall()]


async def overdue_jobs(
    database: Database,
    until: datetime,
    after: Job | None = None,
    limit: int = 500,
    *,
    shards: Shards | None = None,
) -> list[Job]:
    """The next `limit` pending jobs due by `until`, in due order, after `after`.

    `after` is the last job of the previous batch. It reads every guild's jobs, or those of
    `shards`' guilds. Start-up reads the jobs missed while down in such batches.
    """
    condition, shard_parameters = shard_condition(shards)
    sql = (
        f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE status = 'pending'{condition} AND due_at <= ?"
    )
    parameters: list[object] = [*shard_parameters, to_text(until)]
    if after is not None:
        sql += " AND (due_at > ? OR (due_at = ? AND id > ?))"
        parameters += [to_text(after.due_at), to_text(after.due_at), after.id]
    async with database.read() as connection:
        cursor = await connection.execute(
            sql + " ORDER BY due_at, id LIMIT ?", [*parameters, limit]
        )
        return [_job(row) for row in await cursor.fetchall()]


async def next_due(
    database: Database, due_from: datetime, *, shards: Shards | None = None
) -> datetime | None:
    """The earliest due time of a pending job at or after `due_from`, if any.

    It reads every guild's jobs, or those of `shards`' guilds.
    """
    condition, shard_parameters = shard_condition(shards)
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT MIN(due_at) FROM scheduled_jobs"
            f" WHERE status = 'pending'{condition} AND due_at >= ?",
            (*shard_parameters, to_text(due_from)),
        )
        row = await cursor.fetchone()
    return None if row is None or row[0] is None else from_text(row[0])


async def running_jobs(database: Database, *, shards: Shards | None = None) -> list[Job]:
    """Every job left `running`, which at start-up means a run that a crash interrupted.

    It reads every guild's jobs, or those of `shards`' guilds. Only a database written by an older
    version, which committed the claim on its own, can hold such jobs.
    """
    condition, parameters = shard_condition(shards)
    async with database.read() as connection:
        cursor = await connection.execute(
            f"SELECT {_COLUMNS} FROM scheduled_jobs WHERE status = 'running'{condition}"
            " ORDER BY id",
            parameters,
        )
        return [_job(row) for row in await cursor.fetchall()]
