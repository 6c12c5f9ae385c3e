"""The match and season life cycles of `core.league.lifecycle` as pure functions: which party
may take which step in which state, and what a step notes — the rules every command, job and
motion goes through (the command-tree tests show the parties; these show the table)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from core.league.lifecycle import (
    CORRECTION_NOTE,
    LATE_NOTE,
    MatchState,
    MatchView,
    Party,
    SeasonPhase,
    Step,
    StepRefused,
    allow,
    makeup_problem,
    match_state,
    moved_deadline,
    season_phase,
)

START = dt.datetime(2027, 3, 10, 18, tzinfo=dt.UTC)
DEADLINE = START - dt.timedelta(hours=120)
HOUR = dt.timedelta(hours=1)


def view(now: dt.datetime, **facts: object) -> MatchView:
    """Match 7 starting at START with a 120 h notice, at `now`, with `facts`."""
    base = MatchView("7", START, DEADLINE, None, None, None, now, notice=START - DEADLINE)
    return replace(base, **facts)


def test_cl_15_states_follow_the_challenge_the_deadline_and_the_start() -> None:
    early = DEADLINE - 10 * HOUR
    assert match_state(view(early)) is MatchState.SCHEDULED
    assert match_state(view(early, issued=early)) is MatchState.ISSUED
    assert match_state(view(early, issued=early, accepted=early)) is MatchState.ACCEPTED
    assert match_state(view(DEADLINE, issued=early)) is MatchState.FORFEITED  # not accepted
    assert match_state(view(START, issued=early, accepted=early)) is MatchState.STARTED
    finished = view(START + HOUR, issued=early, accepted=early, finished=START + HOUR)
    assert match_state(finished) is MatchState.FINISHED


def test_cl_dq_a_match_of_a_disqualified_club_is_void_from_then_on() -> None:
    out = DEADLINE - 48 * HOUR
    assert match_state(view(out, void_by="D", void_since=out)) is MatchState.SCHEDULED
    void = view(out + HOUR, void_by="D", void_since=out)
    assert match_state(void) is MatchState.VOID
    with pytest.raises(StepRefused, match="no reminder"):
        allow(void, Step.REMIND, Party.BOT)
    with pytest.raises(StepRefused, match="director forfeit there would count"):
        allow(void, Step.DIRECTOR_FORFEIT, Party.DIRECTOR)


def test_cl_15_a_recorded_challenge_is_never_replaced_and_late_steps_are_noted() -> None:
    early = DEADLINE - 10 * HOUR
    with pytest.raises(StepRefused, match="not replaced"):
        allow(view(early, issued=early), Step.ISSUE, Party.CLUB)
    with pytest.raises(StepRefused, match="not replaced"):
        allow(view(early, issued=early), Step.ISSUE, Party.BOT)
    late = allow(view(DEADLINE + HOUR), Step.ISSUE, Party.CLUB)
    assert late.late and LATE_NOTE in late.notes
    with pytest.raises(StepRefused, match="no challenge issued"):
        allow(view(early), Step.ACCEPT, Party.CLUB)


def test_cl_15_only_an_arbiter_or_a_motion_corrects_a_recorded_challenge() -> None:
    early = DEADLINE - 10 * HOUR
    issued = view(DEADLINE + HOUR, issued=early, accepted=early)
    for party in (Party.CLUB, Party.DIRECTOR, Party.BOT):
        with pytest.raises(StepRefused, match="only an arbiter corrects it"):
            allow(issued, Step.CORRECT_CHALLENGE, party)
    assert CORRECTION_NOTE in allow(issued, Step.CORRECT_CHALLENGE, Party.ARBITER).notes
    assert allow(issued, Step.CORRECT_CHALLENGE, Party.MOTION).state is MatchState.ACCEPTED
    with pytest.raises(StepRefused, match="no challenge recorded"):
        allow(view(early), Step.CORRECT_CHALLENGE, Party.ARBITER)
    done = replace(issued, now=START + 2 * HOUR, finished=START + HOUR)
    with pytest.raises(StepRefused, match="correct its result instead"):
        allow(done, Step.CORRECT_CHALLENGE, Party.ARBITER)


def test_cl_14_no_result_before_the_start_and_a_recorded_one_is_corrected_not_replaced() -> None:
    early = DEADLINE - 10 * HOUR
    with pytest.raises(StepRefused, match="no result before its start"):
        allow(view(START - HOUR, issued=early, accepted=early), Step.RESULT, Party.ARBITER)
    done = view(START + 2 * HOUR, issued=early, accepted=early, finished=START + HOUR)
    with pytest.raises(StepRefused, match="an arbiter"):
        allow(done, Step.RESULT, Party.CLUB)
    assert allow(done, Step.RESULT, Party.ARBITER).state is MatchState.FINISHED


def test_cl_13_a_director_alone_moves_a_match_only_before_its_deadline_and_notice() -> None:
    early = DEADLINE - 10 * HOUR
    far = START + 7 * 24 * HOUR
    assert allow(view(early), Step.RESCHEDULE, Party.DIRECTOR, new_start=far).state is (
        MatchState.SCHEDULED
    )
    with pytest.raises(StepRefused, match="sooner than the CL-15 notice"):
        allow(view(early), Step.RESCHEDULE, Party.DIRECTOR, new_start=early + 24 * HOUR)
    with pytest.raises(StepRefused, match="only a passed director motion"):
        allow(
            view(DEADLINE + HOUR, issued=early, accepted=early),
            Step.RESCHEDULE,
            Party.DIRECTOR,
            new_start=far,
        )
    forfeited = view(DEADLINE + HOUR)
    with pytest.raises(StepRefused, match="cannot undo that judgement"):
        allow(forfeited, Step.RESCHEDULE, Party.MOTION, new_start=far)
    # a motion moves a judged (met) deadline's match; the judged deadline stays
    met = view(DEADLINE + HOUR, issued=early, accepted=early)
    assert allow(met, Step.RESCHEDULE, Party.MOTION, new_start=far).state is MatchState.ACCEPTED
    assert moved_deadline(met, far) == DEADLINE
    assert moved_deadline(view(early), far) is None  # the deadline follows the start
    close = early + 24 * HOUR
    assert moved_deadline(view(early), close) == close  # by a motion: until the start


def test_cl_1_cl_8_season_phases_and_when_the_makeup_may_open() -> None:
    now = DEADLINE + HOUR
    kwargs = {"deadlines": [DEADLINE], "now": now}
    assert season_phase(scheduled=False, closed=False, complete=False, **kwargs) is (
        SeasonPhase.SETUP
    )
    running = season_phase(scheduled=True, closed=False, complete=False, **kwargs)
    assert running is SeasonPhase.RUNNING
    assert season_phase(scheduled=True, closed=False, complete=True, **kwargs) is (
        SeasonPhase.FINISHED
    )
    assert makeup_problem(running, None, now) is not None
    assert makeup_problem(running, (now - 48 * HOUR).date(), now) is None  # past the cut-off
    assert makeup_problem(SeasonPhase.FINISHED, None, now) is None
    assert "closed" in (makeup_problem(SeasonPhase.CLOSED, None, now) or "")


def test_cl_15_a_late_step_at_the_deadline_instant_is_stored_after_it() -> None:
    """CL-15: "no later than" makes the deadline's instant in time for the judgement, which
    the bot makes at that instant; a step the life cycle calls late (taken then or after) is
    stored after it, so it cannot rewrite the judgement (found by the command-sequence
    property test: a challenge at the deadline's instant undid its forfeits)."""
    at_deadline = allow(view(DEADLINE), Step.ISSUE, Party.CLUB)
    assert at_deadline.late and at_deadline.recorded_at(DEADLINE) > DEADLINE
    later = DEADLINE + HOUR
    assert allow(view(later), Step.ISSUE, Party.CLUB).recorded_at(later) == later
    early = DEADLINE - HOUR
    assert allow(view(early), Step.ISSUE, Party.CLUB).recorded_at(early) == early
