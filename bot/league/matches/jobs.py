"""The scheduled jobs of one match, by natural key (kind, `match:<id>`).

They are the CL-15 reminders at the season's frozen offsets, the challenge deadline, the at-start
snapshot and result polling. Their handlers come with the scheduler's league jobs, and a job of an
unknown kind stays pending.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from core.league.facts import challenge_deadline
from core.league.season import Match, SeasonRules
from storage.guild import LeagueUnit

REMINDER_FAMILY = "cl.reminder."
"""Every reminder kind starts so. One handler serves the family, see
`JobRegistry.register_family`.
"""
REMINDER = REMINDER_FAMILY + "{hours}h"
"""A reminder's kind carries its offset, so each reminder of a match has its own natural key.

The key is (kind, `match:<id>`), while the match stays the one subject its jobs are serialised by.
"""
DEADLINE = "cl.deadline"
AT_START = "cl.at_start"
POLL = "cl.poll"


def job_kinds(rules: SeasonRules) -> tuple[str, ...]:
    """Every job kind a match of a season with these rules has, its reminders first."""
    return (*(REMINDER.format(hours=h) for h in rules.reminder_hours), DEADLINE, AT_START, POLL)


KINDS = job_kinds(SeasonRules())
"""The job kinds of a match under the regulation's values, with reminders at 48 h and 12 h
before.
"""
POLL_LEAD_AFTER_REMINDERS = dt.timedelta(hours=24)
"""The first chess.com poll comes this long before the season's first reminder, so a
challenge already on chess.com silences the reminders."""


@dataclass(frozen=True)
class PlannedJob:
    """One job of a match: its kind, its due instant in UTC and its payload."""

    kind: str
    due_at: dt.datetime
    payload: dict[str, int]


def poll_lead(rules: SeasonRules) -> dt.timedelta:
    """How long before the deadline a match's first chess.com poll comes."""
    first = max(rules.reminder_hours, default=0)
    return dt.timedelta(hours=first) + POLL_LEAD_AFTER_REMINDERS


def subject(match_id: int) -> str:
    """The jobs' subject for a match."""
    return f"match:{match_id}"


def deadline_of(
    start: dt.datetime, notice_hours: int, fixed: dt.datetime | None = None
) -> dt.datetime:
    """CL-15: the challenge deadline of a match starting at `start`.

    `fixed` is the match's own deadline, set by a passed reschedule motion.
    """
    return challenge_deadline(Match("", "", 1, "", "", start, deadline=fixed), notice_hours)


def match_jobs(
    match_id: int, start: dt.datetime, rules: SeasonRules, fixed: dt.datetime | None = None
) -> list[PlannedJob]:
    """CL-15, CL-5, CL-6 and CL-20: the jobs of one match.

    They are the reminders at the season's offsets before the challenge deadline, by default 48 h
    and 12 h, the deadline, the at-start snapshot and the first chess.com poll. The poll comes
    `poll_lead` before the deadline and at the latest at the start. `fixed` is the match's own
    deadline, set by a reschedule motion.
    """
    deadline = deadline_of(start, rules.challenge_deadline_hours, fixed)
    payload = {"match": match_id}
    jobs = [
        PlannedJob(REMINDER.format(hours=h), deadline - dt.timedelta(hours=h), payload)
        for h in rules.reminder_hours
    ]
    jobs += [
        PlannedJob(DEADLINE, deadline, payload),
        PlannedJob(AT_START, start, payload),
        PlannedJob(POLL, min(start, deadline - poll_lead(rules)), payload),
    ]
    return jobs


async def schedule_jobs(
    uow: LeagueUnit,
    match_id: int,
    start: dt.datetime,
    rules: SeasonRules,
    fixed: dt.datetime | None = None,
) -> None:
    """Creates or moves every job of the match in the unit of work, by natural key.

    The jobs follow the season's frozen rules, and `fixed` is the match's own deadline. A reminder
    already past is cancelled rather than fired late. So is a fixed deadline already past, since it
    was judged before.
    """
    for job in match_jobs(match_id, start, rules, fixed):
        passed = job.due_at <= uow.now
        judged = job.kind == DEADLINE and fixed is not None and fixed == job.due_at
        if passed and (job.kind.startswith(REMINDER_FAMILY) or judged):
            # A reminder is not fired late. A deadline that a motion kept when it moved the
            # match after it was judged is not judged again, since the judgement stands.
            await uow.jobs.cancel(job.kind, subject(match_id))
            continue
        await uow.jobs.schedule(job.kind, subject(match_id), job.due_at, job.payload)


async def cancel_jobs(uow: LeagueUnit, match_id: int, kinds: tuple[str, ...] = KINDS) -> None:
    """Cancel the match's pending jobs of these kinds."""
    for kind in kinds:
        await uow.jobs.cancel(kind, subject(match_id))
