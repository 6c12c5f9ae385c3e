"""The league's job kinds in the registry: one handler for the whole CL-15 reminder family
(any offset a season may freeze, 1 h .. a year) instead of one registration per hour, and
the chess.com readers registered with their fetch steps."""

from __future__ import annotations

import pytest

from bot.league.automation.context import AutomationContext
from bot.league.jobs import register_league_jobs
from bot.league.matches.jobs import AT_START, DEADLINE, POLL, REMINDER, job_kinds
from bot.runtime.scheduler import JobRegistry
from core.league.season import MAX_CHALLENGE_DEADLINE_HOURS, SeasonRules
from storage.engine.database import Database


@pytest.mark.sqlite_only
async def test_one_reminder_handler_serves_every_offset_and_readers_fetch_first() -> None:
    """CL-15: `cl.reminder.<h>h` for 1 h .. MAX_CHALLENGE_DEADLINE_HOURS all resolve to the
    same registered handler; five registrations in all, the fifth the reminder of a motion
    closing soon; at-start and poll read chess.com in a fetch step, the deadline and reminders
    do not. No storage behaviour: an in-memory SQLite
    database only stands in for the context's store, never read."""
    database = await Database.open(":memory:")
    registry = JobRegistry()
    kinds = register_league_jobs(registry, AutomationContext(database, None))
    assert kinds == ["cl.at_start", "cl.deadline", "cl.poll", "cl.reminder.*", "vote.closing"]
    assert registry.kinds() == kinds
    reminders = {registry.kind(REMINDER.format(hours=h)) for h in (1, 12, 48, 72)}
    reminders.add(registry.kind(REMINDER.format(hours=MAX_CHALLENGE_DEADLINE_HOURS)))
    assert len(reminders) == 1 and None not in reminders
    assert registry.kind("cl.reminder.") is None and registry.kind("cl.remind") is None
    for kind in job_kinds(SeasonRules(reminder_hours=(72, 6))):
        assert registry.kind(kind) is not None, kind
    fetching = {k: registry.kind(k) for k in (AT_START, POLL, DEADLINE)}
    assert [k for k, entry in fetching.items() if entry and entry.fetch] == [AT_START, POLL]
    await database.close()
