"""Durable jobs on a virtual clock: rebuilt from the database on restart, overdue ones run once
at start-up in due order, moved and cancelled jobs followed after commit. No real waiting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config
from bot.runtime.clock import VirtualClock
from bot.runtime.scheduler import REFILL, JobRegistry, Recovery, Scheduler, job_id
from storage.engine.database import Database
from storage.guild import GuildStore, UnitOfWork, on_commit
from storage.shared.jobs import Job, pending_jobs
from tests.support.scheduling import GUILD, schedule_job

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


class Recorder:
    """A job handler that records each run (id and the clock's time)."""

    def __init__(self, clock: VirtualClock | None = None, fail: bool = False) -> None:
        self.runs: list[int] = []
        self.times: list[datetime] = []
        self.clock = clock
        self.fail = fail

    async def __call__(self, job: Job, uow: UnitOfWork) -> None:
        self.runs.append(job.id)
        if self.clock is not None:
            self.times.append(self.clock())
        if self.fail:
            raise RuntimeError("handler broke")


async def _open(path: Path, clock: VirtualClock) -> Database:
    database = await Database.open(path, clock=clock)
    await database.migrate()
    return database


def _scheduler(database: Database, clock: VirtualClock, **handlers: Recorder) -> Scheduler:
    registry = JobRegistry()
    for kind, handler in handlers.items():
        registry.register(kind, handler)
    scheduler = Scheduler(database, registry, timer=clock)
    on_commit(database, scheduler.on_commit)
    return scheduler


async def _status(database: Database, job: Job) -> str:
    async with GuildStore(database, job.guild_id).read() as view:
        stored = await view.jobs.get(job.id)
    assert stored is not None
    return stored.status


async def _actions(database: Database) -> list[str]:
    async with GuildStore(database, GUILD).read() as view:
        return [e.action for e in await view.audit.recent()]


async def test_virtual_clock_runs_due_timers_in_due_order_and_only_those() -> None:
    clock = VirtualClock(START)
    ran: list[tuple[str, datetime]] = []

    def timer(name: str):
        async def callback() -> None:
            ran.append((name, clock()))
            if name == "b":  # a timer added while running, due inside the window, runs too
                clock.add("d", START + timedelta(hours=2, minutes=30), timer("d"))

        return callback

    clock.add("c", START + timedelta(hours=3), timer("c"))
    clock.add("a", START + timedelta(hours=1), timer("a"))
    clock.add("b", START + timedelta(hours=2), timer("b"))
    clock.add("tie", START + timedelta(hours=2), timer("tie"))  # same time: added later
    clock.add("gone", START + timedelta(minutes=5), timer("gone"))
    clock.remove("gone")
    clock.add("late", START + timedelta(hours=9), timer("late"))
    clock.add("late", START + timedelta(hours=4), timer("late"))  # moved earlier: runs once

    assert await clock.advance_to(START + timedelta(hours=5)) == ["a", "b", "tie", "d", "c", "late"]
    assert [(name, t - START) for name, t in ran] == [
        ("a", timedelta(hours=1)),
        ("b", timedelta(hours=2)),
        ("tie", timedelta(hours=2)),
        ("d", timedelta(hours=2, minutes=30)),
        ("c", timedelta(hours=3)),
        ("late", timedelta(hours=4)),
    ]
    assert clock() == START + timedelta(hours=5)
    assert clock.due() == []
    assert await clock.advance(timedelta(days=1)) == []
    with pytest.raises(ValueError, match="backwards"):
        await clock.advance_to(START)


async def test_a_job_fires_at_its_due_time_once_the_unit_of_work_committed(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    database = await _open(tmp_path / "a.db", clock)
    recorder = Recorder(clock)
    _scheduler(database, clock, reminder=recorder)
    due = START + timedelta(hours=6)
    with pytest.raises(RuntimeError):
        async with GuildStore(database, GUILD).change(1, "t", "s") as uow:
            await uow.jobs.schedule("reminder", "club:x", due)
            raise RuntimeError("rolled back")
    assert clock.due() == []  # the scheduler never heard of the rolled-back job
    job = await schedule_job(database, "reminder", "club:x", due)
    assert clock.due() == [(due, job_id(job.id))]

    await clock.advance_to(due - timedelta(seconds=1))
    assert recorder.runs == []
    await clock.advance_to(due + timedelta(days=1))
    assert recorder.runs == [job.id] and recorder.times == [due]
    assert await _status(database, job) == "done"
    assert await _actions(database) == ["job.create", "job.done"]
    await database.close()


async def test_a_moved_job_fires_once_at_its_new_time_and_a_cancelled_one_never(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    database = await _open(tmp_path / "a.db", clock)
    recorder = Recorder(clock)
    _scheduler(database, clock, deadline=recorder)
    first = await schedule_job(database, "deadline", "match:1", START + timedelta(hours=1))
    moved = await schedule_job(database, "deadline", "match:1", START + timedelta(hours=5))
    doomed = await schedule_job(database, "deadline", "match:2", START + timedelta(hours=2))
    async with GuildStore(database, GUILD).change(1, "job.cancel", "match:2") as uow:
        assert await uow.jobs.cancel("deadline", "match:2")

    assert moved.id == first.id
    await clock.advance_to(START + timedelta(hours=4))
    assert recorder.runs == []
    await clock.advance_to(START + timedelta(hours=10))
    assert recorder.runs == [first.id] and recorder.times == [START + timedelta(hours=5)]
    assert await _status(database, doomed) == "cancelled"
    await database.close()


async def test_restart_rebuilds_pending_jobs_and_runs_those_missed_once_in_due_order(
    tmp_path: Path,
) -> None:
    path = tmp_path / "arbiter.db"
    clock = VirtualClock(START)
    first_db = await _open(path, clock)
    # Stored in an order other than their due order; the bot then goes down.
    late = await schedule_job(first_db, "deadline", "m:3", START + timedelta(hours=3), {"n": 3})
    early = await schedule_job(first_db, "deadline", "m:1", START + timedelta(hours=1), {"n": 1})
    middle = await schedule_job(first_db, "deadline", "m:2", START + timedelta(hours=2), {"n": 2})
    future = await schedule_job(first_db, "deadline", "m:4", START + timedelta(days=2), {"n": 4})
    await first_db.close()

    restarted = VirtualClock(START + timedelta(days=1))  # down for a day
    database = await _open(path, restarted)
    recorder = Recorder(restarted)
    scheduler = _scheduler(database, restarted, deadline=recorder)
    recovered = await scheduler.recover()
    assert recovered == Recovery(released=(), ran=(early.id, middle.id, late.id), scheduled=0)
    assert recorder.runs == [early.id, middle.id, late.id]  # each once, in due order
    assert recorder.times == [restarted()] * 3  # at start-up, on the restarted clock
    # A day ahead: beyond the 24 h horizon, so the refill loads it when it falls due.
    assert restarted.due() == [(future.due_at, REFILL)]

    assert await scheduler.recover() == Recovery((), (), 0)  # nothing runs again
    assert recorder.runs == [early.id, middle.id, late.id]
    await restarted.advance_to(future.due_at)
    assert recorder.runs == [early.id, middle.id, late.id, future.id]
    assert await pending_jobs(database) == []
    await database.close()


async def test_real_scheduler_keeps_late_jobs_and_works_in_utc(database: Database) -> None:
    # The APScheduler behind the running bot: its defaults (grace 1 s) would drop a job that
    # falls due while busy. Checked on its configuration; nothing waits.
    due = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    job = await schedule_job(database, "reminder", "s", due, {"match": "m1"})
    scheduler = Scheduler(database, JobRegistry())
    scheduler.start()
    try:
        assert await scheduler.rebuild() == [job]
        scheduled = scheduler.aps.get_job(job_id(job.id))
        assert scheduled is not None and scheduled.next_run_time == due
        assert scheduled.misfire_grace_time is None
        assert str(scheduler.aps.timezone) == "UTC"
        scheduler.timer.remove(job_id(job.id))
        assert scheduler.aps.get_job(job_id(job.id)) is None
    finally:
        await scheduler.shutdown()


async def test_a_job_runs_once_however_often_it_fires(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    database = await _open(tmp_path / "a.db", clock)
    recorder = Recorder(clock)
    scheduler = _scheduler(database, clock, deadline=recorder)
    twin = _scheduler(database, clock, deadline=recorder)  # a second firing of the same row
    job = await schedule_job(database, "deadline", "s", START)
    assert await scheduler.run(job)
    assert not await twin.run(job)
    assert not await scheduler.run(job)
    assert recorder.runs == [job.id]
    assert await _actions(database) == ["job.create", "job.done"]
    await database.close()


async def test_failing_job_is_marked_failed_and_not_retried(database: Database) -> None:
    job = await schedule_job(database, "fragile", "s", datetime.now(UTC))
    registry = JobRegistry()
    recorder = Recorder(fail=True)
    registry.register("fragile", recorder)
    scheduler = Scheduler(database, registry)
    assert await scheduler.run(job)
    assert await _status(database, job) == "failed"
    assert not await scheduler.run(job)
    assert recorder.runs == [job.id]
    async with GuildStore(database, GUILD).read() as view:
        failed = (await view.audit.recent())[-1]
    assert failed.action == "job.failed"
    assert failed.details["error"] == "RuntimeError: handler broke"


async def test_unknown_kind_stays_pending(database: Database) -> None:
    job = await schedule_job(database, "later-feature", "s", datetime.now(UTC))
    scheduler = Scheduler(database, JobRegistry())
    assert not await scheduler.run(job)
    assert await _status(database, job) == "pending"


def test_registry_refuses_a_second_handler_for_a_kind() -> None:
    registry = JobRegistry()
    registry.register("a", Recorder())
    with pytest.raises(ValueError, match="already has a handler"):
        registry.register("a", Recorder())


async def test_bot_setup_hook_runs_overdue_jobs_and_follows_new_ones(config: Config) -> None:
    database = await Database.open(config.database.path)
    await database.migrate()
    job = await schedule_job(database, "deadline", "s", datetime.now(UTC) - timedelta(minutes=5))
    await database.close()

    bot = ArbiterBot(config)
    recorder = Recorder()
    bot.jobs.register("deadline", recorder)
    async with bot:
        await bot.setup_hook()
        assert bot.scheduler is not None
        aps = bot.scheduler.aps
        assert aps.running and str(aps.timezone) == "UTC"
        assert {"cogs.setup", "cogs.help"} <= {cog.__module__ for cog in bot.cogs.values()}
        assert recorder.runs == [job.id]  # run during start-up, before it connects
        later = await schedule_job(
            bot.database, "deadline", "s", datetime.now(UTC) + timedelta(days=1)
        )
        assert aps.get_job(job_id(later.id)) is not None  # heard of it on commit
    reopened = await Database.open(config.database.path)
    assert await _status(reopened, job) == "done"
    await reopened.close()


async def test_run_interrupted_by_a_crash_runs_again_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "arbiter.db"
    clock = VirtualClock(START)
    crashed_db = await _open(path, clock)
    job = await schedule_job(crashed_db, "deadline", "s", START)
    # The first process claimed the job, then died before recording its end.
    async with GuildStore(crashed_db, GUILD).change(None, "job.run", "s") as uow:
        assert await uow.jobs.claim(job.id)
    await crashed_db.close()

    database = await _open(path, clock)
    recorder = Recorder(clock)
    scheduler = _scheduler(database, clock, deadline=recorder)
    assert await scheduler.rebuild() == []  # a plain rebuild leaves it
    assert await scheduler.recover() == Recovery(released=(job.id,), ran=(job.id,), scheduled=0)
    assert recorder.runs == [job.id]
    assert await _status(database, job) == "done"
    assert await _actions(database) == [
        "job.create",
        "job.run",
        "job.release",
        "job.done",
    ]
    await database.close()


async def test_interrupted_run_superseded_by_a_pending_job_of_its_key_is_not_rerun(
    tmp_path: Path,
) -> None:
    # The crashed run had already scheduled its successor (same key) before dying: releasing
    # it would break the one-pending-job-per-key rule, so it is cancelled as superseded.
    clock = VirtualClock(START)
    database = await _open(tmp_path / "a.db", clock)
    job = await schedule_job(database, "reminder", "club:x", START)
    async with GuildStore(database, GUILD).change(None, "job.run", "s") as uow:
        assert await uow.jobs.claim(job.id)
    successor = await schedule_job(database, "reminder", "club:x", START + timedelta(days=7))
    recorder = Recorder(clock)
    scheduler = _scheduler(database, clock, reminder=recorder)
    assert await scheduler.recover() == Recovery((), (), 0)
    assert clock.due() == [(successor.due_at, REFILL)]  # a week away: loaded when due
    assert recorder.runs == []
    assert await _status(database, job) == "cancelled"
    await database.close()


async def test_timezone_naive_due_time_is_refused_and_nothing_is_stored(
    database: Database,
) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await schedule_job(database, "reminder", "s", datetime(2030, 1, 1, 12, 0))
    assert await pending_jobs(database) == []
    assert await _actions(database) == []


async def test_a_job_family_runs_every_kind_of_its_prefix_with_one_handler(tmp_path: Path) -> None:
    """`register_family("remind.", h)`: `remind.48h` and `remind.72h` (each its own natural key,
    one subject) run through `h`, in due order; a kind registered on its own wins; the bare
    prefix and other kinds are not the family's (left pending)."""
    clock = VirtualClock(START)
    database = await _open(tmp_path / "jobs.db", clock)
    family, own = Recorder(clock), Recorder(clock)
    registry = JobRegistry()
    registry.register_family("remind.", family)
    registry.register("remind.own", own)
    assert registry.kinds() == ["remind.*", "remind.own"]
    with pytest.raises(ValueError, match="ends with"):
        registry.register_family("remind", family)
    with pytest.raises(ValueError, match="already has a handler"):
        registry.register_family("remind.", Recorder())
    scheduler = Scheduler(database, registry, timer=clock)
    on_commit(database, scheduler.on_commit)
    later = await schedule_job(database, "remind.48h", "s", START + timedelta(hours=2))
    sooner = await schedule_job(database, "remind.72h", "s", START + timedelta(hours=1))
    mine = await schedule_job(database, "remind.own", "s", START + timedelta(hours=1))
    bare = await schedule_job(database, "remind.", "s", START + timedelta(hours=1))
    other = await schedule_job(database, "reminder.48h", "s", START + timedelta(hours=1))
    await scheduler.rebuild()
    await clock.advance_to(START + timedelta(hours=3))
    assert family.runs == [sooner.id, later.id]
    assert own.runs == [mine.id]
    assert [await _status(database, j) for j in (later, sooner, mine)] == ["done"] * 3
    assert [await _status(database, j) for j in (bare, other)] == ["pending", "pending"]
    await database.close()
