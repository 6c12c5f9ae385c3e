"""A season's matches and results as CSV, such as `arbiter demo`'s results.csv.

There is one row per match in round order. It has the id, division, round, clubs, start and finish
in UTC. Once decided it has the game points, exact as in `5.5`, the match points and how it was
decided, as the standings count it. That is `played`, `forfeit`, or `void` for a disqualified club's
match by CL-DQ.

`counts` says whether the standings count the match. It is `yes`, `no` for a void one, or empty
while it is not decided. A void match's note says `void (CL-DQ): D was disqualified`, even when it
was played and has scores. A table built from the rows whose `counts` is `yes` is the bot's.
Names, keys and notes pass `csv_text`, against formula injection.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from fractions import Fraction

from bot.rendering.common.csv_cells import csv_text
from core.league.report import LeagueReport
from core.league.season import Season
from core.points import decimal_text

HEADER = (
    "match",
    "division",
    "round",
    "home",
    "away",
    "start",
    "finished",
    "home_game_points",
    "away_game_points",
    "home_match_points",
    "away_match_points",
    "decided",
    "counts",
    "note",
)


def _instant(value: dt.datetime | None) -> str:
    return "" if value is None else value.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def results_csv(season: Season, report: LeagueReport) -> str:
    """The matches as CSV text by RFC 4180, with empty result cells for a match not decided."""
    results = {r.match: r for r in report.results}
    out = {d.club for d in report.disqualified}
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    for match in sorted(season.matches, key=lambda m: (m.round, m.division, m.id)):
        result = results.get(match.id)
        gone = [club for club in (match.home, match.away) if club in out]
        row = [
            csv_text(match.id),
            csv_text(match.division),
            str(match.round),
            csv_text(match.home),
            csv_text(match.away),
            _instant(match.start),
            _instant(match.finished),
        ]
        if result is None:
            row += ["", "", "", ""]
        else:
            row += [
                decimal_text(Fraction(result.home_half, 2)),
                decimal_text(Fraction(result.away_half, 2)),
                decimal_text(result.home_points),
                decimal_text(result.away_points),
            ]
        if gone:
            verb = "were" if len(gone) > 1 else "was"
            note = f"void (CL-DQ): {' and '.join(gone)} {verb} disqualified"
            row += ["void", "no", csv_text(note)]
        elif result is None:
            row += ["", "", ""]
        else:
            row += ["forfeit" if result.forfeit else "played", "yes", ""]
        writer.writerow(row)
    return buffer.getvalue()
