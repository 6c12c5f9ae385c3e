"""What one instant of one match brings, judged by core on the season's facts.

It gives the forfeits of that match effective then, the clubs disqualified then by CL-DQ, and the
ranks that moved from before the instant to after it. Nothing derived is stored. This only feeds
announcements.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.rendering.league import announcements
from core.league import league_report
from core.league.forfeits import Breach, Disqualification
from core.league.report import LeagueReport
from core.league.season import Season
from core.league.standings import ClubStanding

JUST_BEFORE = dt.timedelta(microseconds=1)


@dataclass(frozen=True)
class Judged:
    """A match's instant judged. `void` is set when a club of it was out before, and nothing is
    judged.
    """

    forfeits: tuple[Breach, ...]
    disqualified: tuple[Disqualification, ...]
    void: bool
    before: LeagueReport
    after: LeagueReport
    match: str = ""
    """The key of the match judged."""

    def losers(self) -> list[str]:
        """The clubs forfeiting the match at this instant, once each, in order."""
        return list(dict.fromkeys(b.club for b in self.forfeits))


Reports = tuple[LeagueReport, LeagueReport]
"""The league just before an instant and at it."""


def reports_at(season: Season, instant: dt.datetime) -> Reports:
    """The league reports just before `instant` and at it, which `judge_at` compares."""
    return league_report(season, now=instant - JUST_BEFORE), league_report(season, now=instant)


def judge_at(
    season: Season, match_key: str, instant: dt.datetime, reports: Reports | None = None
) -> Judged:
    """CL-FF and CL-DQ: the league just before and at `instant`, and what changed for the match.

    `reports` are those of `reports_at(season, instant)` when already computed.
    """
    match = next(m for m in season.matches if m.id == match_key)
    before, after = reports if reports is not None else reports_at(season, instant)
    out_before = {q.club for q in before.disqualified}
    void = bool({match.home, match.away} & out_before)
    forfeits = tuple(b for b in after.forfeits if b.match == match_key and b.effective == instant)
    new = tuple(q for q in after.disqualified if q.club not in out_before)
    return Judged(forfeits, new, void, before, after, match_key)


def _rank(standing: ClubStanding | None) -> str:
    if standing is None:
        return "—"
    if standing.disqualified:
        return "disqualified"
    return "—" if standing.rank is None else f"{standing.rank}{'=' if standing.tied else ''}"


def rank_changes(judged: Judged, clubs: set[str]) -> list[str]:
    """One line per division where a rank of the match's `clubs` moved, as `club before → after`.

    The other clubs' moves at the same instant are for their own matches to announce, so each is
    said once.
    """
    lines = []
    for name, table in judged.after.divisions:
        before = {s.club: s for s in judged.before.standings(name)}
        changes = [(s.club, _rank(before.get(s.club)), _rank(s)) for s in table if s.club in clubs]
        if any(b != a for _, b, a in changes):
            lines.append(announcements.standings_change(name, changes))
    return lines


def disqualification_lines(judged: Judged, season: Season) -> list[str]:
    """CL-DQ announcements: each club put out at this instant by this match's breach.

    Each gives the club's counter and its void matches, and is said once. A round shares its
    deadline, so the other matches judged at the same instant leave it to the match that caused it.
    """
    lines = []
    for q in judged.disqualified:
        if q.match != judged.match:
            continue
        count = sum(1 for b in judged.after.forfeits if b.club == q.club and b.rule == q.rule)
        void = sum(1 for m in season.matches if q.club in (m.home, m.away))
        lines.append(announcements.disqualified(q.club, q.rule, count, void))
    return lines
