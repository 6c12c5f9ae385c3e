"""The jobs a change to a game calls for, decided in the change's own unit of work.

Every door goes through here: a command, a button, a job or an arbiter's ruling. A report waiting
for confirmation gets its auto-confirmation at `reported_at + confirm_hours`, using the tour's
frozen value. A report answered, decided or corrected loses it, and a dispute stops the timer. The
change that decides an event's last game schedules its wrap-up, once. The event's poll job follows
the sessions with a game still to look for, through `plan.follow_polling`.
"""

from __future__ import annotations

from bot.tour.game_targets import finals_states, knockout_of
from bot.tour.planning.kinds import CONFIRM, WRAPUP, event_subject, game_subject
from bot.tour.planning.plan import follow_polling
from bot.tour.store import LoadedEvent
from core.tour.game_reports import ReportStatus, confirm_deadline
from core.tour.knockout import KnockoutError
from core.tour.ranking import EventType
from storage.guild import TourUnit
from storage.tour.games import TourGame


def event_finished(loaded: LoadedEvent) -> bool:
    """CCT-8c and CCT-8f: every game that decides the event is decided.

    These are the Final and the 3rd-place match of a Regular or Major, and every match of the
    Finals.
    """
    return loaded.derived("finished", lambda: _finished(loaded))


def _finished(loaded: LoadedEvent) -> bool:
    """`event_finished`, computed when the memo misses."""
    if loaded.record.recorded or loaded.record.drawn_at is None:
        return False
    if loaded.record.type is EventType.FINALS:
        states = finals_states(loaded)
        return bool(states) and all(state.winner is not None for state in states)
    try:
        knockout = knockout_of(loaded)
    except KnockoutError:
        return False
    return knockout is not None and knockout.finished


async def follow_game(
    uow: TourUnit, before: LoadedEvent, stored: TourGame, after: LoadedEvent
) -> None:
    """Schedules or cancels what the game's change calls for, as the module docstring says."""
    subject = game_subject(stored.id)
    if stored.status is ReportStatus.REPORTED and stored.reported_at is not None:
        tour = await uow.tours.get(before.record.tour_id)
        assert tour is not None
        due = confirm_deadline(stored.reported_at, tour.rules.confirm_hours)
        payload = {"game": stored.id, "event": before.record.id}
        await uow.jobs.schedule(CONFIRM, subject, due, payload)
    else:
        was = next((g for g in before.games if g.id == stored.id), None)
        if was is not None and was.status is ReportStatus.REPORTED:
            await uow.jobs.cancel(CONFIRM, subject)
    if event_finished(after) and not event_finished(before):
        event_id = before.record.id
        await uow.jobs.schedule(WRAPUP, event_subject(event_id), uow.now, {"event": event_id})
    await follow_polling(uow, before, after)


async def follow_award(uow: TourUnit, before: LoadedEvent, after: LoadedEvent) -> None:
    """CCT-9: an award that decides an event's last contest schedules its wrap-up, once."""
    if event_finished(after) and not event_finished(before):
        event_id = before.record.id
        await uow.jobs.schedule(WRAPUP, event_subject(event_id), uow.now, {"event": event_id})
    await follow_polling(uow, before, after)
