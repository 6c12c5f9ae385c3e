"""The whole league computed from a season's facts by CL-1, CL-14 to CL-21, CL-DQ and CL-17.

It gives forfeits, disqualifications, adjustments and every division's standings, as at a cut-off.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from core.league.adjustments import (
    MultiTeamPlayer,
    adjusted_home_half,
    finished_by,
    multi_team_players,
)
from core.league.facts import CompiledMatch, compile_matches
from core.league.forfeits import Breach, Disqualification, judge
from core.league.season import Season
from core.league.standings import (
    ClubStanding,
    MatchResult,
    board_result,
    division_standings,
    forfeit_result,
)


def rule_order(rule: str) -> tuple[str, int, str]:
    """Sort key putting rule IDs in their natural order, so CL-5 comes before CL-20."""
    prefix, _, number = rule.partition("-")
    return prefix, int(number) if number.isdigit() else 10**6, rule


def end_of_day(day: dt.date) -> dt.datetime:
    """CL-1: `--as-of DATE` means what was known at the end of that day in UTC."""
    return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True)
class LeagueReport:
    """Everything derived from a season as at `as_of`, or from every fact in the file for None."""

    season: str
    as_of: dt.date | None
    divisions: tuple[tuple[str, tuple[ClubStanding, ...]], ...]
    results: tuple[MatchResult, ...]
    forfeits: tuple[Breach, ...]
    disqualified: tuple[Disqualification, ...]
    multi_team_players: tuple[MultiTeamPlayer, ...]
    adjusted_players: tuple[tuple[str, str], ...]
    complete: bool

    @property
    def champion(self) -> str | None:
        """CL-16: the winner of the first division listed.

        By CL-7 that is the top division, whatever its name. There is a winner once every match is
        decided by CL-1 and if no tie shares first place.
        """
        if not self.complete or not self.divisions:
            return None
        table = self.divisions[0][1]
        top = [s for s in table if s.rank == 1]
        return top[0].club if len(top) == 1 else None

    def standings(self, division: str) -> tuple[ClubStanding, ...]:
        """The table of one division by name."""
        return dict(self.divisions)[division]


def season_complete(
    season: Season, matches: Sequence[CompiledMatch], decided: set[str], out: set[str]
) -> bool:
    """CL-1, CL-12 and CL-16: checks that every match is decided.

    Each match in the file must be decided, and each division's single round robin needs a decided
    match for every pair of clubs. Pairs with a disqualified club are left out, since their matches
    are void.
    """
    met: set[frozenset[str]] = set()
    for match in matches:
        if {match.home, match.away} & out:
            continue
        if match.id not in decided:
            return False
        met.add(frozenset((match.home, match.away)))
    return all(
        frozenset(pair) in met
        for division in season.divisions
        for pair in combinations([c for c in division.clubs if c not in out], 2)
    )


def league_report(
    season: Season, as_of: dt.date | None = None, now: dt.datetime | None = None
) -> LeagueReport:
    """Computes the league from facts alone. By CORE-5 the order of the file does not matter.

    Facts and deadlines count up to the end of `as_of` in UTC when it is given, else up to `now`
    when given, else all of them. In the last case a deadline in the file is taken as passed.
    """
    cutoff = end_of_day(as_of) if as_of is not None else now
    games = season.rules.games_per_board
    matches = compile_matches(season)
    judgement = judge(season, cutoff)
    finished = finished_by(matches, cutoff)
    multi = multi_team_players(finished)
    closed = sorted({name.lower() for name in season.closed_accounts})
    adjusted = frozenset(closed) | {p.player for p in multi}
    forfeiting = judgement.forfeiting()
    finished_ids = {m.id for m in finished}
    by_division: dict[str, list[MatchResult]] = {d.name: [] for d in season.divisions}
    results: list[MatchResult] = []
    for match in matches:
        losers = forfeiting.get(match.id)
        if losers:
            result = forfeit_result(match.id, match.home, match.away, losers)
        elif match.id in finished_ids:
            home_half = adjusted_home_half(match, adjusted, games)
            result = board_result(
                match.id, match.home, match.away, home_half, match.total_half - home_half
            )
        else:
            continue
        results.append(result)
        by_division[match.division].append(result)
    out = set(judgement.disqualified)
    complete = season_complete(season, matches, {r.match for r in results}, out)
    tables = tuple(
        (d.name, tuple(division_standings(d.clubs, by_division[d.name], out)))
        for d in season.divisions
    )
    adjusted_players = tuple(
        sorted([(p.player, "CL-18") for p in multi] + [(p, "CL-19") for p in closed])
    )
    return LeagueReport(
        season=season.name,
        as_of=as_of,
        divisions=tables,
        results=tuple(results),
        forfeits=tuple(
            sorted(
                judgement.breaches, key=lambda b: (b.effective, b.match, b.club, rule_order(b.rule))
            )
        ),
        disqualified=tuple(sorted(judgement.disqualified.values(), key=lambda q: q.club)),
        multi_team_players=tuple(multi),
        adjusted_players=adjusted_players,
        complete=complete,
    )
