"""Which jobs an event gets, from its stored facts.

At the draw it gets a reminder per round and an appeal close per session day by CCT-11. A reminder
posts the round's pairings and colours `round_reminder_minutes` before its session starts. At the
knock-out's start it gets a reminder per stage day and the appeal closes of the knock-out days. A
reminder already in the past is left out and never posted late. Every job is scheduled by its
natural key, so planning again moves a job rather than adding one.

The sites' polls follow the games instead, and bot/tour/automation/polling.py says why. `poll_days`
gives the sessions with a game still to be looked for. Each is polled at most `POLLS_PER_SESSION`
times between its start and its appeal close, as `first_poll` and `next_poll` time them.
`follow_polling` keeps the event's one poll job on them after every change.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.kernel.errors import UserError
from bot.tour.game_names import ROUND_NAMES, finals_key
from bot.tour.game_targets import GameTarget, finals_states, knockout_ties
from bot.tour.planning.kinds import (
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
from bot.tour.schedule import (
    appeals_close_at,
    day_start,
    game_day,
    round_count,
    round_day,
    stage_first_day,
)
from bot.tour.store import LoadedEvent
from core.tour.game_reports import ReportStatus
from core.tour.knockout import ColourChoice, ContestStatus, Tie
from core.tour.ranking import EventType
from core.tour.rules import TourRules
from core.tour.timecontrols import TimeControl
from storage.guild import TourUnit
from storage.tour.events import TourEventRecord

DAYS_A_STAGE = 2
"""CCT-8d: a knock-out round is played over two days."""


def reminder_lead(event: TourEventRecord) -> dt.timedelta:
    """How long before a round's start its reminder comes, the event's frozen setting."""
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
    """The jobs a drawn event gets: each round's reminder and each session day's appeal close.

    Its first poll comes from `follow_polling`.
    """
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
    return jobs + _appeal_closes(event, rules, days)


def knockout_jobs(event: TourEventRecord, rules: TourRules) -> list[PlannedJob]:
    """The jobs a knock-out gets when it starts, by CCT-8c, CCT-8d and CCT-11.

    These are each stage day's reminder and each knock-out day's appeal close.
    """
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


async def schedule(uow: TourUnit, jobs: Sequence[PlannedJob]) -> int:
    """Schedules the planned jobs in the unit of work by their natural keys, and returns them.

    A reminder or appeal close already past is not scheduled, so nothing is posted late for a
    session that began before the draw.
    """
    scheduled = 0
    for job in jobs:
        if job.kind.startswith((ROUND_FAMILY, APPEALS_FAMILY)) and job.due_at <= uow.now:
            continue
        await uow.jobs.schedule(job.kind, job.subject, job.due_at, job.payload)
        scheduled += 1
    return scheduled


POLLS_PER_SESSION = 3
"""How many times a session's games are looked for on the sites.

That is at its start, once between, and when its CCT-11 appeals close.
"""


def watchable(target: GameTarget) -> bool:
    """CCT-7: an open game, reported by nobody, that a site can show."""
    if target.row is not None and target.row.status is not ReportStatus.OPEN:
        return False
    return target.time_control is not None and _site_shows(target.time_control)


def _site_shows(control: TimeControl) -> bool:
    """Whether a site can show a game at `control`: not an Armageddon, whose clocks differ."""
    return control.white_base == control.black_base


def poll_days(loaded: LoadedEvent) -> frozenset[int]:
    """The event's days with a game still to be looked for on the sites.

    Such a game is an open preliminary game, or a contest's next game as core's contest status gives
    it, that nobody reported. By CCT-8d that is never a game the contest no longer plays. Either
    must be at a time control a site can show. A contest waiting for a CCT-8e colour choice before
    its game 1 or its first blitz game counts too. This is what `open_targets` and `watchable` give,
    without naming each game.
    """
    return loaded.derived("poll days", lambda: _poll_days(loaded))


def _poll_days(loaded: LoadedEvent) -> frozenset[int]:
    """`poll_days`, computed when the memo misses. Facts the rules refuse give none."""
    record = loaded.record
    if record.drawn_at is None or record.recorded:
        return frozenset()
    rounds = round_count(loaded)
    days = {
        round_day(record, g.round, rounds)
        for g in loaded.games
        if g.stage == "preliminary"
        and g.round is not None
        and g.status is ReportStatus.OPEN
        and _site_shows(record.time_controls.for_phase(g.phase))
    }
    contests: list[tuple[str, ContestStatus | None, int | None, Tie | None]]
    try:
        if record.type is EventType.FINALS:
            contests = [
                (finals_key(s.pairing.round, s.pairing.board), s.status, s.pairing.round, None)
                for s in finals_states(loaded)
            ]
        else:
            contests = [
                (ROUND_NAMES[tie], s.status, None, tie) for tie, s in knockout_ties(loaded).items()
            ]
    except UserError:
        return frozenset(days)
    stored = {(g.contest, g.phase, g.match_no, g.game_no): g for g in loaded.games if g.contest}
    for key, status, round_no, tie in contests:
        if status is None:
            continue
        slot, choice = status.next_game, status.choice_required
        if slot is not None:
            row = stored.get((key, slot.phase, slot.match_no, slot.game_no))
            if row is not None and row.status is not ReportStatus.OPEN:
                continue
            if not _site_shows(slot.time_control):
                continue
            match_no = slot.match_no
        elif choice in (ColourChoice.MATCH_1_GAME_1, ColourChoice.BLITZ_1):
            match_no = 1 if choice is ColourChoice.MATCH_1_GAME_1 else None
        else:
            continue
        days.add(game_day(record, round_no=round_no, rounds=rounds, tie=tie, match_no=match_no))
    return frozenset(days)


@dataclass(frozen=True)
class SessionPoll:
    """One poll of a session: its event day, its number among the session's polls, and when it is
    due.

    The number runs from 1 to `POLLS_PER_SESSION`.
    """

    day: int
    polls: int
    due_at: dt.datetime

    def payload(self, event_id: int, read: dict[str, str] | None = None) -> dict[str, Any]:
        """The poll job's payload. `read` says when each of the session's pairings was read."""
        payload: dict[str, Any] = {"event": event_id, "day": self.day, "polls": self.polls}
        if read:
            payload["read"] = read
        return payload


def session_of(payload: dict[str, Any], due_at: dt.datetime) -> SessionPoll | None:
    """The session poll a job's payload names. A payload of an older version gives None."""
    day, polls = payload.get("day"), payload.get("polls")
    if not isinstance(day, int) or not isinstance(polls, int):
        return None
    return SessionPoll(day, polls, due_at)


def session_window(
    event: TourEventRecord, rules: TourRules, day: int
) -> tuple[dt.datetime, dt.datetime]:
    """CCT-11: when a session's games are looked for, from its start until its appeals close.

    They close when 23:59 in the appeals zone on the session's day is over.
    """
    return day_start(event, rules, day), appeals_close_at(event, rules, day)


def first_poll(
    loaded: LoadedEvent, rules: TourRules, now: dt.datetime, besides: int | None = None
) -> SessionPoll | None:
    """The first poll of the earliest session whose appeals are still open and which has a game to
    look for.

    Day `besides` is left out. The poll comes at the session's start, or now if it has begun.
    """
    for day in sorted(poll_days(loaded)):
        start, close = session_window(loaded.record, rules, day)
        if day != besides and close > now:
            return SessionPoll(day, 1, max(start, now))
    return None


def next_poll(
    loaded: LoadedEvent,
    rules: TourRules,
    now: dt.datetime,
    done: SessionPoll,
    *,
    every: dt.timedelta,
    retry_after: dt.timedelta | None = None,
) -> SessionPoll | None:
    """The poll after `done`, which ran at `now`.

    While the session has a game to look for, its next poll comes, with its polls left spread evenly
    up to its close and the last one at the close. The next poll never comes sooner than `every`, or
    than `retry_after` when some pairings could not be read. Otherwise it is the next session's
    first poll.
    """
    _, close = session_window(loaded.record, rules, done.day)
    left = POLLS_PER_SESSION - done.polls
    if done.day in poll_days(loaded) and close > now and left > 0:
        step = max(every, (close - now) / left)
        if retry_after is not None and left > 1:
            step = retry_after
        return SessionPoll(done.day, done.polls + 1, min(close, now + step))
    return first_poll(loaded, rules, now, besides=done.day)


async def follow_polling(uow: TourUnit, before: LoadedEvent | None, after: LoadedEvent) -> None:
    """Keeps the event's one poll job on its games after a change.

    A change is a draw, the knock-out's start or any game's change. When the days with a game to
    look for changed, the job moves to the earliest such session still open, or is cancelled when
    there is none. A game settled by any door thus stops being polled in the change's own unit of
    work.
    """
    days = poll_days(after)
    if before is not None and poll_days(before) == days:
        return
    event_id = after.record.id
    subject = event_subject(event_id)
    tour = await uow.tours.get(after.record.tour_id) if days else None
    first = None if tour is None else first_poll(after, tour.rules, uow.now)
    if first is None:
        await uow.jobs.cancel(POLL, subject)
        return
    pending = await uow.jobs.pending(POLL, subject)
    if pending is None or pending.payload.get("day") != first.day:
        await uow.jobs.schedule(POLL, subject, first.due_at, first.payload(event_id))
