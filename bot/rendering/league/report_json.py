"""The league as JSON for `arbiter league --json`.

It gives the report of docs/season-file.md's output section and the CL-8 proposal.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.league import LeagueReport, Proposal
from core.points import json_number


def _number(value: Fraction | None) -> int | float | None:
    """A score as a JSON number, or null when it was not computed, as for an unapplied DE."""
    return None if value is None else json_number(value)


def report_json(report: LeagueReport) -> dict[str, Any]:
    """The report as the JSON of docs/season-file.md's output section."""
    return {
        "season": report.season,
        "as_of": report.as_of.isoformat() if report.as_of else None,
        "divisions": [
            {
                "name": name,
                "standings": [
                    {
                        "rank": s.rank,
                        "club": s.club,
                        "played": s.played,
                        "won": s.won,
                        "drawn": s.drawn,
                        "lost": s.lost,
                        "match_points": json_number(s.match_points),
                        "game_points": json_number(s.game_points),
                        "sb": json_number(s.sb),
                        "de": _number(s.de),
                        "tied": s.tied,
                        "disqualified": s.disqualified,
                    }
                    for s in table
                ],
            }
            for name, table in report.divisions
        ],
        "forfeits": [{"match": b.match, "club": b.club, "rule": b.rule} for b in report.forfeits],
        "disqualified": [{"club": q.club, "rule": q.rule} for q in report.disqualified],
        "multi_team_players": [
            {"player": p.player, "home_club": p.home_club, "other_matches": p.other_matches}
            for p in report.multi_team_players
        ],
        "adjusted_players": [
            {"player": player, "rule": rule} for player, rule in report.adjusted_players
        ],
    }


def proposal_json(report: LeagueReport, proposal: Proposal) -> dict[str, Any]:
    """The CL-8 proposal as JSON: next season's divisions, the moves, the withdrawals and the
    disqualified clubs.

    By CL-DQ the disqualified clubs are placed in no division, for the directors.
    """
    return {
        "season": report.season,
        "as_of": report.as_of.isoformat() if report.as_of else None,
        "divisions": [{"name": n, "clubs": list(clubs)} for n, clubs in proposal.divisions],
        "moves": [
            {"club": m.club, "from": m.from_division, "to": m.to_division} for m in proposal.moves
        ],
        "withdrawn": list(proposal.withdrawn),
        "disqualified": list(proposal.disqualified),
    }
