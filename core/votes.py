"""Directors' discretion by CL-23.

The state of a motion is a pure function of the directors, their votes at a moment and the motion's
deadline.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass

MINIMUM_VOTERS = 3
"""CL-23: a decision needs at least three directors voting."""
VOTE_HOURS = 72
"""CL-23: a motion's configured deadline after it opens."""


class MotionKind(enum.StrEnum):
    """CL-23: what a director motion decides.

    This is the one spelling of the kinds, stored as its value and offered by `/vote open`. Each
    kind's action is one class in the bot.
    """

    FORFEIT = "forfeit"
    """CL-21, CL-FF: a club forfeits a match."""
    DISQUALIFY = "disqualify"
    """CL-DQ, CL-18, CL-23: a club is disqualified from a season."""
    CORRECT_RESULT = "correct-result"
    """CL-14: a match's boards are corrected."""
    EXCLUDE_CLUB = "exclude-club"
    """CL-4: a club is excluded from the league."""
    DIVISION_MAKEUP = "division-makeup"
    """CL-8: next season's divisions are adopted."""
    RESCHEDULE = "reschedule"
    """CL-13, CL-15: a match moves after its challenge deadline, or to a start closer than it."""
    OTHER = "other"
    """Any other discretionary decision: recorded, nothing applied."""


class MotionState(enum.Enum):
    """CL-23: where a motion stands."""

    OPEN = "open"
    PASSED = "passed"
    REJECTED = "rejected"
    NO_DECISION = "no decision"


@dataclass(frozen=True, slots=True)
class MotionStatus:
    """A motion at a moment: its state, what it would decide if closed now, whether it can
    be closed before its deadline, and the tally."""

    state: MotionState
    outcome: MotionState
    can_close_early: bool
    yes: int
    no: int
    not_voted: int


def can_open(directors: Collection[str], quorum: int = MINIMUM_VOTERS) -> bool:
    """CL-23: with fewer than `quorum` directors no discretion can be exercised. The quorum is
    three.
    """
    return len(set(directors)) >= quorum


def motion_deadline(opened: dt.datetime, hours: int = VOTE_HOURS) -> dt.datetime:
    """CL-23: the instant a motion opened at `opened` closes at the latest."""
    return opened + dt.timedelta(hours=hours)


def _outcome(yes: int, no: int, quorum: int) -> MotionState:
    if yes + no < quorum or (yes and no):
        return MotionState.NO_DECISION
    return MotionState.PASSED if yes else MotionState.REJECTED


def motion_status(
    directors: Collection[str],
    votes: Mapping[str, bool],
    at: dt.datetime,
    deadline: dt.datetime,
    quorum: int = MINIMUM_VOTERS,
) -> MotionStatus:
    """CL-23: a motion passes when 3 or more voted and all said yes.

    It is rejected when 3 or more voted and all said no, else there is no decision. The motion
    closes at its deadline or once every director voted. A split motion, whose outcome can only be
    no decision, can close early. `votes` maps a director to True for yes or False for no.
    Abstaining means not voting.
    """
    members = set(directors)
    if not can_open(members, quorum):
        raise ValueError(f"a motion needs at least {quorum} directors, there are {len(members)}")
    strangers = sorted(set(votes) - members)
    if strangers:
        raise ValueError(f"not directors: {', '.join(strangers)}")
    yes = sum(1 for v in votes.values() if v)
    no = len(votes) - yes
    outcome = _outcome(yes, no, quorum)
    closed = at >= deadline or len(votes) == len(members)
    return MotionStatus(
        state=outcome if closed else MotionState.OPEN,
        outcome=outcome,
        can_close_early=not closed and bool(yes and no),
        yes=yes,
        no=no,
        not_voted=len(members) - len(votes),
    )
