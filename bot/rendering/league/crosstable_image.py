"""`/crosstable`: a division's crosstable as a PNG.

Clubs come in standings order. Each cell holds the row club's game points against the column
club, tinted by who won. F+ and F− mark a forfeit won or lost, and · a match still to play. Match
points and rank come at the end, shared ranks read `2=`, and disqualified clubs are greyed.

As in a chess crosstable, the column club's points are in the mirrored cell, so a cell holds one
score. In DejaVu Sans Condensed that takes 13 clubs from 1314 px, with both scores in Pillow's
default font, to about 800 px. Phones show about 550 px inline. Thirteen score columns, a readable
club name, match points and rank do not fit in that, so Discord scales the image down.
"""

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
