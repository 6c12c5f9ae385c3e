"""The tour's jobs run as the bot's scheduler runs them, over a real SQLite unit of work: a
round's reminder posted once, pinging its players, and a report left unanswered confirmed by
the bot (CCT-9), each with the job's end and its audit row in one unit of work. A job that
finds nothing to do ends without writing anything else."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.runtime.scheduler import JobRegistry, Scheduler
from bot.tour.automation.context import TourAutomation
from bot.tour.game_targets import open_targets
from bot.tour.games import service as games
from bot.tour.jobs import register_tour_jobs
from core.results import Result
from core.tour.game_reports import ReportStatus
from storage.guild import GuildStore
from storage.shared.jobs import Job
from tests.support.services_world import dump
from tests.support.tour_units import ANNOUNCEMENTS, at, event_of, written
from tests.support.tour_world import ARBITER, member, player_names, tour_with_event

pytestmark = pytest.mark.on_clock


def scheduler(store: GuildStore, clock: VirtualClock) -> Scheduler:
    """The bot's scheduler with the tour's jobs, on the virtual clock, no site to poll."""
    registry = JobRegistry()
    register_tour_jobs(registry, TourAutomation(store.database, None, None))
    return Scheduler(store.database, registry, clock)


async def due_job(store: GuildStore, clock: VirtualClock, kind: str, subject: str) -> Job:
    """The pending job (kind, subject), the clock moved to its time."""
    async with store.read() as view:
        job = await view.jobs.pending(kind, subject)
    assert job is not None, (kind, subject)
    await clock.advance_to(job.due_at)
    return job


async def test_a_days_round_reminders_ping_their_players_once(
    store: GuildStore, clock: VirtualClock
) -> None:
    """An hour before the first session the reminders of its rounds 1-3 are posted to the
    announcements channel, each pinging exactly the eight players, each job ending with its
    post in its own unit of work. Run again, the done jobs write nothing."""
    await tour_with_event(store, players=player_names(8))
    loaded = await event_of(store, "Open")
    subject = f"event:{loaded.record.id}"
    job = await due_job(store, clock, "cct.round.r1", subject)
    assert job.due_at == at("2026-04-21 14:00")
    ran, unit = await written(store, scheduler(store, clock).run(job), units=3)
    assert ran and {(e.action, e.actor_id) for e in unit.audits} == {("job.done", None)}
    for number, post in enumerate(unit.posts, start=1):
        assert post.channel_id == ANNOUNCEMENTS and f"round {number}" in (post.content or "")
        assert sorted(post.ping_users) == list(range(1000, 1008))
    assert [(j.kind, j.status) for j in unit.jobs] == [
        (f"cct.round.r{n}", "done") for n in (1, 2, 3)
    ]
    before = await dump(store.database)
    assert not await scheduler(store, clock).run(job)
    assert await dump(store.database) == before


async def test_cct_9_a_report_left_unanswered_is_confirmed_by_the_bot(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: a player's report nobody answers is confirmed when its confirmation time is
    over: the result settled, the confirmation announced and the job ended in one unit of
    work. A report the arbiter decided meanwhile has lost its job."""
    await tour_with_event(store, players=player_names(8))
    await clock.advance_to(at("2026-04-21 15:30"))
    loaded = await event_of(store, "Open")
    first, second = open_targets(loaded)[:2]
    white = loaded.user_of(first.white)
    reported = await games.report_game(store, member(white or 0), "Open", first.name, Result.DRAW)
    job = await due_job(store, clock, "cct.confirm", f"game:{reported.game.id}")
    ran, unit = await written(store, scheduler(store, clock).run(job))
    assert ran and unit.audit.action == "job.done"
    assert any("automatically" in text for text in unit.announced()), unit.announced()
    game = next(g for g in (await event_of(store, "Open")).games if g.id == reported.game.id)
    assert game.status is ReportStatus.CONFIRMED and game.result is Result.DRAW
    other = loaded.user_of(second.white)
    again = await games.report_game(store, member(other or 0), "Open", second.name, Result.DRAW)
    await games.report_game(store, ARBITER, "Open", second.name, Result.WHITE_WIN)
    async with store.read() as view:
        assert await view.jobs.pending("cct.confirm", f"game:{again.game.id}") is None
