"""What the standings outputs show of one division.

The outputs are the image, the crosstable, the text table and the CSV. The view is small and built
from the core's league report, so each output formats and none computes. It holds the state it is
of, such as "after round 9 of 13", "final" or the day. It holds the CL-8 zones, which are the clubs
the promotion proposal moves up or down as the table stands, and the CL-16 champion.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.rendering.common.crosstable_grid import CellKind, CrosstableCell
from bot.rendering.common.text import shown_rank
from core.league.promotion import promotion_proposal
from core.league.report import LeagueReport
from core.league.standings import ClubStanding, MatchResult


def rank_text(row: ClubStanding) -> str:
    """The rank as shown by CL-17 and CL-DQ: `3`, `2=` for a shared rank, or `DQ` for a
    disqualified club.
    """
    if row.disqualified or row.rank is None:
        return "DQ"
    return shown_rank(row.rank, row.tied)


@dataclass(frozen=True, slots=True)
class Fixture:
    """A match of the season as the state of a table needs it: its id, clubs and round."""

    match: str
    home: str
    away: str
    round: int


@dataclass(frozen=True, slots=True)
class SeasonContext:
    """What the outputs say around a table besides the report.

    That is the season's fixtures, for "after round 9 of 13", its CL-8 places and withdrawn clubs,
    for the zones, and the day the standings are of. The day is None when not said.
    """

    fixtures: tuple[Fixture, ...] = ()
    places: int = 0
    withdrawn: tuple[str, ...] = ()
    on: dt.date | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a division is: every match of rounds 1 to `rounds_done` is decided, out of `rounds`.

    `final` is set once every match is decided.
    """

    rounds_done: int
    rounds: int
    final: bool

    def text(self) -> str:
        """`final`, `after round 9 of 13`, `before round 1 of 13`."""
        if self.final:
            return "final"
        if self.rounds_done:
            return f"after round {self.rounds_done} of {self.rounds}"
        return f"before round 1 of {self.rounds}"


@dataclass(frozen=True, slots=True)
class DivisionView:
    """A division's table and crosstable as at a date, or with every fact known for None.

    It has its state, zones and champion when the season's context was given.
    """

    season: str
    division: str
    as_of: dt.date | None
    rows: tuple[ClubStanding, ...]
    cells: tuple[tuple[CrosstableCell, ...], ...]
    """`cells[i][j]`: the club of `rows[i]` against the club of `rows[j]`."""
    progress: Progress | None = None
    on: dt.date | None = None
    """The day the standings are of: the cut-off date, else the day they were made."""
    up: frozenset[str] = frozenset()
    """CL-8: the clubs the promotion proposal moves up a division as the table stands."""
    down: frozenset[str] = frozenset()
    """CL-8: the clubs it moves down."""
    champion: str | None = None
    """CL-16: the champion, in the top division once every match is decided."""

    @property
    def title(self) -> str:
        """`Season 2024 · Division 1`."""
        return f"{self.season} · {self.division}"

    def caption(self, what: str) -> str:
        """The heading's words, such as `Standings after round 9 of 13 · 2024-03-01` or `Final
        standings · 2024-05-01`.

        `Standings as of 2024-03-01` says what is known and nothing more.
        """
        parts = []
        if self.progress is not None and self.progress.final:
            head = f"Final {what.lower()}"
        elif self.progress is not None:
            head = f"{what} {self.progress.text()}"
        else:
            head = what
        if self.as_of is not None:
            parts.append(f"as of {self.as_of.isoformat()}")
        elif self.on is not None:
            parts.append(self.on.isoformat())
        return " · ".join([head, *parts])


SELF_CELL = CrosstableCell(CellKind.SELF)
PENDING_CELLS = {void: CrosstableCell(CellKind.PENDING, void=void) for void in (False, True)}


def _cell(result: MatchResult, club: str, void: bool) -> CrosstableCell:
    """`result` seen from `club`'s side: game points over the boards, match points if forfeit."""
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


def _progress(
    clubs: set[str], out: set[str], report: LeagueReport, fixtures: Sequence[Fixture]
) -> Progress | None:
    """CL-1 and CL-12: how many rounds of the division are complete.

    A disqualified club's matches are void, so they count as decided.
    """
    own = [f for f in fixtures if f.home in clubs and f.away in clubs]
    if not own:
        return None
    decided = {r.match for r in report.results} | {f.match for f in own if {f.home, f.away} & out}
    rounds = max(f.round for f in own)
    open_rounds = [f.round for f in own if f.match not in decided]
    done = min(open_rounds) - 1 if open_rounds else rounds
    return Progress(done, rounds, not open_rounds)


def _zones(
    report: LeagueReport, division: str, places: int, withdrawn: tuple[str, ...]
) -> tuple[frozenset[str], frozenset[str]]:
    """CL-8: who goes up and who goes down if the season ended as the table stands."""
    if places <= 0 or len(report.divisions) < 2:
        return frozenset(), frozenset()
    names = [name for name, _ in report.divisions]
    order = {name: index for index, name in enumerate(names)}
    proposal = promotion_proposal(report.divisions, places, withdrawn)
    moves = [m for m in proposal.moves if m.from_division == division]
    up = frozenset(m.club for m in moves if order[m.to_division] < order[division])
    down = frozenset(m.club for m in moves if order[m.to_division] > order[division])
    return up, down


def division_view(
    report: LeagueReport, division: str, context: SeasonContext | None = None
) -> DivisionView:
    """The view of one division of `report`. KeyError names an unknown division.

    The cells come from the report's decided matches. By CL-12 a CL season meets each pair once, and
    a later result of a pair replaces an earlier one. With the season's `context`, the view also
    knows its state, zones and champion.
    """
    rows = tuple(report.standings(division))
    clubs = [row.club for row in rows]
    members = set(clubs)
    out = {row.club for row in rows if row.disqualified}
    decided: dict[tuple[str, str], CrosstableCell] = {}  # (row club, column club) → cell
    for result in report.results:
        if result.home in members and result.away in members:
            void = result.home in out or result.away in out
            decided[result.home, result.away] = _cell(result, result.home, void)
            decided[result.away, result.home] = _cell(result, result.away, void)
    cells = tuple(
        tuple(
            SELF_CELL
            if mine == theirs
            else decided.get((mine, theirs)) or PENDING_CELLS[mine in out or theirs in out]
            for theirs in clubs
        )
        for mine in clubs
    )
    if context is None:
        return DivisionView(report.season, division, report.as_of, rows, cells)
    up, down = _zones(report, division, context.places, context.withdrawn)
    first = bool(report.divisions) and report.divisions[0][0] == division
    return DivisionView(
        report.season,
        division,
        report.as_of,
        rows,
        cells,
        progress=_progress(members, out, report, context.fixtures),
        on=context.on,
        up=up,
        down=down,
        champion=report.champion if first else None,
    )
