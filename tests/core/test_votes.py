"""Directors' discretion (CL-23) as a pure function of directors, votes, moment and deadline."""

from __future__ import annotations

import datetime as dt

import pytest

from core.votes import MotionState, can_open, motion_deadline, motion_status

OPENED = dt.datetime(2018, 1, 1, tzinfo=dt.UTC)
DEADLINE = motion_deadline(OPENED)
BEFORE = DEADLINE - dt.timedelta(hours=1)
FIVE = ["d1", "d2", "d3", "d4", "d5"]


def test_cl_23_deadline_is_72_hours_after_opening() -> None:
    assert motion_deadline(OPENED) == dt.datetime(2018, 1, 4, tzinfo=dt.UTC)


def test_cl_23_three_yes_of_five_with_two_not_voting_passes_at_the_deadline() -> None:
    votes = {"d1": True, "d2": True, "d3": True}
    early = motion_status(FIVE, votes, BEFORE, DEADLINE)
    assert (early.state, early.outcome, early.can_close_early) == (
        MotionState.OPEN,
        MotionState.PASSED,
        False,
    )
    final = motion_status(FIVE, votes, DEADLINE, DEADLINE)
    assert final.state is MotionState.PASSED
    assert (final.yes, final.no, final.not_voted) == (3, 0, 2)


def test_cl_23_three_yes_and_one_no_is_no_decision_and_can_close_early() -> None:
    votes = {"d1": True, "d2": True, "d3": True, "d4": False}
    early = motion_status(FIVE, votes, BEFORE, DEADLINE)
    assert (early.state, early.can_close_early) == (MotionState.OPEN, True)
    assert motion_status(FIVE, votes, DEADLINE, DEADLINE).state is MotionState.NO_DECISION


def test_cl_23_two_directors_can_never_open_a_motion() -> None:
    assert not can_open(["d1", "d2"])
    with pytest.raises(ValueError, match="at least 3 directors"):
        motion_status(["d1", "d2"], {"d1": True, "d2": True}, DEADLINE, DEADLINE)


def test_cl_23_all_no_rejects_and_too_few_votes_decide_nothing() -> None:
    no = {"d1": False, "d2": False, "d3": False}
    assert motion_status(FIVE, no, DEADLINE, DEADLINE).state is MotionState.REJECTED
    two = {"d1": True, "d2": True}
    assert motion_status(FIVE, two, DEADLINE, DEADLINE).state is MotionState.NO_DECISION


def test_cl_23_closes_as_soon_as_every_director_voted() -> None:
    votes = dict.fromkeys(["d1", "d2", "d3"], True)
    status = motion_status(["d1", "d2", "d3"], votes, BEFORE, DEADLINE)
    assert (status.state, status.can_close_early) == (MotionState.PASSED, False)


def test_cl_23_votes_from_non_directors_are_refused() -> None:
    with pytest.raises(ValueError, match="not directors: x"):
        motion_status(FIVE, {"x": True}, BEFORE, DEADLINE)
