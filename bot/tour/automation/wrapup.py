"""The wrap-up of an event whose last game is decided, announced once.

The change that decided the last game scheduled this job, due at once. For a Regular or Major it
announces the placings by CCT-8c, the tour points by CCT-6, the tour ranking after it and the CCT-3
qualification list of the tour's next event. When no later event exists yet, that list is the
Finals' as it stands. For the Finals it announces the table and the tour's winner by CCT-8f. A
wrap-up that already ran for the event, as its done job shows, is not repeated.
"""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.rendering.tour import automation as render
from bot.rendering.tour.standings_embeds import finals_embeds
from bot.runtime.announce import announce
from bot.runtime.scheduler import JobHandler
from bot.tour import views
from bot.tour.planning.follow import event_finished
from bot.tour.planning.kinds import WRAPUP, payload_int
from bot.tour.store import LoadedEvent, LoadedTour, load_tour
from bot.tour.tours.reads import report_of
from core.tour.qualification import QualificationList
from core.tour.ranking import EventType, TourError
from core.tour.report import TourReport, event_qualification
from storage.guild import TourUnit
from storage.shared.jobs import Job


def _placings(report: TourReport, event: str) -> list[render.Placing]:
    """CCT-8c and CCT-6: the event's placings and tour points. A shared place is marked `=`."""
    found = next(e for e in report.events if e.event.name == event)
    points = {p.player: p.points for p in found.points}
    taken = [place for place, _ in found.placings]
    return [
        render.Placing(f"{place}{'=' if taken.count(place) > 1 else ''}", str(p), points[p])
        for place, p in found.placings
    ]


def _next_qualification(
    tour: LoadedTour, event: LoadedEvent, report: TourReport
) -> tuple[QualificationList, str | None]:
    """CCT-3: the list for the tour's next event after `event` by position, else the Finals' as
    it stands.
    """
    later = [e for e in tour.events if e.record.position > event.record.position]
    if not later:
        return report.qualification, None
    following = later[0].record
    if following.type is EventType.FINALS:
        return tour.finals_field(later[0]).listed, following.name
    listed = event_qualification(
        tour.played_before(later[0]),
        following.type,
        following.size,
        ambassadors=tour.ambassadors,
        top=tour.rules.qualifying_top,
        tables=tour.rules.points,
    )
    return listed, following.name


def wrapup_handler() -> JobHandler:
    """The handler of `cct.wrapup` jobs, run in the job's unit of work.

    Its posts and the job's end commit together.
    """

    async def wrap_up(job: Job, uow: TourUnit) -> None:
        event_id = payload_int(job.payload, "event")
        earlier = [
            j
            for j in await uow.jobs.of_subject(job.subject)
            if j.kind == WRAPUP and j.status == "done" and j.id != job.id
        ]
        view = uow.view()
        record = await view.tour_events.get(event_id)
        tour_record = None if record is None else await view.tours.get(record.tour_id)
        if earlier or record is None or tour_record is None:
            uow.abandon()  # announced already, or gone
            return
        tour = await load_tour(view, tour_record)
        event = next(e for e in tour.events if e.record.id == event_id)
        if not event_finished(event):
            uow.abandon()  # a correction reopened it: its next last game schedules again
            return
        try:
            if record.type is EventType.FINALS:
                await _finals(uow, tour)
            else:
                await _event(uow, tour, event)
        except (TourError, ValueError, UserError) as problem:
            uow.details["not_computed"] = str(problem)
            await announce(uow, f"{record.name} is over; its report cannot be computed: {problem}")

    return wrap_up


async def _event(uow: TourUnit, tour: LoadedTour, event: LoadedEvent) -> None:
    """A Regular's or Major's wrap-up: placings, points, ranking, the next list."""
    report = report_of(tour, event.record.name)
    listed, following = _next_qualification(tour, event, report)
    embeds = render.wrap_up(
        event.record.name,
        _placings(report, event.record.name),
        report.ranking,
        tour.record.name,
        listed,
        following,
    )
    settings = await uow.settings.get()
    if settings.announcements_channel_id is not None:
        await uow.outbox.post(settings.announcements_channel_id, embeds=embeds)
    uow.details["wrapped_up"] = event.record.name


async def _finals(uow: TourUnit, tour: LoadedTour) -> None:
    """The Finals' wrap-up: the table and the tour's winner, or the tie for first."""
    report = report_of(tour)
    finals = report.finals
    finals_event = tour.finals()
    if finals is None or finals_event is None:
        return
    tied = [str(p) for p in finals.tied_for_first]
    winner = None if tied or not finals.rows else str(finals.rows[0].player)
    name = finals_event.record.name
    table = [dict(e.to_dict()) for e in finals_embeds(views.finals(name, finals))]
    settings = await uow.settings.get()
    channel = settings.announcements_channel_id
    if channel is not None:
        await uow.outbox.post(channel, content=render.finals_over(name, winner, tied), embeds=table)
    uow.details["wrapped_up"] = name
