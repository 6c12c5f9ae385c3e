"""`/finals cancel-draw`: the Finals' draw undone while nothing is played in them.

A wrong result of an earlier event can then still be corrected, since its tour points feed the
Finals' bonus by CCT-8f and CCT-6. The pairing numbers, the matches and the Finals' scheduled jobs
go. The entries, declines and wildcards stay, and `/event draw` draws the Finals again. A preview
comes first, then Confirm runs one unit of work, audited and announced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError, changed_since_preview
from bot.kernel.inputs import named
from bot.rendering.tour import cards as tour_cards
from bot.runtime.announce import announce
from bot.tour.planning.kinds import APPEALS_FAMILY, POLL, ROUND_FAMILY, event_subject
from bot.tour.references import find_event
from bot.tour.store import load_event
from core.tour.event_facts import round_robin
from core.tour.finals import DrawCancelRefused, FinalsPlay, check_draw_cancellable
from core.tour.game_reports import ReportStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore
from storage.shared.jobs import Job
from storage.tour.events import TourEventRecord


@dataclass(frozen=True)
class CancelDrawPlan:
    """What cancelling the Finals' draw undoes and what stays.

    It undoes the pairing numbers, the matches over their rounds and the pending jobs by kind. The
    entries, wildcards and declines stay. `stored` is set once confirmed.
    """

    event: TourEventRecord
    numbers: tuple[str, ...]
    matches: int
    rounds: int
    reminders: int
    appeal_closes: int
    polls: int
    other_jobs: int
    entries: int
    wildcards: int
    declines: int
    stored: bool


def _count(jobs: Sequence[Job], prefix: str) -> int:
    return sum(1 for job in jobs if job.kind.startswith(prefix))


async def cancel_draw(
    store: GuildStore,
    actor: Actor,
    event: str | int,
    *,
    confirm: bool,
    previewed: Sequence[str] | None = None,
) -> CancelDrawPlan:
    """CCT-8f with CCT-16: the Finals' draw cancelled.

    It is refused once a Finals game has a report or a result, a match is decided without play, or a
    ruling is recorded. Without `confirm` nothing is stored and a preview is given. With it the
    draw's facts and jobs go and the change is announced, unless the draw is no longer the
    `previewed` one.
    """
    actor.require(Role.HQ)
    async with store.tour_change(actor.user_id, "finals.cancel_draw", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        if record.type is not EventType.FINALS:
            raise UserError(
                f"{named(record.name)} is not the Finals: only the Finals' draw can be "
                "cancelled (CCT-8f)."
            )
        if record.recorded or record.drawn_at is None:
            raise UserError(f"The Finals {named(record.name)} have no draw to cancel.")
        loaded = await load_event(view, record)
        rulings = len(await view.tour_rulings.incidents(record.id)) + len(
            await view.tour_rulings.appeals(record.id)
        )
        play = FinalsPlay(
            reported_games=sum(
                1 for g in loaded.games if g.status is not ReportStatus.OPEN or g.result is not None
            ),
            decided_matches=sum(1 for c in loaded.contests.values() if c.recorded is not None),
            rulings=rulings,
        )
        try:
            check_draw_cancellable(play)
        except DrawCancelRefused as error:
            raise UserError(
                f"The draw of the Finals {named(record.name)} stands: {error}."
            ) from None
        numbers = tuple(p.name for p in loaded.by_pairing)
        pairings = round_robin(numbers)
        subject = event_subject(record.id)
        jobs = [j for j in await view.jobs.of_subject(subject) if j.status == "pending"]
        reminders = _count(jobs, ROUND_FAMILY)
        closes = _count(jobs, APPEALS_FAMILY)
        polls = _count(jobs, POLL)
        plan = CancelDrawPlan(
            record,
            numbers,
            len(pairings),
            max((p.round for p in pairings), default=0),
            reminders,
            closes,
            polls,
            len(jobs) - reminders - closes - polls,
            len(loaded.players),
            sum(1 for p in loaded.players if p.wildcard),
            len(await view.tour_events.declines(record.id)),
            confirm,
        )
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and tuple(previewed) != plan.numbers:
            raise changed_since_preview(
                f"The draw of the Finals {named(record.name)}",
                "/finals cancel-draw",
                "what it undoes",
            )
        if not await uow.tour_events.cancel_draw(record.id):
            raise UserError(f"The Finals {named(record.name)} have no draw to cancel.")
        await uow.tour_games.remove_unplayed(record.id)
        for job in jobs:
            await uow.jobs.cancel_pending(job)
        uow.details["numbers"] = list(numbers)
        uow.details["seed"] = record.draw_seed
        await announce(uow, tour_cards.finals_draw_cancelled(record.name))
        return plan
