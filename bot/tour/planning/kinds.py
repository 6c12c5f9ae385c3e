"""The tour's job kinds and their natural keys of kind and subject.

There is one family or kind per row of "What happens on its own" in docs/tour.md. Each job is about
one event, `event:<id>`, or one game, `game:<id>`. Jobs of one subject thus run one at a time in due
order, and scheduling a job again moves it, since a guild has one pending job per key.

- `cct.round.<round>`: a round's pairings and colours are posted and its players pinged,
  the event's `round_reminder_minutes` before its start. `r3` is a preliminary or Finals
  round, and `qf-day1` to `f-day2` a knock-out stage's day.
- `cct.appeals.day<N>`: appeals for the session of the event's day N close by CCT-11, when
  23:59 in the appeals zone is over.
- `cct.confirm`: the bot confirms a report still waiting after `confirm_hours`.
- `cct.wrapup`: once the event's last game is decided, the placings, tour points, ranking
  and the next event's qualification are announced.
- `cct.poll`: the open games of one session are looked up on chess.com and lichess.org, at
  most 3 times between its start and its CCT-11 appeal close, then the next session's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.tour.knockout import Tie

ROUND_FAMILY = "cct.round."
APPEALS_FAMILY = "cct.appeals."
CONFIRM = "cct.confirm"
WRAPUP = "cct.wrapup"
POLL = "cct.poll"

KNOCKOUT_STAGES: Mapping[str, tuple[Tie, ...]] = {
    "qf": (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4),
    "sf": (Tie.SF1, Tie.SF2),
    "f": (Tie.FINAL, Tie.THIRD_PLACE),
}
"""CCT-8c and CCT-8d: the knock-out stages by the name their reminder kinds carry.

Each is played over two days: match 1, then match 2 and the play-off.
"""


def kinds() -> list[str]:
    """Every tour job kind as the registry lists them, with families as `<prefix>*`."""
    return sorted([f"{ROUND_FAMILY}*", f"{APPEALS_FAMILY}*", CONFIRM, WRAPUP, POLL])


def event_subject(event_id: int) -> str:
    """The subject of an event's jobs."""
    return f"event:{event_id}"


def game_subject(game_id: int) -> str:
    """The subject of a game's jobs, which is its auto-confirmation."""
    return f"game:{game_id}"


def round_kind(round_no: int) -> str:
    """The reminder of a preliminary or Finals round."""
    return f"{ROUND_FAMILY}r{round_no}"


def stage_kind(stage: str, day: int) -> str:
    """The reminder of a knock-out stage's day 1 or 2."""
    return f"{ROUND_FAMILY}{stage}-day{day}"


def appeals_kind(day: int) -> str:
    """The appeal close of the event's day `day`."""
    return f"{APPEALS_FAMILY}day{day}"


def payload_int(payload: Mapping[str, Any], key: str) -> int:
    """A whole number a job's payload carries, or ValueError naming the key."""
    value = payload.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"the job's payload has no {key!r} number: {dict(payload)!r}")
    return value


SAME_INSTANT = dt.timedelta(seconds=1)


def same_instant(a: dt.datetime, b: dt.datetime) -> bool:
    """Whether a job's due time is this instant.

    A job whose time no longer fits its facts is stale and does nothing.
    """
    return abs(a - b) < SAME_INSTANT


@dataclass(frozen=True)
class PlannedJob:
    """One job to schedule: its kind, subject, due instant in UTC and payload."""

    kind: str
    subject: str
    due_at: dt.datetime
    payload: dict[str, int]
