"""Durable scheduling: a timer (APScheduler, or a virtual clock) fires jobs, the database says
which jobs exist.

Features plug a job kind into `JobRegistry` (kind → async handler). Services schedule, move
and cancel jobs in their unit of work (`uow.jobs.schedule(kind, subject, due_at)`); the
scheduler learns of them when it commits (`on_commit`). At start-up `rebuild()` schedules
every pending job from the database (job id `job-<row id>`); `recover()` first runs, once
each and in due order, the jobs that fell due while the bot was down. A firing first claims
its row (`UPDATE … WHERE status = 'pending'`), so a job runs exactly once even if it is
scheduled twice or the bot restarts while it is due. A run that a crash interrupted (its row
still `running` at the next start) is released and runs again, so handlers must be
idempotent (guard their own state changes the same way).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from storage.database import Database
from storage.guild import Committed, GuildStore
from storage.jobs import Job, pending_jobs, running_jobs

log = logging.getLogger(__name__)

JobHandler = Callable[[Job], Awaitable[None]]
Callback = Callable[[], Coroutine[object, object, object]]


class JobRegistry:
    """The job kinds the bot knows how to run."""

    def __init__(self) -> None:
        self._handlers: dict[str, JobHandler] = {}

    def register(self, kind: str, handler: JobHandler) -> None:
        """Run `handler(job)` for jobs of `kind`; a kind has one handler. The handler must be
        idempotent: a run interrupted by a crash is run again at the next start."""
        if kind in self._handlers and self._handlers[kind] is not handler:
            raise ValueError(f"job kind {kind!r} already has a handler")
        self._handlers[kind] = handler

    def handler(self, kind: str) -> JobHandler | None:
        """The handler of `kind`, if registered."""
        return self._handlers.get(kind)

    def kinds(self) -> list[str]:
        """Every registered kind, sorted."""
        return sorted(self._handlers)


def new_scheduler() -> AsyncIOScheduler:
    """An APScheduler that never drops a late job (its default grace is 1 s) and works in UTC."""
    return AsyncIOScheduler(
        timezone=ZoneInfo("UTC"),
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
    )


class Timer(Protocol):
    """Calls back at an instant: APScheduler in the running bot, a `VirtualClock` in tests and
    the offline replay."""

    def add(self, key: str, run_at: datetime, callback: Callback) -> None:
        """Call `callback()` at `run_at`; replaces the timer `key` if there is one."""

    def remove(self, key: str) -> None:
        """Drop the timer `key`, if any."""


class ApsTimer:
    """Real time: APScheduler's date triggers, each firing run in a task the timer tracks so
    `shutdown()` lets the runs in flight finish and record their end."""

    def __init__(self, aps: AsyncIOScheduler | None = None) -> None:
        self.aps = aps or new_scheduler()
        self._in_flight: set[asyncio.Task[object]] = set()

    def start(self) -> None:
        """Start APScheduler; call inside the running event loop (e.g. in `setup_hook`)."""
        if not self.aps.running:
            self.aps.start()

    async def shutdown(self) -> None:
        """Stop firing, then wait for the runs in flight."""
        if self.aps.running:
            self.aps.shutdown(wait=False)
        if self._in_flight:
            await asyncio.gather(*self._in_flight, return_exceptions=True)

    def add(self, key: str, run_at: datetime, callback: Callback) -> None:
        """Schedule `callback` at `run_at` (APScheduler job id `key`)."""
        self.aps.add_job(
            self._fire, "date", run_date=run_at, args=[callback], id=key, replace_existing=True
        )

    def remove(self, key: str) -> None:
        """Unschedule `key`, if scheduled."""
        if self.aps.get_job(key) is not None:
            self.aps.remove_job(key)

    async def _fire(self, callback: Callback) -> None:
        # APScheduler cancels its own job tasks on shutdown; run in a task it does not own.
        task = asyncio.create_task(callback())
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)


class Scheduler:
    """Schedules database jobs on a timer and runs each exactly once."""

    def __init__(
        self, database: Database, registry: JobRegistry, timer: Timer | None = None
    ) -> None:
        self.database = database
        self.registry = registry
        self.timer: Timer = timer if timer is not None else ApsTimer()

    @property
    def aps(self) -> AsyncIOScheduler:
        """The APScheduler behind a real-time scheduler."""
        if not isinstance(self.timer, ApsTimer):
            raise RuntimeError("this scheduler runs on a virtual clock, not APScheduler")
        return self.timer.aps

    def start(self) -> None:
        """Start the timer (APScheduler needs the running loop: call in `setup_hook`)."""
        if isinstance(self.timer, ApsTimer):
            self.timer.start()

    async def shutdown(self) -> None:
        """Stop firing new jobs, then let the runs in flight finish and record their end."""
        if isinstance(self.timer, ApsTimer):
            await self.timer.shutdown()

    async def rebuild(self) -> list[Job]:
        """Schedule every pending job of the database, in due order; returns them. Overdue
        ones are scheduled at once."""
        jobs = await pending_jobs(self.database)
        for job in jobs:
            self.add(job)
        log.info("scheduler rebuilt %d pending job(s) from the database", len(jobs))
        return jobs

    async def recover(self) -> list[Job]:
        """At process start-up: release the runs a crash interrupted, run every job that fell
        due while the bot was down — once each, one at a time, in due order — then schedule
        the rest. Returns the pending jobs found (the overdue ones already run)."""
        released = []
        for job in await running_jobs(self.database):
            store = GuildStore(self.database, job.guild_id)
            async with store.change(None, "job.release", f"job:{job.id}") as uow:
                if await uow.jobs.release(job.id):
                    released.append(job.id)
        if released:
            log.warning("released %d job(s) interrupted by a crash: %s", len(released), released)
        jobs = await pending_jobs(self.database)
        now = self.database.clock()
        for job in jobs:
            if job.due_at <= now:
                await self.run(job)
            else:
                self.add(job)
        log.info("scheduler recovered %d pending job(s) from the database", len(jobs))
        return jobs

    def on_commit(self, committed: Committed) -> None:
        """Follow a committed unit of work: schedule its new or moved jobs, drop cancelled ones."""
        for job in committed.jobs:
            if job.status == "pending":
                self.add(job)
            else:
                self.timer.remove(job_id(job.id))

    def add(self, job: Job) -> None:
        """Schedule a stored pending job (again: a moved job replaces its earlier time)."""
        run_at = max(job.due_at, self.database.clock())
        self.timer.add(job_id(job.id), run_at, functools.partial(self.run, job))

    async def run(self, job: Job) -> bool:
        """Claim and run one job; False if it was not pending or its kind is unknown."""
        handler = self.registry.handler(job.kind)
        if handler is None:
            log.warning("job %d of unknown kind %r left pending", job.id, job.kind)
            return False
        store = GuildStore(self.database, job.guild_id)
        async with store.change(None, "job.run", f"job:{job.id}") as uow:
            if not await uow.jobs.claim(job.id):
                uow.abandon()
        if uow.abandoned:
            log.info("job %d already claimed or cancelled; not run again", job.id)
            return False
        error: str | None = None
        try:
            await handler(job)
        except Exception as failure:
            log.exception("job %d (%s) failed", job.id, job.kind)
            error = f"{type(failure).__name__}: {failure}"
        async with store.change(
            None, "job.failed" if error else "job.done", f"job:{job.id}"
        ) as uow:
            await uow.jobs.finish(job.id, error)
        return True


def job_id(row_id: int) -> str:
    """The APScheduler job id of database job `row_id`."""
    return f"job-{row_id}"
