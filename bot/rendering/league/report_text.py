"""The league as aligned text for a terminal, for `arbiter league`.

It gives one table per division with forfeits and adjusted players, and the CL-8 proposal.
"""

from __future__ import annotations

from fractions import Fraction

from bot.rendering.league.division_view import rank_text
from core.league import LeagueReport, Proposal
from core.league.promotion import DISQUALIFIED_PLACE
from core.points import decimal_text

HEADER = ("Rk", "Club", "P", "W", "D", "L", "MP", "SB", "DE", "GP")
"""CL-17's order: match points, then the tie-breaks SB and DE, with game points after them."""


def number_or_blank(value: Fraction | None) -> str:
    """A score as exact decimal text, blank when it was not computed, as for an unapplied DE."""
    return "" if value is None else decimal_text(value)


def _aligned(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as columns: the club name in column 1 left-aligned, and every number right-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i == 1 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def report_text(report: LeagueReport) -> str:
    """The standings as aligned text: one table per division, then forfeits and players."""
    lines = [f"{report.season}" + (f" — as of {report.as_of}" if report.as_of else "")]
    for name, table in report.divisions:
        rows: list[tuple[str, ...]] = [HEADER]
        for s in table:
            rank = rank_text(s)
            rows.append(
                (
                    rank,
                    s.club,
                    *(str(n) for n in (s.played, s.won, s.drawn, s.lost)),
                    *(number_or_blank(v) for v in (s.match_points, s.sb, s.de, s.game_points)),
                )
            )
        lines += ["", name, *_aligned(rows)]
    if report.champion:
        lines += ["", f"Every match decided. Champion (CL-16): {report.champion}"]
    if report.forfeits:
        lines += ["", "Forfeits:"]
        lines += [f"  {b.match}: {b.club} ({b.rule})" for b in report.forfeits]
    if report.disqualified:
        lines += ["", "Disqualified:"]
        lines += [f"  {q.club} ({q.rule})" for q in report.disqualified]
    if report.multi_team_players:
        lines += ["", "Multi-team players (CL-18):"]
        lines += [
            f"  {p.player}: home club {p.home_club}, {p.other_matches} matches elsewhere"
            for p in report.multi_team_players
        ]
    if report.adjusted_players:
        lines += ["", "Adjusted players (CL-ADJ):"]
        lines += [f"  {player} ({rule})" for player, rule in report.adjusted_players]
    return "\n".join(lines)


def proposal_text(report: LeagueReport, proposal: Proposal) -> str:
    """The CL-8 proposal as text.

    It says `Moves: none` when every club stays, as with one division. By CL-DQ a disqualified club
    is listed apart.
    """
    when = f"as of {report.as_of}" if report.as_of else "on the current standings"
    lines = [f"{report.season}: promotion / relegation proposal ({when}), for a director vote"]
    for name, clubs in proposal.divisions:
        lines += ["", f"{name} ({len(clubs)} clubs)"] + [f"  {c}" for c in clubs]
    if proposal.moves:
        lines += ["", "Moves:"]
        lines += [f"  {m.club}: {m.from_division} → {m.to_division}" for m in proposal.moves]
    else:  # said, not omitted: a proposal that moves nobody is still an answer for the vote
        lines += ["", "Moves: none"]
    if proposal.withdrawn:
        lines += ["", "Withdrawn:"] + [f"  {c}" for c in proposal.withdrawn]
    if proposal.disqualified:
        lines += ["", "Disqualified (CL-DQ), placed in no division:"]
        lines += [f"  {c} — {DISQUALIFIED_PLACE}" for c in proposal.disqualified]
    return "\n".join(lines)
