"""CCT-11: appeals for a session close when 23:59 in the tour's appeals zone is over on its day.

`/appeal lodge` itself refuses a later appeal, whatever time the bot learns of it. The close is
announced once, and only when there is something to say: an appeal lodged for that session, or one
decided that day, with how many the arbiters still have to decide. A day without appeals posts
nothing. A stale job, whose time no longer fits the event, says nothing either.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.rendering.tour import automation as render
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from bot.tour.planning.kinds import payload_int, same_instant
from bot.tour.schedule import appeals_close_at, session_date
from core.tour.appeals import appeal_deadline
from storage.guild import TourUnit
from storage.shared.jobs import Job


def appeals_close_handler() -> JobHandler:
    """The handler of the `cct.appeals.` family, in the job's unit of work."""

    async def close(job: Job, uow: TourUnit) -> None:
        record = await uow.tour_events.get(payload_int(job.payload, "event"))
        tour = None if record is None else await uow.tours.get(record.tour_id)
        day = payload_int(job.payload, "day")
        if record is None or tour is None:
            uow.abandon()
            return
        rules = tour.rules
        if not same_instant(job.due_at, appeals_close_at(record, rules, day)):
            uow.abandon()
            return
        date = session_date(record, day)
        deadline = appeal_deadline(date, rules.appeal_zone, rules.appeal_deadline)
        appeals = await uow.tour_rulings.appeals(record.id)
        of_day = [a for a in appeals if same_instant(a.deadline, deadline)]
        zone = ZoneInfo(rules.appeal_zone)
        decided = sum(
            1
            for a in appeals
            if a.decided_at is not None and a.decided_at.astimezone(zone).date() == date
        )
        still_open = sum(1 for a in of_day if a.status == "open")
        uow.details["appeals"] = {
            "day": day,
            "lodged": len(of_day),
            "open": still_open,
            "decided": decided,
        }
        if not of_day and not decided:
            return  # nothing lodged or decided: a quiet day posts nothing
        await announce(
            uow, render.appeals_closed(record.name, day, date, len(of_day), still_open, decided)
        )

    return close
