"""A CL match's life cycle by CL-13, CL-14, CL-15, CL-FF and CL-DQ, as one explicit state machine.

A match is *scheduled*, then its challenge is *issued* and *accepted* by CL-15, it *starts* by CL-13
and is *finished* by CL-14. Otherwise it is *forfeited* at its challenge deadline, for CL-15 only by
CL-FF, or it is *void* because one of its clubs is disqualified by CL-DQ.

Every door that changes a match asks `allow` first: a club admin's command, a chess.com sighting, a
scheduler job, an arbiter or a passed motion. A refused step says why. An allowed one says whether
it comes late, after the deadline, or on a void match. A late step is recorded as such and never
rewrites the CL-15 judgement. A step on a void match is recorded and counts for nobody.

The state is a pure function of the match's facts and the instant, so nothing here is stored.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.league.facts import challenge_deadline
from core.league.forfeits import SeasonJudging
from core.league.season import Season


class MatchState(enum.Enum):
    """Where a match stands, by CL-13 to CL-15 and CL-DQ."""

    SCHEDULED = "scheduled"
    """Before its challenge deadline, no challenge recorded."""
    ISSUED = "challenge issued"
    """The challenge is issued but not accepted yet, and the deadline is ahead."""
    ACCEPTED = "challenge accepted"
    """Issued and accepted in time by CL-15, and not started yet."""
    FORFEITED = "forfeited at its challenge deadline (CL-15)"
    """The deadline passed without an issued and accepted challenge, judged by CL-FF."""
    STARTED = "started"
    """Started on time by CL-13, with no result yet."""
    FINISHED = "finished"
    """Its result is recorded by CL-14."""
    VOID = "void (CL-DQ)"
    """A club of it is disqualified: none of its facts count for anyone."""


class Step(enum.Enum):
    """What a party wants to do to a match."""

    ISSUE = "record the challenge as issued"
    CORRECT_CHALLENGE = "correct the recorded challenge"
    ACCEPT = "record the challenge as accepted"
    RESULT = "record a result"
    AT_START = "record the facts at the start"
    RESCHEDULE = "move the match"
    REMIND = "remind the clubs"
    DIRECTOR_FORFEIT = "impose a director forfeit"


class Party(enum.Enum):
    """Who acts: the bot (from chess.com, or a job), a club admin, a director alone, an
    arbiter (an audited correction), or a passed director motion (CL-23)."""

    BOT = "the bot"
    CLUB = "a club admin"
    DIRECTOR = "a director"
    ARBITER = "an arbiter"
    MOTION = "a passed motion"


class StepRefused(ValueError):
    """A step the life cycle does not allow. The message says why and what would be allowed."""


@dataclass(frozen=True, slots=True)
class MatchView:
    """What the life cycle reads of one match at one instant.

    It reads the start and challenge deadline, the challenge's instants, the finish, whether a
    result is stored and by which chess.com match, and the club that made it void, if any.
    """

    id: str
    start: dt.datetime
    deadline: dt.datetime
    issued: dt.datetime | None
    accepted: dt.datetime | None
    finished: dt.datetime | None
    now: dt.datetime
    void_by: str | None = None
    void_since: dt.datetime | None = None
    """CL-DQ: when `void_by` was disqualified.

    Breaches of this match at that very instant are judged with it. Only what takes effect later is
    void.
    """
    notice: dt.timedelta = dt.timedelta(0)
    """CL-15's notice of the season, the start minus the deadline for a match not moved."""
    name: str = ""
    """How a refusal names the match. The default is its id."""

    @property
    def judged(self) -> bool:
        """CL-15: the challenge deadline has passed, so it was judged."""
        return self.now >= self.deadline

    @property
    def failed_cl15(self) -> bool:
        """CL-15: the challenge was not issued and accepted by the deadline."""
        return (
            self.issued is None
            or self.issued > self.deadline
            or self.accepted is None
            or self.accepted > self.deadline
        )


def match_state(view: MatchView) -> MatchState:
    """The match's state at `view.now` by CL-13 to CL-15, CL-FF and CL-DQ."""
    if view.void_since is not None and view.void_since < view.now:
        return MatchState.VOID
    if view.finished is not None:
        return MatchState.FINISHED
    if view.judged and view.failed_cl15:
        return MatchState.FORFEITED
    if view.now >= view.start:
        return MatchState.STARTED
    if view.accepted is not None:
        return MatchState.ACCEPTED
    if view.issued is not None:
        return MatchState.ISSUED
    return MatchState.SCHEDULED


@dataclass(frozen=True, slots=True)
class Allowed:
    """A step the life cycle allows, with the state it was taken in and the notes that go with it.

    It says whether the step is late, that is after the challenge deadline when CL-15 was judged
    without it. A reply or an announcement gives the notes with it.
    """

    state: MatchState
    late: bool
    notes: tuple[str, ...]
    not_before: dt.datetime | None = None
    """CL-15: the earliest instant a late challenge step is stored at, its `recorded_at`."""

    def recorded_at(self, at: dt.datetime) -> dt.datetime:
        """When a challenge step taken `at` is stored.

        It is stored at `at`, except that a late step is never stored at the deadline itself. A step
        is late when taken once the deadline was reached and CL-15 was judged. Storing it at the
        deadline would count as in time, since the rule says "no later than", and would rewrite the
        judgement made at that instant.
        """
        return at if self.not_before is None else max(at, self.not_before)


AFTER_THE_DEADLINE = dt.timedelta(microseconds=1)
"""How long after the deadline a late step taken at the deadline's very instant is stored."""

LATE_NOTE = (
    "recorded after the challenge deadline: it does not change the CL-15 judgement taken then"
)
"""CL-15: what a reply says of a challenge step declared or seen after the deadline."""


def void_note(view: MatchView) -> str:
    """CL-DQ: why a match counts for nobody."""
    return f"void (CL-DQ): {view.void_by} is disqualified, so this match counts for nobody"


def _refuse(view: MatchView, why: str) -> StepRefused:
    return StepRefused(f"Match {view.name or view.id} {why}")


def allow(
    view: MatchView, step: Step, party: Party, *, new_start: dt.datetime | None = None
) -> Allowed:
    """CL-13..15, CL-FF, CL-DQ: whether `party` may take `step` on the match now; raises
    `StepRefused` saying why not (and which party could). `new_start` is a reschedule's."""
    state = match_state(view)
    notes: list[str] = []
    late = False
    not_before = None
    if step in (Step.ISSUE, Step.ACCEPT):
        _challenge_step(view, step, state)
        late = view.judged
        if late:
            notes.append(LATE_NOTE)
            not_before = view.deadline + AFTER_THE_DEADLINE
    elif step is Step.CORRECT_CHALLENGE:
        _correction_step(view, party, state)
        notes.append(CORRECTION_NOTE)
    elif step is Step.RESULT:
        _result_step(view, party, state)
        if state is MatchState.FORFEITED:
            notes.append("it counts as forfeited at the challenge deadline (CL-15, CL-FF)")
    elif step is Step.AT_START:
        if party is not Party.ARBITER:
            if view.now < view.start:
                raise _refuse(view, "has not started: its facts at the start come at the start")
            if state is MatchState.FORFEITED:
                raise _refuse(view, "was not started on time: only CL-15 judges it (CL-FF)")
            if view.void_since is not None and view.void_since < view.start:
                raise _refuse(view, f"is {void_note(view)}: nothing is judged at its start")
    elif step is Step.RESCHEDULE:
        assert new_start is not None, "a reschedule names its new start"
        _reschedule_step(view, party, state, new_start)
    elif step is Step.REMIND:
        if state not in (MatchState.SCHEDULED, MatchState.ISSUED) or view.judged:
            raise _refuse(view, f"is {state.value}: no reminder is due")
    elif step is Step.DIRECTOR_FORFEIT and _void_by_now(view):
        raise _refuse(
            view, f"is {void_note(view)}: a director forfeit there would count for no one"
        )
    if state is MatchState.VOID:
        notes.append(void_note(view))
    return Allowed(state, late, tuple(notes), not_before)


def _void_by_now(view: MatchView) -> bool:
    """CL-DQ: a disqualification already recorded voids the match for any new decision.

    Breaches that take effect at the instant of the disqualification are judged with it,
    but a director decision taken at or after it has nothing left to judge.
    """
    return view.void_since is not None and view.void_since <= view.now


def _challenge_step(view: MatchView, step: Step, state: MatchState) -> None:
    """CL-15: checks a challenge step.

    A recorded challenge is never replaced, since a correction is for an arbiter or a motion. It is
    accepted once, after it was issued. A finished match takes neither step.
    """
    if state is MatchState.FINISHED:
        raise _refuse(view, "is finished: its challenge can no longer change")
    if step is Step.ISSUE and view.issued is not None:
        raise _refuse(
            view,
            "has its challenge recorded already: a recorded challenge is not replaced"
            " (an arbiter corrects it: `/match correct-challenge`)",
        )
    if step is Step.ACCEPT:
        if view.issued is None:
            raise _refuse(view, "has no challenge issued yet")
        if view.accepted is not None:
            raise _refuse(view, "has its challenge accepted already")


CORRECTION_NOTE = "its times stand, and so does the CL-15 judgement made with them"
"""What a challenge correction never changes: when it was issued and accepted."""


def _correction_step(view: MatchView, party: Party, state: MatchState) -> None:
    """CL-15: a recorded challenge's chess.com match or issuing club is corrected only by an
    arbiter or a passed motion (audited), never its instants — so the judgement at the
    deadline, made with them, stands; a finished match's result is corrected instead."""
    if party not in (Party.ARBITER, Party.MOTION):
        raise _refuse(view, "has its challenge recorded: only an arbiter corrects it")
    if view.issued is None:
        raise _refuse(view, "has no challenge recorded: a club admin declares it")
    if state is MatchState.FINISHED:
        raise _refuse(view, "is finished: correct its result instead")


def _result_step(view: MatchView, party: Party, state: MatchState) -> None:
    """CL-14: no result before the start, none finished before it or in the future, and a
    recorded result is replaced only by an arbiter, a motion or the bot's re-reading."""
    if view.now < view.start:
        raise _refuse(view, "has not started yet: no result before its start")
    if view.finished is not None and party not in (Party.ARBITER, Party.MOTION, Party.BOT):
        raise _refuse(
            view, "has its result recorded already: an arbiter (or a director motion) corrects it"
        )
    del state


def finish_problem(view: MatchView, finished: dt.datetime) -> str | None:
    """CL-14: why a result cannot say it finished at `finished`, or None when it can.

    It cannot finish before the start or later than now.
    """
    if finished < view.start:
        return f"Match {view.name or view.id} cannot have finished before its start"
    if finished > view.now:
        return f"Match {view.name or view.id} cannot have finished in the future"
    return None


def _reschedule_step(
    view: MatchView, party: Party, state: MatchState, new_start: dt.datetime
) -> None:
    """CL-13 and CL-15: checks that a match may move.

    A match not started moves. After its deadline, or to a start closer than its notice, it moves
    only by a passed `reschedule` motion, and never so that a judgement is undone.
    """
    if state in (MatchState.FINISHED, MatchState.STARTED):
        raise _refuse(view, f"is {state.value}: it can no longer be moved")
    if state is MatchState.VOID:
        raise _refuse(view, f"is {void_note(view)}: it is not played")
    if state is MatchState.FORFEITED:
        raise _refuse(
            view,
            "was forfeited at its challenge deadline (CL-15): moving it cannot undo that judgement",
        )
    if new_start <= view.now:
        raise _refuse(view, "cannot be moved to a start in the past")
    if new_start == view.start:
        raise _refuse(view, "starts then already")
    if party is Party.MOTION:
        return
    if view.judged:
        raise _refuse(
            view,
            "is past its challenge deadline: only a passed director motion moves it now"
            " (`/vote open kind:reschedule`)",
        )
    if new_start - view.notice <= view.now:
        raise _refuse(
            view,
            "would start sooner than the CL-15 notice allows: only a passed director motion"
            " moves it there (`/vote open kind:reschedule`)",
        )


def moved_deadline(view: MatchView, new_start: dt.datetime) -> dt.datetime | None:
    """CL-15 for a moved match: the deadline it keeps.

    Returns None when the notice still fits, since the deadline then follows the start. When the
    deadline already passed and was judged, that deadline stands. Otherwise the match was moved by a
    motion to a start closer than the notice, and the new start itself is returned.

    Interpretation: directors who move a match on short notice leave the clubs until the start to
    issue and accept the challenge. A judged deadline is never moved.
    """
    if view.judged:
        return view.deadline
    if new_start - view.notice > view.now:
        return None
    return new_start


def void_clubs(judging: Season | SeasonJudging, now: dt.datetime) -> dict[str, dt.datetime]:
    """CL-DQ: the clubs disqualified by `now`, with the instant each went out.

    They come from a season's facts, or from its `SeasonJudging` when one is kept.
    """
    if isinstance(judging, Season):
        judging = SeasonJudging(judging)
    return {club: q.effective for club, q in judging.at(now).disqualified.items()}


def match_view(
    season: Season, match_id: str, now: dt.datetime, out: Mapping[str, dt.datetime] | None = None
) -> MatchView:
    """The life cycle's view of match `match_id` of `season` at `now`.

    `out` holds the clubs disqualified by then, from `void_clubs`, when already known.
    """
    match = next(m for m in season.matches if m.id == match_id)
    disqualified = void_clubs(season, now) if out is None else out
    hours = season.rules.challenge_deadline_hours
    challenge = match.challenge
    out_of = sorted((disqualified[c], c) for c in (match.home, match.away) if c in disqualified)
    return MatchView(
        id=match.id,
        start=match.start,
        deadline=challenge_deadline(match, hours),
        issued=None if challenge is None else challenge.issued,
        accepted=None if challenge is None else challenge.accepted,
        finished=match.finished,
        now=now,
        void_by=out_of[0][1] if out_of else None,
        void_since=out_of[0][0] if out_of else None,
        notice=dt.timedelta(hours=hours),
    )


def states(season: Season, now: dt.datetime) -> Iterable[tuple[str, MatchState]]:
    """Every match of the season with its state at `now`, from one judgement for all."""
    out = void_clubs(season, now)
    for match in season.matches:
        yield match.id, match_state(match_view(season, match.id, now, out))


class SeasonPhase(enum.Enum):
    """A CL season's life cycle by CL-1 and CL-8.

    A season is set up, scheduled, running, finished once every match is decided, and closed once
    next season's divisions are adopted.
    """

    SETUP = "setup"
    """Divisions and clubs are being put together, with no fixtures yet."""
    SCHEDULED = "scheduled"
    """Fixtures are stored by CL-12 and CL-13, and no challenge deadline has passed yet."""
    RUNNING = "running"
    """From its first CL-15 challenge deadline until every match is decided."""
    FINISHED = "finished"
    """Every match is decided by CL-1, so the final standings stand."""
    CLOSED = "closed"
    """Next season's divisions are adopted by a passed motion, by CL-8 and CL-23."""


PREFERRED = (
    SeasonPhase.RUNNING,
    SeasonPhase.SCHEDULED,
    SeasonPhase.FINISHED,
    SeasonPhase.SETUP,
)
"""Which of a club's seasons a command without a `season` means.

It is the running season, else the next to start, else the one just finished while its make-up is
not adopted, else one being set up. It is never a closed one.
"""


def season_phase(
    *,
    scheduled: bool,
    closed: bool,
    deadlines: Iterable[dt.datetime],
    complete: bool,
    now: dt.datetime,
) -> SeasonPhase:
    """CL-1 and CL-8: the phase of a season from what is stored.

    It reads whether fixtures are `scheduled`, whether the season is `closed`, its matches'
    challenge `deadlines`, and whether every match is decided as at `now`. That last one is
    `complete`, taken from the league report.
    """
    if closed:
        return SeasonPhase.CLOSED
    if not scheduled:
        return SeasonPhase.SETUP
    if complete:
        return SeasonPhase.FINISHED
    first = min(deadlines, default=None)
    if first is not None and now >= first:
        return SeasonPhase.RUNNING
    return SeasonPhase.SCHEDULED


def makeup_problem(phase: SeasonPhase, cutoff: dt.date | None, now: dt.datetime) -> str | None:
    """CL-1 and CL-8: why next season's divisions cannot be put to the vote yet, or None.

    They can be voted on only once the season is finished or past its divisions cut-off date,
    counted to the end of that day in UTC. A closed season never takes a vote.
    """
    if phase is SeasonPhase.CLOSED:
        return "is closed: its divisions were adopted already"
    if phase is SeasonPhase.FINISHED:
        return None
    if cutoff is not None and now > dt.datetime.combine(cutoff, dt.time.max, tzinfo=dt.UTC):
        return None
    until = f" or after its cut-off {cutoff.isoformat()}" if cutoff else " (it has no cut-off date)"
    return f"is {phase.value}: its divisions are proposed once it is finished{until}"


def cutoff_problem(cutoff: dt.date, first_day: dt.date | None) -> str | None:
    """CL-1: why `cutoff` cannot be a season's divisions cut-off date, or None when it can.

    A day before the first round `first_day` is refused, because its standings hold no match and the
    CL-8 proposal would be an empty table open to the vote at once. `first_day` is None when there
    are no fixtures or calendar yet.
    """
    if first_day is not None and cutoff < first_day:
        return (
            f"The cut-off date {cutoff.isoformat()} is before the season's first round,"
            f" {first_day.isoformat()}: its standings would hold no match (CL-1)"
        )
    return None
