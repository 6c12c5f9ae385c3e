"""`/crosstable`: a division's crosstable as a PNG — clubs in standings order, each cell the
row club's game points against the column club, tinted by who won (F+/F− a forfeit won/lost,
· still to play), match points and rank at the end; shared ranks `2=`, disqualified clubs
greyed. As in a chess crosstable, the column club's points are in the mirrored cell, so a
cell holds one score: in DejaVu Sans Condensed that takes 13 clubs from 1314 px (both scores,
Pillow's default font) to about 800 px. Phones show ~550 px inline; 13 score columns, a
readable club name, match points and rank do not fit in that, so Discord scales it down."""

from __future__ import annotations

from bot.rendering.common.crosstable_grid import GridRow, grid_png
from bot.rendering.common.text import halves_text
from bot.rendering.league.division_view import DivisionView, rank_text
from bot.rendering.league.standings_image import mark_notes

NOTE = "Each cell: the row club's game points against the column club"
NOTE_COLOURS = "(green won, yellow drawn, red lost; the column club's are in the mirrored cell)"
NOTE_MORE = "F+ / F− forfeit won / lost · a dot: not played yet · MP match points · Rk rank"
DQ_NOTE = "DQ disqualified (CL-DQ): its matches, shown in grey, count for no one"


def crosstable_notes(view: DivisionView) -> list[str]:
    """The lines under the crosstable: how to read a cell, then the marks that appear."""
    return [NOTE, NOTE_COLOURS, NOTE_MORE, *mark_notes(view, DQ_NOTE)]


def crosstable_png(view: DivisionView) -> bytes:
    """The division's crosstable as PNG bytes; the same view always gives the same bytes."""
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
