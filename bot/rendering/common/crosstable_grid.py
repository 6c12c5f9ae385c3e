"""A crosstable drawn as a PNG grid: a cell per pair of entrants, tinted by who won. The
league's and the tour's crosstables both draw through `grid_png`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from bot.rendering.common.image_table import GREY, Cell, Column, TableStyle, table_png
from bot.rendering.common.text import halves_text


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


ROW_HEIGHT = 32


CLUB_WIDTH = 170


WIDTH = 560


STYLE = TableStyle(width=WIDTH, body_size=14, row_height=ROW_HEIGHT, flex=1, condensed=True)


WON, DRAWN, LOST, DIAGONAL = "#dcf1dc", "#fbf0cc", "#f8dcda", "#d5dbe3"


def cell_text(cell: CrosstableCell) -> str:
    """What a cell shows: the row club's game points such as `13½`, `F+`, `F−`, `·`, or nothing
    on the diagonal.
    """
    if cell.kind is CellKind.SELF:
        return ""
    if cell.kind is CellKind.PENDING:
        return "·"
    if cell.kind is CellKind.FORFEIT:
        return "F+" if cell.mine > cell.theirs else "F−"
    return halves_text(cell.mine)


def _cell(cell: CrosstableCell) -> Cell:
    text = cell_text(cell)
    if cell.kind is CellKind.SELF:
        return Cell(text, tint=DIAGONAL)
    if cell.void:
        return Cell(text, ink=GREY)
    if cell.kind is CellKind.PENDING:
        return Cell(text)
    if cell.kind is CellKind.FORFEIT:  # a double forfeit (0:0) is lost by both
        return Cell(text, tint=WON if cell.mine > cell.theirs else LOST)
    tint = WON if cell.mine > cell.theirs else LOST if cell.mine < cell.theirs else DRAWN
    return Cell(text, tint=tint)


@dataclass(frozen=True, slots=True)
class GridRow:
    """One line of a crosstable.

    It holds the entrant's name, its cells against every column entrant in row order, and its total
    and rank as shown. `out` greys it and strikes the name through, for a disqualified club.
    """

    name: str
    cells: Sequence[CrosstableCell]
    total: str
    rank: str
    out: bool = False
    rank_tint: str | None = None
    """A tint on the rank, which is the tour's play-off mark."""


def grid_png(
    title: str,
    subtitle: str,
    headers: tuple[str, str],
    rows: Sequence[GridRow],
    notes: Sequence[str],
) -> bytes:
    """A crosstable as PNG bytes: number, name, one score column per entrant, total and rank.

    `headers` name the name and total columns, such as `Club` and `MP` or `Player` and `Pts`. The
    league's and the tour's crosstables both draw through it.
    """
    numbers = [str(n) for n in range(1, len(rows) + 1)]
    name_header, total_header = headers
    columns = [
        Column("No", "right", 30, padding=6),
        Column(name_header, "left", CLUB_WIDTH, padding=8),
        *(Column(number, "centre", 34, padding=4) for number in numbers),
        Column(total_header, "right", 40, padding=6),
        Column("Rk", "right", 40, padding=6),
    ]
    cells = []
    for number, row in zip(numbers, rows, strict=True):
        ink = GREY if row.out else Cell("").ink
        cells.append(
            [
                Cell(number, ink=ink),
                Cell(row.name, ink=ink, strike=row.out),
                *(_cell(cell) for cell in row.cells),
                Cell(row.total, ink=ink),
                Cell(row.rank, tint=row.rank_tint, ink=ink),
            ]
        )
    return table_png(title, subtitle, columns, cells, notes, STYLE)
