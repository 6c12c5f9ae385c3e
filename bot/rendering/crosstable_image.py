"""`/crosstable`: a division's crosstable as a PNG.

Clubs come in standings order. Each cell holds the row club's game points against the column club,
tinted by who won. F+ and F− mark a forfeit won or lost, and · a match still to play. Match points
and rank come at the end. Shared ranks show as `2=`, and disqualified clubs are greyed.

As in a chess crosstable, the column club's points are in the mirrored cell, so a cell holds one
score. In DejaVu Sans Condensed that takes 13 clubs from 1314 px, with both scores in Pillow's
default font, to about 800 px. Phones show about 550 px inline, and 13 score columns, a readable
club name, match points and rank do not fit in that, so Discord scales it down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.rendering.division_view import (
    CellKind,
    CrosstableCell,
    DivisionView,
    halves_text,
    rank_text,
)
from bot.rendering.image_table import GREY, Cell, Column, TableStyle, table_png
from bot.rendering.standings_image import mark_notes

ROW_HEIGHT = 32
CLUB_WIDTH = 170
WIDTH = 560
STYLE = TableStyle(width=WIDTH, body_size=14, row_height=ROW_HEIGHT, flex=1, condensed=True)
WON, DRAWN, LOST, DIAGONAL = "#dcf1dc", "#fbf0cc", "#f8dcda", "#d5dbe3"
NOTE = "Each cell: the row club's game points against the column club"
NOTE_COLOURS = "(green won, yellow drawn, red lost; the column club's are in the mirrored cell)"
NOTE_MORE = "F+ / F− forfeit won / lost · a dot: not played yet · MP match points · Rk rank"
DQ_NOTE = "DQ disqualified (CL-DQ): its matches, shown in grey, count for no one"


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


def crosstable_notes(view: DivisionView) -> list[str]:
    """The lines under the crosstable: how to read a cell, then the marks that appear."""
    return [NOTE, NOTE_COLOURS, NOTE_MORE, *mark_notes(view, DQ_NOTE)]


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


def crosstable_png(view: DivisionView) -> bytes:
    """The division's crosstable as PNG bytes. The same view always gives the same bytes."""
    rows = [
        GridRow(
            row.club,
            cells,
            "" if row.disqualified else halves_text(row.match_points),
            rank_text(row),
            row.disqualified,
        )
        for row, cells in zip(view.rows, view.cells, strict=True)
    ]
    return grid_png(
        view.title, view.caption("Crosstable"), ("Club", "MP"), rows, crosstable_notes(view)
    )
