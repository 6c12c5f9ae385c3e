"""`/standings format:csv`: a division's table as CSV.

It has a header row, then one row per club in table order, with exact values as text such as `9.5`
or `61.25` and never a float's noise. A whole season, as in `arbiter demo`'s standings.csv, is the
same with the division first on each row. Names pass `csv_text`, against formula injection.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from bot.rendering.common.csv_cells import csv_text
from bot.rendering.league.division_view import DivisionView
from core.league.standings import ClubStanding
from core.points import decimal_text

HEADER = (
    "rank",
    "tied",
    "disqualified",
    "club",
    "played",
    "won",
    "drawn",
    "lost",
    "match_points",
    "game_points",
    "sb",
    "de",
)


def _row(row: ClubStanding) -> list[str]:
    return [
        "" if row.rank is None else str(row.rank),
        "yes" if row.tied else "no",
        "yes" if row.disqualified else "no",
        csv_text(row.club),
        *(str(n) for n in (row.played, row.won, row.drawn, row.lost)),
        *(decimal_text(v) for v in (row.match_points, row.game_points, row.sb)),
        "" if row.de is None else decimal_text(row.de),
    ]


def standings_csv(view: DivisionView) -> str:
    """The table as CSV text by RFC 4180, with CRLF line ends and quotes where needed.

    An empty rank is a disqualified club, and an empty DE one where direct encounter did not apply.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    writer.writerows(_row(row) for row in view.rows)
    return buffer.getvalue()


def season_standings_csv(views: Sequence[DivisionView]) -> str:
    """Every division's table as one CSV text: `division` first, then `standings_csv`'s
    columns, divisions in the season's order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(("division", *HEADER))
    for view in views:
        writer.writerows([csv_text(view.division), *_row(row)] for row in view.rows)
    return buffer.getvalue()
