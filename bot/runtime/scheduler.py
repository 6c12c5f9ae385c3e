"""Durable scheduling: a timer fires jobs and the database says which jobs exist.

The timer is APScheduler or a virtual clock. Features plug a job kind into `JobRegistry`, which maps
a kind to its handler. Services schedule, move and cancel jobs in their unit of work with
`uow.jobs.schedule(kind, subject, due_at)`, and the scheduler learns of them through `on_commit`
when it commits.

Exactly once: a job's handler writes through the unit of work that also claims the job with `UPDATE
… WHERE status = 'pending'` and records it done. Its facts, its messages, its follow-up jobs and the
job's end thus commit together or not at all. A crash at any point leaves the job pending with
nothing of it written, and it runs again cleanly. Network reads go in an optional `fetch` step
before that unit of work. It may run more than once, so it must not write.

One at a time per subject: jobs of one guild and subject, such as `match:7`, never interleave, and
run in due order whatever fired first. At start-up `recover()` runs every job that fell due while
the bot was down, once each and in due order. It then puts the jobs due within `horizon` on the
timer, and a refill timer loads the next window when its first job falls due.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, TypeVar, cast
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.runtime.clock import Callback
from storage.engine.database import Database
from storage.engine.shards import Shards
from storage.guild import Committed, GuildStore, GuildUnit
from storage.shared.jobs import Job, next_due, overdue_jobs, pending_jobs, running_jobs

log = logging.getLogger(__name__)

JobHandler = Callable[[Job, GuildUnit], Awaitable[None]]
Fetched = TypeVar("Fetched")

HORIZON = timedelta(hours=24)
REFILL = "jobs-refill"
BATCH = 500


class RetryLater(Exception):
    """Raised by a fetch or a handler to move the job to `at`, keeping nothing of this run.

    The job stays pending with the same id, for instance when chess.com answered 5xx. `payload`, if
    given, replaces the job's. `then` runs in the unit of work that moves it, for instance to say
    once why it waits.
    """

    def __init__(
        self,
        at: datetime,
        reason: str,
        *,
        payload: dict[str, Any] | None = None,
        then: Callable[[GuildUnit], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(reason)
        self.at = at
        self.reason = reason
        self.payload = payload
        self.then = then


@dataclass(frozen=True)
class JobKind:
    """How one kind of job runs.

    An optional read-only `fetch(job)` runs outside any transaction, then `apply(job, uow, fetched)`
    inside the job's unit of work.
    """

    fetch: Callable[[Job], Awaitable[object]] | None
    apply: Callable[[Job, GuildUnit, object], Awaitable[None]]


class JobRegistry:
    """The job kinds the bot knows how to run: single kinds, and families of kinds sharing a prefix.

    A family has one handler, as `cl.reminder.` has for `cl.reminder.48h`, `cl.reminder.12h` and so
    on.
    """

    def __init__(self) -> None:
        self._kinds: dict[str, JobKind] = {}
        self._handlers: dict[str, object] = {}
        self._families: dict[str, JobKind] = {}
        self._family_handlers: dict[str, object] = {}

    def register(self, kind: str, handler: JobHandler) -> None:
        """Runs `await handler(job, uow)` for jobs of `kind` inside the unit of work that claims the
        job.

        That unit of work also records the job done. Write only through `uow`. The database is held
        for the call, so do no network I/O there and use `register_fetching` instead. A kind has one
        handler.
        """

        async def apply(job: Job, uow: GuildUnit, fetched: object) -> None:
            await handler(job, uow)

        self._add(kind, handler, JobKind(None, apply))

    def register_fetching(
        self,
        kind: str,
        fetch: Callable[[Job], Awaitable[Fetched]],
        handler: Callable[[Job, GuildUnit, Fetched], Awaitable[None]],
    ) -> None:
        """Like `register`, with a network step.

        `fetched = await fetch(job)` runs first, outside any transaction. It may run again after a
        crash, so it only reads. Then `await handler(job, uow, fetched)` runs in the job's unit of
        work.
        """

        async def apply(job: Job, uow: GuildUnit, fetched: object) -> None:
            await handler(job, uow, cast(Fetched, fetched))

        self._add(kind, handler, JobKind(fetch, apply))

    def register_family(self, prefix: str, handler: JobHandler) -> None:
        """Like `register`, for every kind made of `prefix` and a non-empty rest.

        `cl.reminder.` gives a reminder per offset, with the offset in the kind so each has its own
        natural key. The handler reads the rest from `job.kind`. A kind registered on its own wins.
        """
        if not prefix.endswith("."):
            raise ValueError(f"a job family prefix ends with '.': {prefix!r}")
        if prefix in self._family_handlers and self._family_handlers[prefix] is not handler:
            raise ValueError(f"job family {prefix!r} already has a handler")

        async def apply(job: Job, uow: GuildUnit, fetched: object) -> None:
            await handler(job, uow)

        self._family_handlers[prefix] = handler
        self._families[prefix] = JobKind(None, apply)

    def _add(self, kind: str, handler: object, entry: JobKind) -> None:
        if kind in self._handlers and self._handlers[kind] is not handler:
            raise ValueError(f"job kind {kind!r} already has a handler")
        self._handlers[kind] = handler
        self._kinds[kind] = entry

    def kind(self, kind: str) -> JobKind | None:
        """How jobs of `kind` run, if registered on its own or by the longest family prefix it
        extends.
        """
        if kind in self._kinds:
            return self._kinds[kind]
        prefixes = [p for p in self._families if kind.startswith(p) and len(kind) > len(p)]
        return self._families[max(prefixes, key=len)] if prefixes else None

    def kinds(self) -> list[str]:
        """Every registered kind, sorted, with a family shown as `<prefix>*`."""
        return sorted([*self._kinds, *(f"{p}*" for p in self._families)])


def new_scheduler() -> AsyncIOScheduler:
    """An APScheduler that works in UTC and never drops a late job. Its default grace is 1 s."""
    return AsyncIOScheduler(
        timezone=ZoneInfo("UTC"),
        job_defaults={"misfire_grace_time": None, "coalesce": True, "max_instances": 1},
    )


class Timer(Protocol):
    """Calls back at an instant: APScheduler in the running bot, a `VirtualClock` in tests and
    the offline replay."""

    def add(self, key: str, run_at: datetime, callback: Callback) -> None:
        """Calls `callback()` at `run_at`, replacing the timer `key` if there is one."""

    def remove(self, key: str) -> None:
        """Drop the timer `key`, if any."""


class ApsTimer:
    """Real time: APScheduler's date triggers.

    Each firing runs in a task the timer tracks, so `shutdown()` lets the runs in flight finish and
    record their end.
    """

    def __init__(self, aps: AsyncIOScheduler | None = None) -> None:
        self.aps = aps or new_scheduler()
        self._in_flight: set[asyncio.Task[object]] = set()

    def start(self) -> None:
        """Starts APScheduler. Call it inside the running event loop, for instance in
        `setup_hook`.
        """
        if not self.aps.running:
            self.aps.start()

    async def shutdown(self) -> None:
        """Stops firing, then waits for the runs in flight.

        APScheduler's `shutdown()` only queues the stop on the loop, and its executor cancels a
        firing it submitted but has not started yet, logging "Error running job … CancelledError".
        So this pauses first, and a queued wake-up then submits nothing. It gives the firings
        already submitted one loop turn, in which each only starts its tracked run and ends, and
        then stops.
        """
        if self.aps.running:
            self.aps.pause()
            await asyncio.sleep(0)
            self.aps.shutdown(wait=False)
        if self._in_flight:
            await asyncio.gather(*self._in_flight, return_exceptions=True)

    def add(self, key: str, run_at: datetime, callback: Callback) -> None:
        """Schedules `callback` at `run_at` as APScheduler job id `key`."""
        self.aps.add_job(
            self._fire, "date", run_date=run_at, args=[callback], id=key, replace_existing=True
        )

    def remove(self, key: str) -> None:
        """Unschedule `key`, if scheduled."""
        if self.aps.get_job(key) is not None:
            self.aps.remove_job(key)

    async def _fire(self, callback: Callback) -> None:
        # APScheduler cancels its own job tasks on shutdown, so run in a task it does not own.
        task = asyncio.create_task(callback())
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)


@dataclass(frozen=True)
class Recovery:
    """What a start-up did, by job ids.

    It lists the runs a crash left `running` that were put back, the jobs run because they fell due
    while the bot was down in the order run, and the jobs put on the timer.
    """

    released: tuple[int, ...]
    ran: tuple[int, ...]
    scheduled: int


class _Lane:
    """The lock of one guild and subject, and how many firings hold or wait for it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Scheduler:
    """Schedules database jobs on a timer and runs each exactly once, one at a time per subject.

    Jobs due within `horizon` are on the timer. Later ones are loaded when due.
    """

    def __init__(
        self,
        database: Database,
        registry: JobRegistry,
        timer: Timer | None = None,
        *,
        horizon: timedelta = HORIZON,
        shards: Shards | None = None,
    ) -> None:
        if horizon <= timedelta(0):
            raise ValueError("the scheduling horizon must be positive")
        self.database = database
        self.registry = registry
        self.timer: Timer = timer if timer is not None else ApsTimer()
        self.horizon = horizon
        self.shards = shards
        """The shards whose guilds' jobs this process runs, or None for every guild's."""
        self._until: datetime | None = None  # every pending job due before it is on the timer
        self._refill_at: datetime | None = None
        self._lanes: dict[tuple[int, str], _Lane] = {}

    @property
    def aps(self) -> AsyncIOScheduler:
        """The APScheduler behind a real-time scheduler."""
        if not isinstance(self.timer, ApsTimer):
            raise RuntimeError("this scheduler runs on a virtual clock, not APScheduler")
        return self.timer.aps

    def start(self) -> None:
        """Starts the timer. APScheduler needs the running loop, so call it in `setup_hook`."""
        if isinstance(self.timer, ApsTimer):
            self.timer.start()

    async def shutdown(self) -> None:
        """Stop firing new jobs, then let the runs in flight finish and record their end."""
        if isinstance(self.timer, ApsTimer):
            await self.timer.shutdown()

    async def rebuild(self) -> list[Job]:
        """Puts every pending job due within the horizon on the timer and returns them.

        Overdue jobs run at once. The refill is armed for the later ones.
        """
        return await self._load(self.database.clock())

    async def recover(self) -> Recovery:
        """At start-up, recovers the jobs missed while the bot was down, then rebuilds the timer.

        It releases the runs an older version's crash left `running`. It then runs every job that
        fell due while the bot was down, once each, one at a time and in due order, reading them in
        batches.
        """
        released = []
        for job in await running_jobs(self.database, shards=self.shards):
            store = GuildStore(self.database, job.guild_id)
            async with store.change(None, "job.release", f"job:{job.id}") as uow:
                if await uow.jobs.release(job.id):
                    released.append(job.id)
        if released:
            log.warning("released %d job(s) interrupted by a crash: %s", len(released), released)
        now = self.database.clock()
        ran: list[int] = []
        last: Job | None = None
        while batch := await overdue_jobs(
            self.database, now, after=last, limit=BATCH, shards=self.shards
        ):
            for job in batch:
                ran += await self._run_subject(job)
            last = batch[-1]
        scheduled = await self.rebuild()
        log.info(
            "scheduler recovered: ran %d job(s) missed while down, %d on the timer",
            len(ran),
            len(scheduled),
        )
        return Recovery(tuple(released), tuple(ran), len(scheduled))

    def on_commit(self, committed: Committed) -> None:
        """Follows a committed unit of work, putting its new or moved jobs on the timer.

        Jobs beyond the horizon are left to the refill, and cancelled ones are dropped. A guild of
        another process's shards is left to that process.
        """
        if self.shards is not None and not self.shards.owns(committed.guild_id):
            return
        for job in committed.jobs:
            if job.status == "pending" and (self._until is None or job.due_at < self._until):
                self.add(job)
            else:
                self.timer.remove(job_id(job.id))
                if job.status == "pending":
                    self._arm_refill(job.due_at)

    async def follow(self, guild_id: int) -> None:
        """Another process committed jobs of `guild_id`, as a PostgreSQL notification says.

        Its pending jobs go on the timer as `on_commit` would put them. Moved ones replace their
        timers, and a cancelled job's timer finds nothing to claim when it fires.
        """
        if self.shards is not None and not self.shards.owns(guild_id):
            return
        jobs = await pending_jobs(self.database, guild_id=guild_id)
        self.on_commit(Committed(guild_id, tuple(jobs), ()))

    def add(self, job: Job) -> None:
        """Puts a stored pending job on the timer. A moved job replaces its earlier time."""
        run_at = max(job.due_at, self.database.clock())
        self.timer.add(job_id(job.id), run_at, functools.partial(self.run, job))

    async def _load(self, now: datetime) -> list[Job]:
        since = self._until
        until = max(now + self.horizon, since or now)
        jobs = await pending_jobs(
            self.database, due_from=since, due_before=until, shards=self.shards
        )
        self._until = until
        for job in jobs:
            self.add(job)
        self._refill_at = None
        later = await next_due(self.database, until, shards=self.shards)
        if later is not None:
            self._arm_refill(later)
        return jobs

    def _arm_refill(self, at: datetime) -> None:
        if self._refill_at is None or at < self._refill_at:
            self._refill_at = at
            self.timer.add(REFILL, max(at, self.database.clock()), self._refill)

    async def _refill(self) -> None:
        loaded = await self._load(self.database.clock())
        log.info("scheduler loaded %d job(s) due before %s", len(loaded), self._until)

    async def run(self, job: Job) -> bool:
        """A firing of `job`, returning True if `job` itself ran.

        It runs every pending job of that subject due by `job`'s time, in due order and one at a
        time for its guild and subject.
        """
        return job.id in await self._run_subject(job)

    async def _run_subject(self, job: Job) -> list[int]:
        key = (job.guild_id, job.subject)
        lane = self._lanes.setdefault(key, _Lane())
        lane.users += 1
        try:
            async with lane.lock:
                async with GuildStore(self.database, job.guild_id).read() as view:
                    due = await view.jobs.due(job.subject, job.due_at)
                return [each.id for each in due if await self._run_one(each)]
        finally:
            lane.users -= 1
            if lane.users == 0:
                del self._lanes[key]

    async def _run_one(self, job: Job) -> bool:
        """Fetches, then claims, applies and finishes the job in one unit of work.

        Returns False if it did not run, for an unknown kind or a job no longer pending at that
        time.
        """
        kind = self.registry.kind(job.kind)
        if kind is None:
            log.warning("job %d of unknown kind %r left pending", job.id, job.kind)
            return False
        store = GuildStore(self.database, job.guild_id)
        details = {"kind": job.kind, "subject": job.subject}
        claimed = False
        try:
            fetched = None if kind.fetch is None else await kind.fetch(job)
            async with store.change(None, "job.done", f"job:{job.id}", details) as uow:
                claimed = await uow.jobs.claim(job.id, job.due_at)
                if not claimed:
                    uow.abandon()
                else:
                    await kind.apply(job, uow, fetched)
                    await uow.jobs.finish(job.id)
            if claimed and uow.abandoned:  # the handler abandoned: the job still ends
                return await self._end(job, None, details)
            return claimed
        except RetryLater as later:
            log.info("job %d (%s) retries at %s: %s", job.id, job.kind, later.at, later.reason)
            async with store.change(None, "job.retry", f"job:{job.id}", details) as uow:
                uow.details["reason"] = later.reason
                if await uow.jobs.pending(job.kind, job.subject) == job:
                    payload = job.payload if later.payload is None else later.payload
                    await uow.jobs.schedule(job.kind, job.subject, later.at, payload)
                    if later.then is not None:
                        await later.then(uow)
                else:
                    uow.abandon()
            return False
        except Exception as failure:
            log.exception("job %d (%s) failed", job.id, job.kind)
            return await self._end(job, f"{type(failure).__name__}: {failure}", details)

    async def _end(self, job: Job, error: str | None, details: dict[str, str]) -> bool:
        """Claims and ends `job` as failed with nothing else written, its writes rolled back."""
        store = GuildStore(self.database, job.guild_id)
        action = "job.done" if error is None else "job.failed"
        async with store.change(None, action, f"job:{job.id}", details) as uow:
            if await uow.jobs.claim(job.id, job.due_at):
                await uow.jobs.finish(job.id, error)
            else:
                uow.abandon()
        return not uow.abandoned


def job_id(row_id: int) -> str:
    """The APScheduler job id of database job `row_id`."""
    return f"job-{row_id}"
