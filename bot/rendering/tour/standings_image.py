"""`/event standings`, `/finals standings` and `/tour standings` with `format:image`.

The tables are PNGs in the league's style from `image_table.table_png`, about 900 px wide, with
names drawn as typed. Shared ranks are marked `2=`, and a rank that needs a play-off is tinted
amber.

API: `preliminary_png`, `finals_png` and `tour_standings_png` take a preliminary, Finals or tour
standings view and return PNG `bytes`. The same view always gives the same bytes. For tests, the
`*_model` functions give the columns, rows and notes drawn.
"""

from __future__ import annotations

from bot.rendering.common.image_table import Cell, Column
from bot.rendering.common.standings_image import (
    TableModel,
    code_note,
    leading_columns,
    model_png,
    rank_cell,
)
from bot.rendering.common.text import halves_text
from bot.rendering.tour.views import FinalsView, PreliminaryView, TourStandingsView

PRELIMINARY_COLUMNS = (
    *leading_columns("Player"),
    Column("Pts", "right", 60),
    Column("DE", "right", 56),
    Column("WIN", "right", 56),
    Column("SB", "right", 76),
    Column("KS", "right", 60),
)
PRELIMINARY_LEGEND = (
    "Pts points · DE direct encounter · WIN games won · SB Sonneborn-Berger · KS Koya"
)
FINALS_COLUMNS = (
    *leading_columns("Player"),
    Column("MP", "right", 60),
    Column("Bonus", "right", 76),
    Column("Total", "right", 76),
)
FINALS_LEGEND = (
    "MP match points: rapid win 3 / loss 0, tie-break win 2 / loss 1 (CCT-8f)",
    "Bonus: ½ for each full 10 tour points above the finalist with the fewest",
)
TOUR_COLUMNS = (
    *leading_columns("Player"),
    Column("Pts", "right", 60),
    *(Column(name, "right", 48) for name in ("W", "Ev", "F", "SF", "QF")),
)
TOUR_LEGEND = (
    "Pts tour points, then the CCT-6 criteria: W events won · Ev events played (fewer first)",
    "F / SF / QF appearances in a final, semi-final, quarter-final",
)


def preliminary_marks(view: PreliminaryView) -> list[str]:
    """The notes for the marks a preliminary's table or crosstable shows: shared ranks,
    ranks drawn by lot, play-offs (CCT-8b, CCT-8c) and letters drawn as code boxes."""
    notes = []
    if any(row.tied for row in view.rows):
        notes.append("2= shared rank: still tied after every CCT-8b criterion")
    if any(row.by_lot for row in view.rows):
        notes.append("4* a rank decided by drawing of lots")
    if view.playoff:
        notes.append(
            f"Amber rank: play-off required, a tie for a place that goes on (places "
            f"1–{view.places_going_on}, CCT-8c)"
        )
    return notes + code_note((view.event, *view.names))


def preliminary_model(view: PreliminaryView) -> TableModel:
    """CCT-8b: the preliminary's columns, cells and notes."""
    rows = []
    for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True)):
        numbers = (halves_text(row.points), halves_text(row.de), str(row.wins))
        rows.append(
            [
                rank_cell(view.rank_text(index), row.player in view.playoff),
                Cell(name),
                *(Cell(text) for text in numbers),
                Cell(halves_text(row.sb)),
                Cell(halves_text(row.ks)),
            ]
        )
    notes = [PRELIMINARY_LEGEND, *preliminary_marks(view)]
    return PRELIMINARY_COLUMNS, rows, notes


def preliminary_png(view: PreliminaryView) -> bytes:
    """The preliminary's standings (CCT-8b) as PNG bytes."""
    return model_png(view.event, view.caption("Preliminary standings"), preliminary_model(view))


def finals_model(view: FinalsView) -> TableModel:
    """CCT-8f: the Finals table's columns, cells and notes."""
    rows = [
        [
            rank_cell(view.rank_text(index), row.player in view.tied_for_first),
            Cell(name),
            Cell(str(row.match_points)),
            Cell(halves_text(row.bonus)),
            Cell(halves_text(row.total)),
        ]
        for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
    ]
    notes = list(FINALS_LEGEND)
    if view.tied_for_first:
        notes.append("Amber rank: a tie for first, decided as the organiser announces (CCT-8f)")
    elif any(view.rank_text(i).endswith("=") for i in range(len(view.rows))):
        notes.append("2= shared rank: equal totals")
    notes += code_note((view.event, *view.names))
    return FINALS_COLUMNS, rows, notes


def finals_png(view: FinalsView) -> bytes:
    """The Finals table (CCT-8f) as PNG bytes."""
    return model_png(view.event, "Finals · match points + bonus", finals_model(view))


def tour_standings_model(view: TourStandingsView) -> TableModel:
    """CCT-6: the tour standings' columns, cells and notes."""
    rows = []
    for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True)):
        record = row.record
        counts = (
            record.wins,
            record.events,
            record.finals,
            record.semi_finals,
            record.quarter_finals,
        )
        rows.append(
            [
                rank_cell(view.rank_text(index), row.player in view.playoff),
                Cell(name),
                Cell(str(record.points)),
                *(Cell(str(n)) for n in counts),
            ]
        )
    notes = list(TOUR_LEGEND)
    if any(row.tied for row in view.rows):
        notes.append("2= shared rank: still tied after all five criteria")
    if view.playoff:
        notes.append("Amber rank: play-off required (organiser may forgo), the tie decides a place")
    notes += code_note((view.tour, view.after or "", *view.names))
    return TOUR_COLUMNS, rows, notes


def tour_standings_png(view: TourStandingsView) -> bytes:
    """The tour standings (CCT-6) as PNG bytes."""
    return model_png(view.tour, view.caption("Tour standings"), tour_standings_model(view))
