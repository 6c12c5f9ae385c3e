"""`format:csv` of the tour's tables: the CCT-8b preliminary, the CCT-8f Finals and the CCT-6 tour
standings.

Each has a header row, then one row per player in table order, with exact values as text such as
`6.5` or `28.25`, never a float's noise, and names as typed but for `csv_text`'s guard against
formula injection. It follows RFC 4180 like the league's.

API: `preliminary_csv(view: PreliminaryView)`, `finals_csv(view: FinalsView)` and
`tour_standings_csv(view: TourStandingsView)` each return a CSV `str` with CRLF line ends.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from bot.rendering.common.csv_cells import csv_text
from bot.rendering.tour.views import FinalsView, PreliminaryView, TourStandingsView
from core.points import decimal_text

PRELIMINARY_HEADER = (
    "rank",
    "tied",
    "by_lot",
    "playoff_required",
    "player",
    "points",
    "de",
    "wins",
    "sb",
    "ks",
)
FINALS_HEADER = ("rank", "tied", "tied_for_first", "player", "match_points", "bonus", "total")
TOUR_HEADER = (
    "rank",
    "tied",
    "playoff_required",
    "player",
    "points",
    "wins",
    "events",
    "finals",
    "semi_finals",
    "quarter_finals",
)


def _yes(flag: bool) -> str:
    """A flag as the league's CSV writes it."""
    return "yes" if flag else "no"


def _csv(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """The header and rows as RFC 4180 text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def preliminary_csv(view: PreliminaryView) -> str:
    """CCT-8b: the preliminary. `de` is empty where direct encounter did not apply."""
    return _csv(
        PRELIMINARY_HEADER,
        (
            [
                str(row.rank),
                _yes(row.tied),
                _yes(row.by_lot),
                _yes(row.player in view.playoff),
                csv_text(name),
                decimal_text(row.points),
                "" if row.de is None else decimal_text(row.de),
                str(row.wins),
                decimal_text(row.sb),
                decimal_text(row.ks),
            ]
            for row, name in zip(view.rows, view.names, strict=True)
        ),
    )


def finals_csv(view: FinalsView) -> str:
    """CCT-8f: the Finals table, `tied_for_first` flagging a tie the organiser decides."""
    return _csv(
        FINALS_HEADER,
        (
            [
                str(row.rank),
                _yes(view.rank_text(index).endswith("=")),
                _yes(row.player in view.tied_for_first),
                csv_text(name),
                str(row.match_points),
                decimal_text(row.bonus),
                decimal_text(row.total),
            ]
            for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
        ),
    )


def tour_standings_csv(view: TourStandingsView) -> str:
    """CCT-6: tour points and the five criteria, with the shared-rank and play-off flags."""
    return _csv(
        TOUR_HEADER,
        (
            [
                str(row.rank),
                _yes(row.tied),
                _yes(row.player in view.playoff),
                csv_text(name),
                *(
                    str(n)
                    for n in (
                        row.record.points,
                        row.record.wins,
                        row.record.events,
                        row.record.finals,
                        row.record.semi_finals,
                        row.record.quarter_finals,
                    )
                ),
            ]
            for row, name in zip(view.rows, view.names, strict=True)
        ),
    )
