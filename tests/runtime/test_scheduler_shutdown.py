"""A clean shutdown of the real-time scheduler (APScheduler) logs no error. APScheduler's
`shutdown()` only queues the stop, and its executor cancels a firing it submitted but had not
started — logged as "Error running job jobs-refill … CancelledError" when a bot stopped right
after start-up. The timer now pauses first and lets submitted firings start (each only starts
its tracked run), so a shutdown at any loop turn after a timer falls due is quiet; a firing
never started leaves its job pending for the next start."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from pathlib import Path

import pytest

from bot.runtime.scheduler import REFILL, ApsTimer, JobRegistry, Scheduler
from storage.engine.database import Database
from storage.guild import GuildStore, UnitOfWork
from storage.shared.jobs import Job

PAST = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
"""An instant in the real past: APScheduler fires a timer set for it at once."""


async def _settle() -> None:
    """Let the loop run the callbacks already queued (no real time passes)."""
    for _ in range(20):
        await asyncio.sleep(0)


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("turns", [0, 1, 2])
async def test_a_timer_due_at_shutdown_logs_no_error_whatever_the_loop_turn(
    caplog: pytest.LogCaptureFixture, turns: int
) -> None:
    """The refill timer falls due as the bot stops, `turns` loop turns after it was set (0:
    APScheduler has queued its wake-up; 1, 2: it submitted or ran the firing): no ERROR
    record, and the callback ran at most once."""
    caplog.set_level(logging.INFO)
    timer = ApsTimer()
    timer.start()
    ran: list[int] = []

    async def callback() -> None:
        ran.append(1)

    timer.add(REFILL, PAST, callback)
    for _ in range(turns):
        await asyncio.sleep(0)
    await timer.shutdown()
    await _settle()
    assert _errors(caplog) == []
    assert not timer.aps.running
    assert ran in ([], [1])
    assert any(r.name.startswith("apscheduler") for r in caplog.records)  # it did run


async def test_a_scheduler_stopped_right_after_start_up_logs_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The persistence path of the vote tests: a scheduler on a clock in the real past with a
    job beyond its horizon (so `jobs-refill` is armed, due at once in real time) is stopped
    right after `rebuild()`: no ERROR, and the job is still pending, not run or failed."""
    caplog.set_level(logging.INFO)
    ran: list[int] = []

    async def handler(job: Job, uow: UnitOfWork) -> None:
        ran.append(job.id)

    database = await Database.open(tmp_path / "a.db", clock=lambda: PAST)
    await database.migrate()
    registry = JobRegistry()
    registry.register("probe", handler)
    async with GuildStore(database, 1).change(None, "test", "probe") as uow:
        await uow.jobs.schedule("probe", "probe:1", PAST + dt.timedelta(days=2), {})
    scheduler = Scheduler(database, registry, ApsTimer())
    scheduler.start()
    await scheduler.rebuild()
    await scheduler.shutdown()
    await _settle()
    assert _errors(caplog) == []
    async with GuildStore(database, 1).read() as view:
        pending = await view.jobs.pending("probe", "probe:1")
    assert pending is not None and ran == []
    await database.close()
