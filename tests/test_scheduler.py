"""Durable jobs: rebuilt from the database on restart, overdue ones run exactly once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.arbiter import ArbiterBot
from bot.config import Config
from bot.scheduler import JobRegistry, Scheduler, job_id
from storage.database import Database
from storage.guild import GuildStore
from storage.jobs import Job, pending_jobs

GUILD = 42


class Recorder:
    """A job handler that records each run and signals it."""

    def __init__(self, fail: bool = False) -> None:
        self.runs: list[int] = []
        self.fail = fail
        self.ran = asyncio.Event()

    async def __call__(self, job: Job) -> None:
        self.runs.append(job.id)
        self.ran.set()
        if self.fail:
            raise RuntimeError("handler broke")


async def _status(database: Database, job: Job) -> str:
    async with GuildStore(database, job.guild_id).read() as view:
        stored = await view.jobs.get(job.id)
    assert stored is not None
    return stored.status


async def _schedule(
    database: Database, kind: str, due_at: datetime, payload: dict | None = None, subject: str = "s"
) -> Job:
    async with GuildStore(database, GUILD).change(None, "job.create", subject) as uow:
        return await uow.jobs.schedule(kind, subject, due_at, payload)


async def _actions(database: Database) -> list[str]:
    async with GuildStore(database, GUILD).read() as view:
        return [e.action for e in await view.audit.recent()]


async def test_restart_rebuilds_a_pending_job_from_the_database(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.db"
    due = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)

    first_db = await Database.open(path)
    await first_db.migrate()
    registry = JobRegistry()
    registry.register("reminder", Recorder())
    first = Scheduler(first_db, registry)
    first_db.on_commit(first.on_commit)
    first.start()
    job = await _schedule(first_db, "reminder", due, {"match": "m1"})
    assert first.aps.get_job(job_id(job.id)) is not None
    await first.shutdown()
    await first_db.close()

    second_db = await Database.open(path)
    recorder = Recorder()
    registry = JobRegistry()
    registry.register("reminder", recorder)
    second = Scheduler(second_db, registry)
    second.start()
    try:
        assert await second.rebuild() == [job]
        rebuilt = second.aps.get_job(job_id(job.id))
        assert rebuilt is not None
        assert rebuilt.next_run_time == due
        # APScheduler's defaults (grace 1 s) would drop a job that falls due while busy.
        assert rebuilt.misfire_grace_time is None
        assert str(second.aps.timezone) == "UTC"
        assert rebuilt.args[0].payload == {"match": "m1"}
        assert recorder.runs == []
    finally:
        await second.shutdown()
        await second_db.close()


async def test_overdue_job_runs_exactly_once_after_restart(database: Database) -> None:
    overdue = datetime.now(UTC) - timedelta(hours=3)
    job = await _schedule(database, "deadline", overdue)

    recorder = Recorder()
    registry = JobRegistry()
    registry.register("deadline", recorder)
    scheduler = Scheduler(database, registry)
    twin = Scheduler(database, registry)  # a second firing of the same row
    scheduler.start()
    twin.start()
    try:
        await scheduler.rebuild()
        await twin.rebuild()
        await asyncio.wait_for(recorder.ran.wait(), timeout=5)
        assert not await scheduler.run(job)
        assert not await twin.run(job)
    finally:
        await scheduler.shutdown()
        await twin.shutdown()
    assert recorder.runs == [job.id]
    assert await _status(database, job) == "done"
    assert await pending_jobs(database) == []
    assert await Scheduler(database, registry).rebuild() == []
    assert await _actions(database) == ["job.create", "job.run", "job.done"]


async def test_failing_job_is_marked_failed_and_not_retried(database: Database) -> None:
    job = await _schedule(database, "fragile", datetime.now(UTC))
    registry = JobRegistry()
    recorder = Recorder(fail=True)
    registry.register("fragile", recorder)
    scheduler = Scheduler(database, registry)
    assert await scheduler.run(job)
    assert await _status(database, job) == "failed"
    assert not await scheduler.run(job)
    assert recorder.runs == [job.id]


async def test_unknown_kind_stays_pending(database: Database) -> None:
    job = await _schedule(database, "later-feature", datetime.now(UTC))
    scheduler = Scheduler(database, JobRegistry())
    assert not await scheduler.run(job)
    assert await _status(database, job) == "pending"


async def test_cancelled_job_does_not_run(database: Database) -> None:
    job = await _schedule(database, "reminder", datetime.now(UTC))
    async with GuildStore(database, GUILD).change(5, "job.cancel", "s") as uow:
        assert await uow.jobs.cancel("reminder", "s")
    recorder = Recorder()
    registry = JobRegistry()
    registry.register("reminder", recorder)
    assert not await Scheduler(database, registry).run(job)
    assert recorder.runs == []


def test_registry_refuses_a_second_handler_for_a_kind() -> None:
    registry = JobRegistry()
    registry.register("a", Recorder())
    with pytest.raises(ValueError, match="already has a handler"):
        registry.register("a", Recorder())


async def test_bot_setup_hook_rebuilds_and_runs_overdue_jobs(config: Config) -> None:
    database = await Database.open(config.database.path)
    await database.migrate()
    job = await _schedule(database, "deadline", datetime.now(UTC) - timedelta(minutes=5))
    await database.close()

    bot = ArbiterBot(config)
    recorder = Recorder()
    bot.jobs.register("deadline", recorder)
    async with bot:
        await bot.setup_hook()
        assert bot.scheduler is not None
        aps = bot.scheduler.aps
        assert aps.running and str(aps.timezone) == "UTC"
        assert {"cogs.setup", "cogs.help"} <= set(bot.extensions)
        await asyncio.wait_for(recorder.ran.wait(), timeout=5)
    assert recorder.runs == [job.id]
    reopened = await Database.open(config.database.path)
    assert await _status(reopened, job) == "done"
    await reopened.close()


async def test_run_interrupted_by_a_crash_runs_again_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.db"
    crashed_db = await Database.open(path)
    await crashed_db.migrate()
    job = await _schedule(crashed_db, "deadline", datetime.now(UTC))
    # The first process claimed the job, then died before recording its end.
    async with GuildStore(crashed_db, GUILD).change(None, "job.run", "s") as uow:
        assert await uow.jobs.claim(job.id)
    await crashed_db.close()

    database = await Database.open(path)
    recorder = Recorder()
    registry = JobRegistry()
    registry.register("deadline", recorder)
    assert await Scheduler(database, registry).rebuild() == []  # a plain rebuild leaves it
    scheduler = Scheduler(database, registry)
    scheduler.start()
    try:
        recovered = await scheduler.recover()
        assert [j.id for j in recovered] == [job.id]
        await asyncio.wait_for(recorder.ran.wait(), timeout=5)
    finally:
        await scheduler.shutdown()
    assert recorder.runs == [job.id]
    assert await _status(database, job) == "done"
    assert await _actions(database) == [
        "job.create",
        "job.run",
        "job.release",
        "job.run",
        "job.done",
    ]
    await database.close()


async def test_timezone_naive_due_time_is_refused_and_nothing_is_stored(
    database: Database,
) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await _schedule(database, "reminder", datetime(2030, 1, 1, 12, 0))
    assert await pending_jobs(database) == []
    assert await _actions(database) == []
