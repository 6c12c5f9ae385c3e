"""Jobs of one subject (e.g. `match:7`) never interleave and run in due order, whatever fired
first; jobs of different subjects run side by side. Real concurrent tasks, no real waiting."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.runtime.clock import VirtualClock
from bot.runtime.scheduler import JobRegistry, Scheduler
from storage.engine.database import Database
from storage.guild import GuildStore, UnitOfWork, on_commit
from storage.shared.jobs import Job
from tests.support.scheduling import GUILD, schedule_job

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class Gated:
    """A fetching job kind whose fetch waits at a gate the test opens; logs each step."""

    def __init__(self) -> None:
        self.gates: dict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.log: list[tuple[str, int]] = []

    async def fetch(self, job: Job) -> str:
        self.log.append(("fetch", job.id))
        await self.gates[job.id].wait()
        return job.kind

    async def apply(self, job: Job, uow: UnitOfWork, fetched: str) -> None:
        self.log.append(("apply", job.id))
        await uow.outbox.post(1, content=f"{fetched} of {job.subject}")


async def _until(condition: Callable[[], bool]) -> None:
    """Yield to the other tasks (and the database's thread) until `condition()` holds."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("condition never held")


async def test_jobs_of_one_match_wait_for_each_other_and_run_in_due_order(
    tmp_path: Path,
) -> None:
    """The deadline (CL-15) of a match is judged before its at-start snapshot even when the
    snapshot fires first, and the snapshot's fetch does not start until the deadline is done;
    another match's job runs meanwhile."""
    clock = VirtualClock(START)
    database = await Database.open(tmp_path / "a.db", clock=clock)
    await database.migrate()
    gated = Gated()
    registry = JobRegistry()
    for kind in ("deadline", "snapshot"):
        registry.register_fetching(kind, gated.fetch, gated.apply)
    scheduler = Scheduler(database, registry, timer=clock)
    deadline = await schedule_job(database, "deadline", "match:1", START - timedelta(hours=2))
    snapshot = await schedule_job(database, "snapshot", "match:1", START - timedelta(hours=1))
    other = await schedule_job(database, "snapshot", "match:2", START - timedelta(hours=3))

    firings = [
        asyncio.create_task(scheduler.run(snapshot)),  # fires first, due last
        asyncio.create_task(scheduler.run(deadline)),
        asyncio.create_task(scheduler.run(other)),
    ]
    await _until(lambda: len(gated.log) == 2)
    # match:1 runs its earlier job first; match:2 runs beside it.
    assert sorted(gated.log) == [("fetch", deadline.id), ("fetch", other.id)]
    gated.gates[other.id].set()
    await _until(lambda: ("apply", other.id) in gated.log)  # match:2 did not wait for match:1
    gated.gates[snapshot.id].set()  # opened early: the snapshot still waits for the deadline
    gated.gates[deadline.id].set()
    ran = await asyncio.gather(*firings)

    assert gated.log[2:] == [
        ("apply", other.id),
        ("apply", deadline.id),
        ("fetch", snapshot.id),
        ("apply", snapshot.id),
    ]
    # The snapshot's firing ran both; the deadline's own firing then found nothing to do.
    assert ran == [True, False, True]
    async with GuildStore(database, GUILD).read() as view:
        jobs = await view.jobs.of_subject("match:1")
        posted = await view.outbox.pending()
    assert [(j.kind, j.status) for j in jobs] == [("deadline", "done"), ("snapshot", "done")]
    assert [m.content for m in posted] == [
        "snapshot of match:2",
        "deadline of match:1",
        "snapshot of match:1",
    ]
    await database.close()


async def test_real_scheduler_never_interleaves_a_subject_and_keeps_due_order(
    tmp_path: Path,
) -> None:
    """APScheduler fires every overdue job at once, in its own order; per subject they still
    run one at a time in due order, while subjects overlap."""
    database = await Database.open(tmp_path / "a.db")
    await database.migrate()
    now = datetime.now(UTC).replace(microsecond=0)
    active: dict[str, int] = defaultdict(int)
    most: dict[str, int] = defaultdict(int)
    overlap = 0
    order: dict[str, list[datetime]] = defaultdict(list)
    finished = asyncio.Event()
    expected = 0

    async def fetch(job: Job) -> None:
        nonlocal overlap
        active[job.subject] += 1
        most[job.subject] = max(most[job.subject], active[job.subject])
        overlap = max(overlap, sum(1 for n in active.values() if n))
        for _ in range(5):  # a network read: other tasks run meanwhile
            await asyncio.sleep(0)

    async def apply(job: Job, uow: UnitOfWork, fetched: None) -> None:
        order[job.subject].append(job.due_at)
        active[job.subject] -= 1
        await uow.outbox.post(1, content=f"{job.kind} {job.subject}")
        if sum(len(v) for v in order.values()) == expected:
            finished.set()

    registry = JobRegistry()
    kinds = ("reminder-48h", "reminder-12h", "deadline", "snapshot", "poll")
    for kind in kinds:
        registry.register_fetching(kind, fetch, apply)
    scheduler = Scheduler(database, registry)
    on_commit(database, scheduler.on_commit)
    for match in range(8):
        # Stored in reverse due order, so ids and APScheduler's order disagree with due order.
        for k, kind in reversed(list(enumerate(kinds))):
            await schedule_job(database, kind, f"match:{match}", now - timedelta(hours=10 - k))
            expected += 1
    scheduler.start()
    try:
        assert len(await scheduler.rebuild()) == expected
        await asyncio.wait_for(finished.wait(), 30)
    finally:
        await scheduler.shutdown()
    assert set(most.values()) == {1}  # never two jobs of one match at once
    assert overlap > 1  # but matches ran side by side
    for due_times in order.values():
        assert due_times == sorted(due_times) and len(due_times) == len(kinds)
    await database.close()
