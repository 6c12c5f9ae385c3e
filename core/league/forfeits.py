"""Forfeits derived from facts (CL-15, CL-5, CL-6, CL-20, CL-21, CL-FF) and the
disqualifications they lead to (CL-DQ).

A *breach* is one rule one club broke in one match, effective at an instant (the challenge
deadline, the match start, the finish when the player count comes from the boards, or a
director's decision). A club with any breach in a match loses it by forfeit; both → both 0.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.league.facts import CompiledMatch
from core.league.season import ClubAtStart, Match, Season, SeasonRules

COUNTED_RULES = ("CL-15", "CL-20", "CL-21")
"""CL-DQ: the three separate forfeit counters."""

BEGINNING = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True, order=True)
class Breach:
    """One rule broken by one club in one match, effective from `effective` (CL-FF)."""

    effective: dt.datetime
    match: str
    club: str
    rule: str


@dataclass(frozen=True, slots=True)
class Disqualification:
    """A club out of the season (CL-DQ) from `effective`, by the rule that put it out, and
    the match whose breach made its counter reach the limit (None: the directors decided)."""

    club: str
    rule: str
    effective: dt.datetime
    match: str | None = None


def challenge_failures(match: Match, deadline: dt.datetime) -> tuple[str, ...]:
    """CL-15, judged at the deadline: the clubs that failed to start on time.

    No challenge issued by the deadline → both failed; issued but not accepted by then →
    the club that had to accept failed (either club may issue, the other accepts).
    """
    challenge = match.challenge
    if challenge is None or challenge.issued > deadline:
        return (match.home, match.away)
    if challenge.accepted is None or challenge.accepted > deadline:
        return (match.away if challenge.issued_by == match.home else match.home,)
    return ()


def start_breaches(match: Match, min_players: int, rules: SeasonRules) -> list[Breach]:
    """CL-5, CL-6, CL-20 judged on the facts at the start of a match that was started (CL-FF).

    A club's player count is `at_start.players`, else the number of boards once the match
    has finished (effective then); a fact that is unknown breaks nothing.
    """
    found: list[Breach] = []
    for club in (match.home, match.away):
        facts = match.at_start.get(club) or ClubAtStart()
        if facts.members is not None and facts.members > rules.max_members:
            found.append(Breach(match.start, match.id, club, "CL-5"))
        if facts.avg_rating is not None and facts.avg_rating > rules.max_avg_rating:
            found.append(Breach(match.start, match.id, club, "CL-6"))
        if facts.players is not None:
            if facts.players < min_players:
                found.append(Breach(match.start, match.id, club, "CL-20"))
        elif match.finished is not None and len(match.boards) < min_players:
            found.append(Breach(max(match.finished, match.start), match.id, club, "CL-20"))
    return found


def match_breaches(facts: CompiledMatch, min_players: int, rules: SeasonRules) -> list[Breach]:
    """CL-FF: a match not started on time is forfeited for CL-15 only; otherwise the start
    facts are judged (director forfeits are added separately)."""
    failed = challenge_failures(facts.source, facts.deadline)
    if failed:
        return [Breach(facts.deadline, facts.id, club, "CL-15") for club in failed]
    return start_breaches(facts.source, min_players, rules)


def director_breaches(season: Season, starts: Mapping[str, dt.datetime]) -> list[Breach]:
    """CL-21 (or another rule) forfeits decided by the directors, effective at the decision
    or, without a date, at the match start."""
    return [
        Breach(f.decided or starts[f.match], f.match, f.club, f.rule)
        for f in season.director_forfeits
    ]


@dataclass(frozen=True, slots=True)
class ForfeitJudgement:
    """What the facts known at the cut-off give: counted breaches and disqualifications."""

    breaches: tuple[Breach, ...]
    disqualified: dict[str, Disqualification]

    def forfeiting(self) -> dict[str, set[str]]:
        """Match id → the clubs that lost it by forfeit."""
        out: dict[str, set[str]] = {}
        for breach in self.breaches:
            out.setdefault(breach.match, set()).add(breach.club)
        return out


def judge(
    season: Season,
    matches: Iterable[CompiledMatch],
    cutoff: dt.datetime | None,
) -> ForfeitJudgement:
    """CL-FF, CL-DQ: walk every breach effective by `cutoff` in time order, count it on its
    rule's counter, and disqualify a club whose counter reaches `forfeits_to_disqualify`.

    A match whose club was already disqualified before a breach became effective is not
    played any more, so that breach is not judged (nobody is charged for a void match).
    """
    rules = season.rules
    minimum = {d.name: d.min_players for d in season.divisions}
    clubs_of: dict[str, tuple[str, str]] = {}
    starts: dict[str, dt.datetime] = {}
    candidates: list[Breach] = []
    for facts in matches:
        clubs_of[facts.id] = (facts.home, facts.away)
        starts[facts.id] = facts.start
        candidates.extend(match_breaches(facts, minimum[facts.division], rules))
    candidates.extend(director_breaches(season, starts))
    events: list[tuple[dt.datetime, int, str, str, str]] = [
        (b.effective, 1, b.match, b.club, b.rule) for b in candidates
    ]
    events.extend(
        (q.decided or BEGINNING, 0, "", q.club, q.rule) for q in season.director_disqualifications
    )
    events.sort()
    counters: dict[tuple[str, str], int] = {}
    disqualified: dict[str, Disqualification] = {}
    counted: list[Breach] = []
    seen: set[tuple[str, str, str]] = set()
    for effective, kind, match, club, rule in events:
        if cutoff is not None and effective > cutoff:
            break
        if kind == 0:
            disqualified.setdefault(club, Disqualification(club, rule, effective))
            continue
        if any(
            c in disqualified and disqualified[c].effective < effective for c in clubs_of[match]
        ):
            continue
        if (match, club, rule) in seen:
            continue
        seen.add((match, club, rule))
        counted.append(Breach(effective, match, club, rule))
        if rule in COUNTED_RULES:
            count = counters[club, rule] = counters.get((club, rule), 0) + 1
            if count >= rules.forfeits_to_disqualify and club not in disqualified:
                disqualified[club] = Disqualification(club, rule, effective, match)
    return ForfeitJudgement(tuple(counted), disqualified)
