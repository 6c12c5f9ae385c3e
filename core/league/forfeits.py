"""Forfeits derived from facts by CL-15, CL-5, CL-6, CL-20, CL-21 and CL-FF, and the
disqualifications they lead to by CL-DQ.

A *breach* is one rule one club broke in one match, effective at an instant. That instant is the
challenge deadline, the match start, the finish when the player count comes from the boards, or a
director's decision. A club with any breach in a match loses it by forfeit. When both clubs breach,
both score 0.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from core.league.facts import challenge_deadline
from core.league.season import ClubAtStart, DirectorForfeit, Match, Season, SeasonRules

COUNTED_RULES = ("CL-15", "CL-20", "CL-21")
"""CL-DQ: the three separate forfeit counters."""

BEGINNING = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True, order=True)
class Breach:
    """One rule broken by one club in one match, effective from `effective`, by CL-FF."""

    effective: dt.datetime
    match: str
    club: str
    rule: str


@dataclass(frozen=True, slots=True)
class Disqualification:
    """A club out of the season by CL-DQ from `effective`.

    It names the rule that put the club out and the match whose breach made its counter reach the
    limit. The match is None when the directors decided.
    """

    club: str
    rule: str
    effective: dt.datetime
    match: str | None = None


def challenge_failures(match: Match, deadline: dt.datetime) -> tuple[str, ...]:
    """CL-15, judged at the deadline: the clubs that failed to start on time.

    If no challenge was issued by the deadline, both clubs failed. If it was issued but not accepted
    by then, the club that had to accept failed. Either club may issue and the other accepts.
    """
    challenge = match.challenge
    if challenge is None or challenge.issued > deadline:
        return (match.home, match.away)
    if challenge.accepted is None or challenge.accepted > deadline:
        return (match.away if challenge.issued_by == match.home else match.home,)
    return ()


def start_breaches(match: Match, min_players: int, rules: SeasonRules) -> list[Breach]:
    """CL-5, CL-6 and CL-20 judged on the facts at the start of a match that was started, by CL-FF.

    A club's player count is `at_start.players`, else the number of boards once the match has
    finished, effective then. A fact that is unknown breaks nothing.
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


def match_breaches(
    match: Match, deadline: dt.datetime, min_players: int, rules: SeasonRules
) -> list[Breach]:
    """CL-FF: judges a match at its start.

    A match not started on time by its CL-15 `deadline` is forfeited for CL-15 only. Otherwise the
    start facts are judged. Director forfeits are added separately.
    """
    failed = challenge_failures(match, deadline)
    if failed:
        return [Breach(deadline, match.id, club, "CL-15") for club in failed]
    return start_breaches(match, min_players, rules)


def director_breaches(
    forfeits: Iterable[DirectorForfeit], starts: Mapping[str, dt.datetime]
) -> list[Breach]:
    """CL-21 or other forfeits decided by the directors.

    Each is effective at the decision or, without a date, at the match start given in `starts` by
    match id.
    """
    return [Breach(f.decided or starts[f.match], f.match, f.club, f.rule) for f in forfeits]


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


def judge(season: Season, cutoff: dt.datetime | None) -> ForfeitJudgement:
    """CL-FF and CL-DQ: the judgement of `season`'s facts by `cutoff`, or of all of them for
    None.
    """
    return SeasonJudging(season).at(cutoff)


def division_facts(season: Season, division: str) -> Season:
    """The facts of `season` that judge the matches of `division` by CL-FF and CL-DQ.

    Clubs play only within their division (CL-12), so a club's forfeit counters (CL-DQ) count
    breaches of its own division's matches alone (CL-15, CL-20, CL-21). A match is void only when
    one of its two clubs is disqualified, so each match of `division` is judged the same from its
    division's matches, the directors' decisions about them and its clubs, and the season's rules.
    """
    kept = next(d for d in season.divisions if d.name == division)
    clubs = set(kept.clubs)
    matches = tuple(m for m in season.matches if m.division == division)
    keys = {m.id for m in matches}
    return replace(
        season,
        divisions=(kept,),
        matches=matches,
        closed_accounts=(),
        director_forfeits=tuple(f for f in season.director_forfeits if f.match in keys),
        director_disqualifications=tuple(
            q for q in season.director_disqualifications if q.club in clubs
        ),
        withdrawn=tuple(club for club in season.withdrawn if club in clubs),
    )


Event = tuple[dt.datetime, int, str, str, str]
"""A breach or decision as judged, in the order they are judged in.

The fields are the effective instant, the kind, the match id or "", the club and the rule. Kind 0 is
a directors' disqualification and kind 1 a breach.
"""


@dataclass(slots=True)
class _Events:
    """A season's events, sorted, with what judging them needs and the judgements made so far.

    The judgements are keyed by how many events they take in. Every `SeasonJudging` of the same
    events shares one.
    """

    events: list[Event]
    clubs_of: dict[str, tuple[str, str]]
    instants: list[dt.datetime] = field(init=False)
    by_match: dict[str, list[Event]] = field(init=False)
    kept: dict[int, ForfeitJudgement] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.instants = [event[0] for event in self.events]
        self.by_match = {}
        for event in self.events:
            self.by_match.setdefault(event[2], []).append(event)


class SeasonJudging:
    """CL-FF and CL-DQ on one season's facts at any instant.

    Each match's breaches are found once. The judgement is kept for each span between breach and
    decision instants, because it can only change at one of them. This is pure and the memo is its
    only state.
    """

    __slots__ = ("_events", "season")

    def __init__(self, season: Season, events: _Events | None = None) -> None:
        """`events`: the season's breaches and decisions when already known from `with_match`.

        Otherwise they are found here from its facts.
        """
        self.season = season
        if events is None:
            starts = {m.id: m.start for m in season.matches}
            minimums = _minimums(season)
            found = [e for m in season.matches for e in _match_events(season, m, minimums)]
            found.extend(_events(director_breaches(season.director_forfeits, starts)))
            found.extend(
                (q.decided or BEGINNING, 0, "", q.club, q.rule)
                for q in season.director_disqualifications
            )
            found.sort()
            events = _Events(found, {m.id: (m.home, m.away) for m in season.matches})
        self._events = events

    def with_match(self, season: Season, match_id: str) -> SeasonJudging:
        """The judging of `season`, whose facts differ from this one's in match `match_id` alone.

        The other matches' breaches are reused and that match's are found again. When that match's
        breaches are the same as before, as for a result that breaks no rule, the judgements kept so
        far are shared because they are the same.
        """
        match = next(m for m in season.matches if m.id == match_id)
        decided = (f for f in season.director_forfeits if f.match == match_id)
        found = _match_events(season, match, _minimums(season))
        found.extend(_events(director_breaches(decided, {match_id: match.start})))
        found.sort()
        if found == self._events.by_match.get(match_id, []):
            return SeasonJudging(season, self._events)
        events = [e for e in self._events.events if e[2] != match_id]
        events.extend(found)
        events.sort()  # nearly sorted already: one pass
        return SeasonJudging(
            season, _Events(events, {m.id: (m.home, m.away) for m in season.matches})
        )

    def at(self, cutoff: dt.datetime | None) -> ForfeitJudgement:
        """The judgement of every breach and decision effective by `cutoff`, or all for None."""
        shared = self._events
        reached = len(shared.instants) if cutoff is None else bisect_right(shared.instants, cutoff)
        kept = shared.kept.get(reached)
        if kept is None:
            kept = shared.kept[reached] = _walk(
                shared.events[:reached], shared.clubs_of, self.season.rules
            )
        return kept


def _minimums(season: Season) -> dict[str, int]:
    """Each division's minimum of players by CL-20, by name."""
    return {d.name: d.min_players for d in season.divisions}


def _match_events(season: Season, match: Match, minimums: Mapping[str, int]) -> list[Event]:
    """The breaches of one match's facts, found by `match_breaches`, as events."""
    deadline = challenge_deadline(match, season.rules.challenge_deadline_hours)
    return _events(match_breaches(match, deadline, minimums[match.division], season.rules))


def _events(breaches: Iterable[Breach]) -> list[Event]:
    """Breaches as events."""
    return [(b.effective, 1, b.match, b.club, b.rule) for b in breaches]


def _walk(
    events: Iterable[Event],
    clubs_of: Mapping[str, tuple[str, str]],
    rules: SeasonRules,
) -> ForfeitJudgement:
    """CL-FF and CL-DQ: walks the breaches and decisions in time order.

    Each breach counts on its rule's counter, and a club whose counter reaches
    `forfeits_to_disqualify` is disqualified. A match whose club was already disqualified before a
    breach became effective is not played any more, so that breach is not judged and nobody is
    charged for a void match.
    """
    counters: dict[tuple[str, str], int] = {}
    disqualified: dict[str, Disqualification] = {}
    counted: list[Breach] = []
    seen: set[tuple[str, str, str]] = set()
    for effective, kind, match, club, rule in events:
        if kind == 0:
            disqualified.setdefault(club, Disqualification(club, rule, effective))
            continue
        if disqualified:  # written out: the hot loop of every judgement
            home, away = clubs_of[match]
            gone_home, gone_away = disqualified.get(home), disqualified.get(away)
            if (gone_home is not None and gone_home.effective < effective) or (
                gone_away is not None and gone_away.effective < effective
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
