"""When an event's rounds and games are played.

It gives each preliminary or Finals round's session start and each game's session day, from the
event's start date and the tour's session time and zone, using core/tour/calendar.py. The draw
announces these, `/event calendar` lists them, and the CCT-11 appeal deadline is read from them.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from core.tour.appeals import appeals_close
from core.tour.calendar import (
    KNOCKOUT_FIRST_DAY,
    event_date,
    finals_day,
    knockout_day,
    preliminary_day,
    session_start,
)
from core.tour.game_reports import Session
from core.tour.knockout import Tie
from core.tour.ranking import EventType
from core.tour.rules import TourRules
from storage.tour.events import TourEventRecord

if TYPE_CHECKING:
    from bot.tour.game_targets import GameTarget
    from bot.tour.store import LoadedEvent


def round_day(event: TourEventRecord, round_no: int, rounds: int) -> int:
    """The event day of a CCT-8a preliminary round or a CCT-8f Finals round."""
    if event.type is EventType.FINALS:
        return finals_day(round_no, rounds)
    return preliminary_day(round_no, rounds)


def day_start(event: TourEventRecord, rules: TourRules, day: int) -> dt.datetime:
    """The session start of the event's day `day`, in UTC."""
    local = session_start(event_date(event.start, day), rules.session_start, rules.appeal_zone)
    return local.astimezone(dt.UTC)


def round_starts(event: TourEventRecord, rules: TourRules, rounds: int) -> dict[int, dt.datetime]:
    """Each round's session start. Rounds played the same day share it."""
    return {r: day_start(event, rules, round_day(event, r, rounds)) for r in range(1, rounds + 1)}


def game_day(
    event: TourEventRecord,
    *,
    round_no: int | None,
    rounds: int,
    tie: Tie | None = None,
    match_no: int | None = None,
) -> int:
    """The event day a game is played on: its round's, or its knock-out match's.

    By CCT-8d match 2 and the play-off are on the round's second day.
    """
    if tie is not None:
        return knockout_day(tie, match_no)
    assert round_no is not None
    return round_day(event, round_no, rounds)


def target_day(loaded: LoadedEvent, target: GameTarget) -> int:
    """The event day a game of the event is played on, its round's or its knock-out match's."""
    rounds = round_count(loaded)
    return game_day(
        loaded.record,
        round_no=target.round,
        rounds=rounds,
        tie=target.tie,
        match_no=target.match_no,
    )


def round_count(loaded: LoadedEvent) -> int:
    """How many rounds the event's CORE-1 round robin has, 1 before the draw.

    Its days follow from them.
    """
    return loaded.derived("rounds", lambda: max((p.round for p in loaded.round_robin), default=1))


def target_session(
    loaded: LoadedEvent, rules: TourRules, target: GameTarget, now: dt.datetime
) -> Session:
    """The playing session of a game.

    The bot's game search reads it, and its window opens at this start. Every door recording a
    result or an incident checks it.
    """
    return Session(now, day_start(loaded.record, rules, target_day(loaded, target)))


def session_date(event: TourEventRecord, day: int) -> dt.date:
    """The calendar date of the event's day `day`, which is the session's day for CCT-11."""
    return event_date(event.start, day)


def stage_first_day(ties: tuple[Tie, ...]) -> int:
    """CCT-8d: the first of the two days a knock-out stage and its ties are played on."""
    return KNOCKOUT_FIRST_DAY[ties[0]]


def appeals_close_at(event: TourEventRecord, rules: TourRules, day: int) -> dt.datetime:
    """CCT-11: when appeals for the session of the event's day `day` close, in UTC."""
    close = appeals_close(session_date(event, day), rules.appeal_zone, rules.appeal_deadline)
    return close.astimezone(dt.UTC)
