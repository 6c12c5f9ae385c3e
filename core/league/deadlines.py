"""The instants that matter for each CL match and what becomes of the match at each.

These are the CL-15 challenge deadline and the CL-13 and CL-22 start. The match is judged on the
facts known, for a scheduler to act on.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass

from core.league.facts import challenge_deadline
from core.league.forfeits import Breach, challenge_failures, start_breaches
from core.league.season import Match, Season


class DeadlineKind(enum.Enum):
    """Which instant of a match."""

    CHALLENGE = "challenge deadline"
    START = "start"


@dataclass(frozen=True, slots=True)
class Deadline:
    """One instant of one match and the forfeits it brings on the facts as they stand."""

    match: str
    kind: DeadlineKind
    instant: dt.datetime
    forfeits: tuple[Breach, ...]
    consequence: str


def match_deadlines(season: Season, match: Match) -> tuple[Deadline, Deadline]:
    """CL-15, then CL-5, CL-6 and CL-20 by CL-FF: what happens at each deadline of a match.

    At the challenge deadline a club without an issued or accepted challenge forfeits. At the start,
    a started match is judged on its start facts.
    """
    rules = season.rules
    deadline = challenge_deadline(match, rules.challenge_deadline_hours)
    failed = challenge_failures(match, deadline)
    if not failed:
        challenge_text = "challenge accepted in time: the match goes ahead"
    elif len(failed) == 2:
        challenge_text = "no challenge issued: both clubs forfeit (CL-15)"
    else:
        challenge_text = f"challenge not accepted: {failed[0]} forfeits (CL-15)"
    at_challenge = Deadline(
        match.id,
        DeadlineKind.CHALLENGE,
        deadline,
        tuple(Breach(deadline, match.id, club, "CL-15") for club in failed),
        challenge_text,
    )
    if failed:
        return at_challenge, Deadline(
            match.id, DeadlineKind.START, match.start, (), "not started: forfeited (CL-15)"
        )
    minimum = next(d.min_players for d in season.divisions if d.name == match.division)
    breaches = tuple(b for b in start_breaches(match, minimum, rules) if b.effective == match.start)
    if breaches:
        start_text = "forfeits at start: " + ", ".join(f"{b.club} ({b.rule})" for b in breaches)
    else:
        start_text = "match starts; no limit broken on the facts known"
    return at_challenge, Deadline(match.id, DeadlineKind.START, match.start, breaches, start_text)


def season_deadlines(season: Season, after: dt.datetime | None = None) -> list[Deadline]:
    """Every match's deadlines in time order, only those later than `after` when it is given."""
    found = [d for m in season.matches for d in match_deadlines(season, m)]
    if after is not None:
        found = [d for d in found if d.instant > after]
    return sorted(found, key=lambda d: (d.instant, d.match, d.kind.value))
