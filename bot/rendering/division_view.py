"""What the standings outputs (image, crosstable, text table, CSV) show of one division: a
small view built from the core's league report, so each output formats and none computes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from bot.rendering.text import points
from core.league.report import LeagueReport
from core.league.standings import ClubStanding, MatchResult


def halves_text(value: Fraction | None) -> str:
    """A score as a person reads it (`bot.rendering.text.points`: `13½`, `½`, `3`, an SB of
    `61¼`); none (a direct encounter not applied): empty."""
    return "" if value is None else points(value)


def rank_text(row: ClubStanding) -> str:
    """`3`, `2=` for a shared rank, `DQ` for a disqualified club (CL-17, CL-DQ)."""
    if row.disqualified or row.rank is None:
        return "DQ"
    return f"{row.rank}{'=' if row.tied else ''}"


class CellKind(Enum):
    """What a crosstable cell holds."""

    SELF = "self"
    """The diagonal: a club does not meet itself."""
    PENDING = "pending"
    """Not decided yet."""
    PLAYED = "played"
    """Played over the boards: the game points of both sides."""
    FORFEIT = "forfeit"
    """Decided by forfeit (CL-5/6/15/20/21): `mine` is the row club's match points (1 or 0)."""


@dataclass(frozen=True, slots=True)
class CrosstableCell:
    """The row club's result against the column club: its game points first (a forfeit
    scores match points only); `void` when a disqualified club's match no longer counts."""

    kind: CellKind
    mine: Fraction = Fraction(0)
    theirs: Fraction = Fraction(0)
    void: bool = False


@dataclass(frozen=True, slots=True)
class DivisionView:
    """A division's table and crosstable as at a date (None: every fact known)."""

    season: str
    division: str
    as_of: dt.date | None
    rows: tuple[ClubStanding, ...]
    cells: tuple[tuple[CrosstableCell, ...], ...]
    """`cells[i][j]`: the club of `rows[i]` against the club of `rows[j]`."""

    @property
    def title(self) -> str:
        """`Season 2024 · Division 1`."""
        return f"{self.season} · {self.division}"

    def caption(self, what: str) -> str:
        """`Standings as of 2024-03-01` (`what` alone without a cut-off date)."""
        return f"{what} as of {self.as_of.isoformat()}" if self.as_of else what


def _cell(result: MatchResult | None, club: str, void: bool) -> CrosstableCell:
    """`result` seen from `club`'s side: game points over the boards, match points if forfeit."""
    if result is None:
        return CrosstableCell(CellKind.PENDING, void=void)
    home = result.home == club
    if result.forfeit:
        mine, theirs = result.home_points, result.away_points
        kind = CellKind.FORFEIT
    else:
        mine, theirs = Fraction(result.home_half, 2), Fraction(result.away_half, 2)
        kind = CellKind.PLAYED
    if not home:
        mine, theirs = theirs, mine
    return CrosstableCell(kind, mine, theirs, void)


def division_view(report: LeagueReport, division: str) -> DivisionView:
    """The view of one division of `report`; KeyError names an unknown division. The cells
    come from the report's decided matches (a CL season meets each pair once, CL-12; a
    later result of a pair replaces an earlier one)."""
    rows = tuple(report.standings(division))
    clubs = [row.club for row in rows]
    members = set(clubs)
    out = {row.club for row in rows if row.disqualified}
    results: dict[frozenset[str], MatchResult] = {}
    for result in report.results:
        if result.home in members and result.away in members:
            results[frozenset((result.home, result.away))] = result
    cells = tuple(
        tuple(
            CrosstableCell(CellKind.SELF)
            if mine == theirs
            else _cell(results.get(frozenset((mine, theirs))), mine, bool({mine, theirs} & out))
            for theirs in clubs
        )
        for mine in clubs
    )
    return DivisionView(report.season, division, report.as_of, rows, cells)
