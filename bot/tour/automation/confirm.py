"""The bot confirms a report that waited `confirm_hours` without an answer.

`confirm_hours` is the tour's frozen value. The bot goes through the same life cycle and use case as
the opponent's Confirm, and the report is announced as confirmed automatically. A report answered,
disputed or decided meanwhile has lost its job, see bot/tour/automation/follow.py. A stale job that
finds the report gone, settled or made at another time does nothing.
"""

from __future__ import annotations

from bot.app.actor import Actor
from bot.rendering import tour_automation as render
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from bot.tour.automation.kinds import payload_int, same_instant
from bot.tour.games.service import answer_in
from bot.tour.store import load_event
from core.tour.game_reports import ReportStatus, confirm_deadline
from storage.database import Database
from storage.guild import UnitOfWork
from storage.jobs import Job


def confirm_handler(database: Database) -> JobHandler:
    """The handler of `cct.confirm` jobs, run in the job's unit of work.

    The confirmation, its follow-ups and its announcement commit with the job's end, so a report is
    confirmed once. The follow-ups are a decided series and the event's wrap-up.
    """

    async def confirm(job: Job, uow: UnitOfWork) -> None:
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
        loaded = await load_event(view, record, database=database)
        await announce(
            uow, render.auto_confirmed(record.name, loaded.game_name(row), row.result, hours)
        )
        changed, _ = await answer_in(uow, database, Actor.system(), row.id, confirm=True)
        uow.details["confirmed"] = changed.name

    return confirm
