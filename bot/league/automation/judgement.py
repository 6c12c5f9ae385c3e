"""What one instant of one match brings, judged by core on the season's facts.

It gives the forfeits of that match effective then, the clubs disqualified then by CL-DQ, and the
ranks that moved from before the instant to after it. Nothing derived is stored. This only feeds
announcements and the direct messages to the clubs' admins.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.kernel.notifications import Kind
from bot.league.notices import ClubAdmins, tell_admins
from bot.rendering.league import announcements, notices
from core.league import league_report
from core.league.forfeits import Breach, Disqualification, SeasonJudging
from core.league.report import LeagueReport, rule_order
from core.league.season import Season
from core.league.standings import ClubStanding
from storage.guild import LeagueUnit

JUST_BEFORE = dt.timedelta(microseconds=1)


@dataclass(frozen=True)
class Judged:
    """A match's instant judged. `void` is set when a club of it was out before, and nothing is
    judged.
    """

    forfeits: tuple[Breach, ...]
    disqualified: tuple[Disqualification, ...]
    void: bool
    counted: tuple[Breach, ...]
    """Every breach of the season counted by the instant."""
    match: str = ""
    """The key of the match judged."""

    def losers(self) -> list[str]:
        """The clubs forfeiting the match at this instant, once each, in order."""
        return list(dict.fromkeys(b.club for b in self.forfeits))


Reports = tuple[LeagueReport, LeagueReport]
"""The league just before an instant and at it."""


def reports_at(season: Season, instant: dt.datetime) -> Reports:
    """The league reports just before `instant` and at it, which `rank_changes` compares."""
    return league_report(season, now=instant - JUST_BEFORE), league_report(season, now=instant)


def judge_at(judging: SeasonJudging, match_key: str, instant: dt.datetime) -> Judged:
    """CL-FF and CL-DQ: the judgement just before and at `instant`, and what changed for the
    match.

    It reads the season's judging alone, in the order of the league report, with no standings.
    """
    match = next(m for m in judging.season.matches if m.id == match_key)
    before, after = judging.at(instant - JUST_BEFORE), judging.at(instant)
    void = bool({match.home, match.away} & set(before.disqualified))
    forfeits = sorted(
        (b for b in after.breaches if b.match == match_key and b.effective == instant),
        key=lambda b: (b.club, rule_order(b.rule)),
    )
    new = sorted(
        (q for q in after.disqualified.values() if q.club not in before.disqualified),
        key=lambda q: q.club,
    )
    return Judged(tuple(forfeits), tuple(new), void, after.breaches, match_key)


def _rank(standing: ClubStanding | None) -> str:
    if standing is None:
        return "—"
    if standing.disqualified:
        return "disqualified"
    return "—" if standing.rank is None else f"{standing.rank}{'=' if standing.tied else ''}"


def rank_changes(reports: Reports, clubs: set[str]) -> list[str]:
    """One line per division where a rank of the match's `clubs` moved, as `club before → after`,
    from `reports_at` the instant.

    The other clubs' moves at the same instant are for their own matches to announce, so each is
    said once.
    """
    was, now = reports
    lines = []
    for name, table in now.divisions:
        before = {s.club: s for s in was.standings(name)}
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
        count = sum(1 for b in judged.counted if b.club == q.club and b.rule == q.rule)
        void = sum(1 for m in season.matches if q.club in (m.home, m.away))
        lines.append(announcements.disqualified(q.club, q.rule, count, void))
    return lines


async def tell_judged(
    uow: LeagueUnit,
    admins: ClubAdmins,
    judged: Judged,
    clubs: Mapping[str, int],
    forfeit_text: Callable[[str, list[str]], str],
) -> None:
    """CL-FF and CL-DQ by direct message: each club of the match that forfeits it now, and each
    club this match's breach put out, to its admins who want forfeits.

    `clubs` are the match's clubs by name and `forfeit_text` renders a club's forfeit with its
    rules.
    """
    rules: dict[str, list[str]] = {}
    for breach in judged.forfeits:
        rules.setdefault(breach.club, []).append(breach.rule)
    for club, broken in rules.items():
        text = forfeit_text(club, list(dict.fromkeys(broken)))
        await tell_admins(uow, admins, Kind.FORFEIT, [clubs.get(club, club)], text)
    for q in judged.disqualified:
        if q.match == judged.match:
            text = notices.disqualified(q.club, q.rule)
            await tell_admins(uow, admins, Kind.FORFEIT, [clubs.get(q.club, q.club)], text)
