"""A report that waited `confirm_hours` (the tour's frozen value) without an answer is
confirmed by the bot, through the same life cycle and use case as the opponent's Confirm,
and announced as confirmed automatically. A report answered, disputed or decided meanwhile
has lost its job (bot/tour/planning/follow.py); a job that finds the report gone, settled
or made at another time (a stale job) does nothing."""

from __future__ import annotations

from bot.kernel.actor import Actor
from bot.rendering.tour import automation as render
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from bot.tour.games.service import answer_in
from bot.tour.planning.kinds import payload_int, same_instant
from bot.tour.store import load_event
from core.tour.game_reports import ReportStatus, confirm_deadline
from storage.guild import TourUnit
from storage.shared.jobs import Job


def confirm_handler() -> JobHandler:
    """The handler of `cct.confirm` jobs, in the job's unit of work: the confirmation, its
    follow-ups (a decided series, the event's wrap-up) and its announcement commit with the
    job's end, so a report is confirmed once."""

    async def confirm(job: Job, uow: TourUnit) -> None:
        row = await uow.tour_games.get(payload_int(job.payload, "game"))
        if row is None or row.status is not ReportStatus.REPORTED or row.reported_at is None:
            uow.abandon()  # gone or answered meanwhile
            return
        record = await uow.tour_events.get(row.event_id)
        tour = None if record is None else await uow.tours.get(record.tour_id)
        if record is None or tour is None:
            uow.abandon()
            return
        hours = tour.rules.confirm_hours
        if not same_instant(job.due_at, confirm_deadline(row.reported_at, hours)):
            uow.abandon()  # reported again at another time: that report's job confirms it
            return
        view = uow.view()
        loaded = await load_event(view, record)
        await announce(
            uow, render.auto_confirmed(record.name, loaded.game_name(row), row.result, hours)
        )
        changed, _ = await answer_in(uow, Actor.system(), row.id, confirm=True)
        uow.details["confirmed"] = changed.name

    return confirm
