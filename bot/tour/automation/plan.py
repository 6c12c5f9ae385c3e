"""Which jobs an event gets, from its stored facts: at the draw, a reminder per round (its
pairings and colours posted `round_reminder_minutes` before its session starts), an appeal
close per session day (CCT-11) and the first poll of its pairings on the sites; at the
knock-out's start, a reminder per stage day and the appeal closes of the knock-out days. A
reminder already in the past is left out (never posted late); every job is scheduled by its
natural key, so planning again moves a job rather than adding one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.tour.automation.kinds import (
    APPEALS_FAMILY,
    KNOCKOUT_STAGES,
    POLL,
    ROUND_FAMILY,
    PlannedJob,
    appeals_kind,
    event_subject,
    round_kind,
    stage_kind,
)
from bot.tour.schedule import appeals_close_at, day_start, round_day, stage_first_day
from core.tour.ranking import EventType
from core.tour.rules import TourRules
from storage.guild import UnitOfWork
from storage.tour_events import TourEventRecord

DAYS_A_STAGE = 2
"""CCT-8d: a knock-out round is played over two days."""


def reminder_lead(event: TourEventRecord) -> dt.timedelta:
    """How long before a round's start its reminder comes (the event's frozen setting)."""
    return dt.timedelta(minutes=event.round_reminder_minutes)


def round_start(
    event: TourEventRecord, rules: TourRules, round_no: int, rounds: int
) -> dt.datetime:
    """The session start of a preliminary or Finals round."""
    return day_start(event, rules, round_day(event, round_no, rounds))


def stage_start(event: TourEventRecord, rules: TourRules, stage: str, day: int) -> dt.datetime:
    """The session start of a knock-out stage's day 1 or 2."""
    return day_start(event, rules, stage_first_day(KNOCKOUT_STAGES[stage]) + day - 1)


def draw_jobs(event: TourEventRecord, rules: TourRules, rounds: int) -> list[PlannedJob]:
    """The jobs a drawn event gets: each round's reminder, each session day's appeal close,
    and the first poll at its first session's start."""
    subject = event_subject(event.id)
    lead = reminder_lead(event)
    jobs = []
    days: list[int] = []
    for round_no in range(1, rounds + 1):
        start = round_start(event, rules, round_no, rounds)
        payload = {"event": event.id, "round": round_no}
        jobs.append(PlannedJob(round_kind(round_no), subject, start - lead, payload))
        day = round_day(event, round_no, rounds)
        if day not in days:
            days.append(day)
    jobs += _appeal_closes(event, rules, days)
    first = round_start(event, rules, 1, rounds)
    jobs.append(PlannedJob(POLL, subject, first, {"event": event.id}))
    return jobs


def knockout_jobs(event: TourEventRecord, rules: TourRules) -> list[PlannedJob]:
    """The jobs a knock-out gets when it starts: each stage day's reminder and each
    knock-out day's appeal close (CCT-8c/d, CCT-11)."""
    if event.type is EventType.FINALS:
        return []
    subject = event_subject(event.id)
    lead = reminder_lead(event)
    jobs = []
    days = []
    for stage, ties in KNOCKOUT_STAGES.items():
        for day in range(1, DAYS_A_STAGE + 1):
            start = stage_start(event, rules, stage, day)
            payload = {"event": event.id, "day": day}
            jobs.append(PlannedJob(stage_kind(stage, day), subject, start - lead, payload))
            days.append(stage_first_day(ties) + day - 1)
    return jobs + _appeal_closes(event, rules, days)


def _appeal_closes(
    event: TourEventRecord, rules: TourRules, days: Sequence[int]
) -> list[PlannedJob]:
    """CCT-11: the appeal close of each of the event's session days."""
    subject = event_subject(event.id)
    return [
        PlannedJob(
            appeals_kind(day),
            subject,
            appeals_close_at(event, rules, day),
            {"event": event.id, "day": day},
        )
        for day in days
    ]


async def schedule(uow: UnitOfWork, jobs: Sequence[PlannedJob]) -> int:
    """Schedule the planned jobs in the unit of work by their natural keys; a reminder or
    appeal close already past is not scheduled (nothing is posted late for a session that
    began before the draw). Returns the jobs scheduled."""
    scheduled = 0
    for job in jobs:
        if job.kind.startswith((ROUND_FAMILY, APPEALS_FAMILY)) and job.due_at <= uow.now:
            continue
        await uow.jobs.schedule(job.kind, job.subject, job.due_at, job.payload)
        scheduled += 1
    return scheduled
