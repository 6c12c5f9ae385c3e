"""`/event standings format:image` with the crosstable: a preliminary's crosstable as a PNG.

It is drawn by the league's crosstable, `crosstable_image.grid_png`. Players come in standings
order. Each cell holds the row player's points against the column player, 1, ½ or 0, with F+ or F−
for a forfeit won or lost and · for a game still to play. Cells are tinted by who won, and points
and rank come last.

API: `preliminary_crosstable_png(view: PreliminaryView)` returns PNG `bytes`. For tests,
`preliminary_grid` gives the rows drawn and `preliminary_crosstable_notes` the notes.
"""

from __future__ import annotations

from bot.rendering.common.crosstable_grid import GridRow, grid_png
from bot.rendering.common.standings_image import PLAYOFF
from bot.rendering.common.text import halves_text
from bot.rendering.tour.standings_image import preliminary_marks
from bot.rendering.tour.views import PreliminaryView

NOTE = "Each cell: the row player's points against the column player"
NOTE_COLOURS = "(green won, yellow drawn, red lost; the column player's are in the mirrored cell)"
NOTE_MORE = "F+ / F− forfeit won / lost · a dot: not played yet · Pts points · Rk rank"


def preliminary_grid(view: PreliminaryView) -> list[GridRow]:
    """CCT-8a: one crosstable line per player, in standings order."""
    return [
        GridRow(
            name,
            cells,
            halves_text(row.points),
            view.rank_text(index),
            rank_tint=PLAYOFF if row.player in view.playoff else None,
        )
        for index, (row, name, cells) in enumerate(
            zip(view.rows, view.names, view.cells, strict=True)
        )
    ]


def preliminary_crosstable_notes(view: PreliminaryView) -> list[str]:
    """How to read a cell, then the marks that appear."""
    return [NOTE, NOTE_COLOURS, NOTE_MORE, *preliminary_marks(view)]


def preliminary_crosstable_png(view: PreliminaryView) -> bytes:
    """The preliminary's crosstable as PNG bytes. The same view always gives the same bytes."""
    subtitle = view.caption("Preliminary crosstable")
    rows = preliminary_grid(view)
    return grid_png(
        view.event, subtitle, ("Player", "Pts"), rows, preliminary_crosstable_notes(view)
    )
