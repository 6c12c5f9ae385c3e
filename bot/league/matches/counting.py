"""What a match counts as, and why, in words, by CL-14, CL-FF, CL-ADJ and CL-DQ.

The result posts, the replies to a result and `/match show` say it beside the score on the boards. A
change that alters earlier matches' counted results lists them. It is read from the league report
and never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rendering.common.text import halves as points_text
from core.league import LeagueReport
from core.league.forfeits import Breach, Disqualification
from core.league.season import Season
from core.league.standings import MatchResult


def _why(rule: str, season: Season, division: str) -> str:
    """The reason a rule gives for a forfeit, with the season's values."""
    rules = season.rules
    minimum = next((d.min_players for d in season.divisions if d.name == division), None)
    return {
        "CL-5": f"over {rules.max_members} members at the start",
        "CL-6": f"over the {rules.max_avg_rating:g} daily average at the start",
        "CL-15": "no challenge issued and accepted in time",
        "CL-20": f"fewer than {minimum} players",
        "CL-21": "a director forfeit",
    }.get(rule, "a director forfeit")


@dataclass(frozen=True)
class Counted:
    """How a match counts now: its counted half-points and the sentence saying why.

    The half-points are None when the match is not decided. The sentence says why it differs from
    its boards, and is None when it counts as played.
    """

    home_half: int | None
    away_half: int | None
    why: str | None


def judged_counts(
    forfeits: Sequence[Breach], disqualified: Sequence[Disqualification], season: Season, key: str
) -> str | None:
    """CL-FF and CL-DQ: why match `key` does not count as played, from the judgement alone, or None.

    It is void when a club of it is disqualified, since none of that club's matches count. It may be
    a forfeit, naming who forfeited and the rule's reason.
    """
    match = next(m for m in season.matches if m.id == key)
    out = {q.club: q for q in disqualified}
    gone = [club for club in (match.home, match.away) if club in out]
    if gone:
        return (
            f"void (CL-DQ): {' and '.join(gone)} disqualified ({out[gone[0]].rule}), so it"
            " counts for nobody"
        )
    mine = [b for b in forfeits if b.match == key]
    if mine:
        reasons = "; ".join(
            f"{b.club} {_why(b.rule, season, match.division)} ({b.rule})" for b in mine
        )
        return f"counts as a forfeit: {reasons}"
    return None


def what_counts(report: LeagueReport, season: Season, key: str) -> Counted:
    """CL-FF, CL-ADJ and CL-DQ: how match `key` counts in `report`, and why.

    It may be void, a forfeit from `judged_counts`, or have its boards adjusted by CL-18 or CL-19.
    """
    why = judged_counts(report.forfeits, report.disqualified, season, key)
    if why is not None:
        return Counted(None, None, why)
    match = next(m for m in season.matches if m.id == key)
    result = next((r for r in report.results if r.match == key), None)
    if result is None:
        return Counted(None, None, None)
    played = sum(b.home_half for b in match.boards), sum(b.away_half for b in match.boards)
    if (result.home_half, result.away_half) == played:
        return Counted(result.home_half, result.away_half, None)
    adjusted = sorted({rule for _, rule in report.adjusted_players})
    return Counted(
        result.home_half,
        result.away_half,
        f"counts {points_text(result.home_half)} – {points_text(result.away_half)} after"
        f" adjusting players' boards ({', '.join(adjusted)})",
    )


def _score(result: MatchResult | None) -> str:
    if result is None:
        return "not decided"
    if result.forfeit:
        return f"forfeit {result.home_points}:{result.away_points}"
    return f"{points_text(result.home_half)} – {points_text(result.away_half)}"


def changed_matches(
    before: LeagueReport, after: LeagueReport, season: Season, leave_out: Sequence[str] = ()
) -> list[str]:
    """The matches whose counted result differs between two reports, leaving out `leave_out`.

    Each reads `key home score away (was …)`. This is what a later CL-18 or CL-19 finding changed.
    """
    old = {r.match: r for r in before.results}
    new = {r.match: r for r in after.results}
    names = {m.id: (m.home, m.away) for m in season.matches}
    lines = []
    for key in sorted(set(old) | set(new)):
        if key in leave_out or key not in names:
            continue
        was, now = old.get(key), new.get(key)
        if was == now:
            continue
        home, away = names[key]
        lines.append(f"{key} {home} {_score(now)} {away} (was {_score(was)})")
    return lines
