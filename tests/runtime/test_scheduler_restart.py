"""Restarts and the scheduler's guarantees: jobs missed while down run once at start-up in due
order (new process objects, same database file), jobs beyond the horizon are loaded when due,
a run's writes commit with its end or not at all, and RetryLater moves a job without loss."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config
from bot.runtime.clock import VirtualClock
from bot.runtime.scheduler import REFILL, JobRegistry, Recovery, RetryLater, Scheduler, job_id
from storage.engine.database import Database
from storage.guild import GuildStore, UnitOfWork, on_commit
from storage.shared.jobs import Job
from tests.support.scheduling import GUILD, schedule_job

T = datetime(2030, 3, 1, 18, 0, tzinfo=UTC)


class League:
    """Stand-in league jobs: each run posts what it judged, with the clock's time; the
    deadline also schedules an announcement job at once."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, str, datetime]] = []

    async def handle(self, job: Job, uow: UnitOfWork) -> None:
        self.runs.append((job.kind, job.subject, uow.now))
        await uow.outbox.post(7, content=f"{job.kind} {job.subject}")
        if job.kind == "deadline":
            await uow.jobs.schedule("announce", job.subject, uow.now)

    def registry(self) -> JobRegistry:
        registry = JobRegistry()
        for kind in ("reminder", "deadline", "snapshot", "announce"):
            registry.register(kind, self.handle)
        return registry


async def _start(path: Path, clock: VirtualClock, league: League) -> tuple[Database, Scheduler]:
    """One process start: a new database object and scheduler on the same file, recovered."""
    database = await Database.open(path, clock=clock)
    await database.migrate()
    scheduler = Scheduler(database, league.registry(), timer=clock)
    on_commit(database, scheduler.on_commit)
    return database, scheduler


async def _outbox(database: Database) -> list[str]:
    async with GuildStore(database, GUILD).read() as view:
        return [m.content or "" for m in await view.outbox.pending()]


async def test_jobs_missed_while_down_run_once_at_start_up_in_due_order_across_restarts(
    tmp_path: Path,
) -> None:
    path = tmp_path / "arbiter.db"
    league = League()
    clock = VirtualClock(T)
    database, scheduler = await _start(path, clock, league)
    await scheduler.recover()
    for n, subject in enumerate(("match:1", "match:2")):
        shift = timedelta(minutes=n)  # match:2's jobs a minute after match:1's
        await schedule_job(database, "snapshot", subject, T + timedelta(days=7) + shift)
        await schedule_job(database, "deadline", subject, T + timedelta(days=2) + shift)
        await schedule_job(database, "reminder", subject, T + timedelta(days=1) + shift)
    await clock.advance(timedelta(hours=12))
    assert league.runs == []
    await database.close()  # down from T + 12 h to T + 3 d

    clock = VirtualClock(T + timedelta(days=3))
    database, scheduler = await _start(path, clock, league)
    recovery = await scheduler.recover()
    assert [(kind, subject) for kind, subject, _ in league.runs] == [
        ("reminder", "match:1"),
        ("reminder", "match:2"),
        ("deadline", "match:1"),
        ("deadline", "match:2"),
        ("announce", "match:1"),  # scheduled by the deadlines during start-up, due at once
        ("announce", "match:2"),
    ]
    assert {at for _, _, at in league.runs} == {T + timedelta(days=3)}
    # The four missed while down, then the announcements they scheduled, due at start-up.
    assert len(recovery.ran) == 6
    await database.close()  # down again, over both snapshots

    clock = VirtualClock(T + timedelta(days=30))
    database, scheduler = await _start(path, clock, league)
    assert len((await scheduler.recover()).ran) == 2
    assert [kind for kind, _, _ in league.runs[6:]] == ["snapshot", "snapshot"]
    await database.close()

    database, scheduler = await _start(path, clock, league)  # one more start: nothing again
    assert await scheduler.recover() == Recovery((), (), 0)
    assert len(league.runs) == 8
    assert await _outbox(database) == [f"{kind} {subject}" for kind, subject, _ in league.runs]
    await database.close()


async def test_a_new_bot_object_on_the_same_file_runs_missed_jobs_once_in_due_order(
    config: Config,
) -> None:
    """The at-start snapshot and the deadline of a match both fell due while the bot was down:
    the next bot runs the deadline first, then the snapshot; the bot after that, nothing."""
    database = await Database.open(config.database.path)
    await database.migrate()
    now = datetime.now(UTC).replace(microsecond=0)
    snapshot = await schedule_job(database, "snapshot", "match:9", now - timedelta(hours=1))
    deadline = await schedule_job(database, "deadline", "match:9", now - timedelta(days=5))
    await database.close()

    league = League()
    for _ in range(2):
        bot = ArbiterBot(config)
        for kind in ("reminder", "deadline", "snapshot", "announce"):
            bot.jobs.register(kind, league.handle)
        async with bot:
            await bot.setup_hook()  # the announcement runs in this bot or at the next start
    kinds = [kind for kind, _, _ in league.runs]
    assert kinds[:2] == ["deadline", "snapshot"]
    assert sorted(kinds) == ["announce", "deadline", "snapshot"]  # each exactly once
    database = await Database.open(config.database.path)
    async with GuildStore(database, GUILD).read() as view:
        jobs = await view.jobs.of_subject("match:9")
    assert {j.id: j.status for j in jobs if j.id in (snapshot.id, deadline.id)} == {
        snapshot.id: "done",
        deadline.id: "done",
    }
    await database.close()


async def test_jobs_beyond_the_horizon_are_loaded_when_due_and_run_once(tmp_path: Path) -> None:
    league = League()
    clock = VirtualClock(T)
    stored = await Database.open(tmp_path / "a.db", clock=clock)  # written before the start
    await stored.migrate()
    soon = await schedule_job(stored, "reminder", "match:1", T + timedelta(hours=1))
    later = await schedule_job(stored, "deadline", "match:2", T + timedelta(days=2))
    await schedule_job(stored, "snapshot", "match:3", T + timedelta(days=30))
    await stored.close()
    database, scheduler = await _start(tmp_path / "a.db", clock, league)
    assert (await scheduler.recover()).scheduled == 1
    assert clock.due() == [(soon.due_at, job_id(soon.id)), (later.due_at, REFILL)]

    # Committed while running: beyond the horizon it waits for the refill; moved inside the
    # horizon it goes on the timer; moved out again it leaves it.
    moved = await schedule_job(database, "reminder", "match:4", T + timedelta(days=10))
    assert job_id(moved.id) not in {key for _, key in clock.due()}
    await schedule_job(database, "reminder", "match:4", T + timedelta(hours=5))
    assert (T + timedelta(hours=5), job_id(moved.id)) in clock.due()
    await schedule_job(database, "reminder", "match:4", T + timedelta(days=20))
    assert job_id(moved.id) not in {key for _, key in clock.due()}
    assert len(clock.due()) <= 2

    await clock.advance(timedelta(days=40))
    assert [(kind, subject, at - T) for kind, subject, at in league.runs] == [
        ("reminder", "match:1", timedelta(hours=1)),
        ("deadline", "match:2", timedelta(days=2)),
        ("announce", "match:2", timedelta(days=2)),
        ("reminder", "match:4", timedelta(days=20)),
        ("snapshot", "match:3", timedelta(days=30)),
    ]
    assert clock.due() == []  # nothing pending: no refill armed
    await database.close()


async def test_a_failing_handler_leaves_nothing_and_the_job_is_failed(tmp_path: Path) -> None:
    clock = VirtualClock(T)
    database = await Database.open(tmp_path / "a.db", clock=clock)
    await database.migrate()

    async def broken(job: Job, uow: UnitOfWork) -> None:
        await uow.outbox.post(7, content="half an announcement")
        await uow.jobs.schedule("announce", job.subject, uow.now)
        raise RuntimeError("chess.com shape changed")

    async def nothing_to_do(job: Job, uow: UnitOfWork) -> None:
        uow.abandon()  # e.g. the challenge was accepted: say nothing

    registry = JobRegistry()
    registry.register("deadline", broken)
    registry.register("reminder", nothing_to_do)
    scheduler = Scheduler(database, registry, timer=clock)
    job = await schedule_job(database, "deadline", "match:1", T)
    quiet = await schedule_job(database, "reminder", "match:1", T)
    assert (await scheduler.recover()).ran == (job.id, quiet.id)
    async with GuildStore(database, GUILD).read() as view:
        jobs = await view.jobs.of_subject("match:1")
        actions = [(e.action, e.details.get("error")) for e in await view.audit.recent()]
    assert [(j.kind, j.status) for j in jobs] == [("deadline", "failed"), ("reminder", "done")]
    assert actions[-2:] == [
        ("job.failed", "RuntimeError: chess.com shape changed"),
        ("job.done", None),
    ]
    assert await _outbox(database) == []
    await database.close()


async def test_retry_later_moves_the_job_and_keeps_nothing_of_the_failed_try(
    tmp_path: Path,
) -> None:
    """A chess.com 5xx while polling: the fetch says RetryLater; nothing is written, the job
    (same id) is due again then, and runs once when the read succeeds."""
    clock = VirtualClock(T)
    database = await Database.open(tmp_path / "a.db", clock=clock)
    await database.migrate()
    answers = ["503", "503", "finished"]
    fetched: list[datetime] = []

    async def fetch(job: Job) -> str:
        fetched.append(clock())
        answer = answers.pop(0)
        if answer == "503":
            raise RetryLater(clock() + timedelta(minutes=30), "chess.com 503")
        return answer

    async def apply(job: Job, uow: UnitOfWork, status: str) -> None:
        await uow.outbox.post(7, content=f"match {status}")

    registry = JobRegistry()
    registry.register_fetching("poll", fetch, apply)
    scheduler = Scheduler(database, registry, timer=clock)
    on_commit(database, scheduler.on_commit)
    job = await schedule_job(database, "poll", "match:1", T + timedelta(hours=1))
    await scheduler.recover()
    await clock.advance(timedelta(hours=1, minutes=59))
    assert fetched == [T + timedelta(hours=1), T + timedelta(hours=1, minutes=30)]
    assert await _outbox(database) == []
    await clock.advance(timedelta(hours=5))
    assert fetched[-1] == T + timedelta(hours=2)
    assert await _outbox(database) == ["match finished"]
    async with GuildStore(database, GUILD).read() as view:
        (stored,) = await view.jobs.of_subject("match:1")
        retries = [e for e in await view.audit.recent() if e.action == "job.retry"]
    assert (stored.id, stored.status) == (job.id, "done")
    assert [e.details["reason"] for e in retries] == ["chess.com 503"] * 2
    await database.close()


async def test_a_stale_firing_of_a_moved_job_does_not_run_it_early(tmp_path: Path) -> None:
    clock = VirtualClock(T)
    league = League()
    database, scheduler = await _start(tmp_path / "a.db", clock, league)
    job = await schedule_job(database, "deadline", "match:1", T)
    await schedule_job(database, "deadline", "match:1", T + timedelta(days=3))  # rescheduled
    assert not await scheduler.run(job)  # a firing already queued for the old time
    assert league.runs == []
    with pytest.raises(ValueError, match="positive"):
        Scheduler(database, JobRegistry(), timer=clock, horizon=timedelta(0))
    await database.close()
