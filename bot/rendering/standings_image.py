"""`/standings format:image`: a division's table as a PNG, about 900 px wide for a phone;
shared ranks marked `2=`, disqualified clubs greyed, struck through and listed last."""

from __future__ import annotations

from bot.rendering.division_view import DivisionView, halves_text, rank_text
from bot.rendering.image_table import GREY, Cell, Column, TableStyle, table_png
from bot.rendering.image_text import CODE_NOTE, has_code_boxes
from core.league.standings import ClubStanding
from core.points import decimal_text

WIDTH = 900
ROW_HEIGHT = 34
STYLE = TableStyle(width=WIDTH, body_size=17, row_height=ROW_HEIGHT, flex=1)
COLUMNS = (
    Column("Rk", "right", 48),
    Column("Club", "left", 220),
    *(Column(name, "right", 40) for name in ("P", "W", "D", "L")),
    Column("MP", "right", 60),
    Column("GP", "right", 70),
    Column("SB", "right", 76),
    Column("DE", "right", 52),
)
LEGEND = (
    "P played · W won · D drawn · L lost · MP match points · GP game points · "
    "SB Sonneborn-Berger · DE direct encounter"
)
TIED_NOTE = "2= shared rank: still tied after match points, SB and direct encounter (CL-17)"
DQ_NOTE = "DQ disqualified (CL-DQ): its matches count for no one"


def _cells(row: ClubStanding) -> list[Cell]:
    if row.disqualified:
        return [Cell("DQ", ink=GREY), Cell(row.club, ink=GREY, strike=True)] + [
            Cell("", ink=GREY) for _ in COLUMNS[2:]
        ]
    numbers = [str(n) for n in (row.played, row.won, row.drawn, row.lost)]
    scores = [halves_text(row.match_points), halves_text(row.game_points)]
    return [
        Cell(rank_text(row)),
        Cell(row.club),
        *(Cell(text) for text in numbers + scores),
        Cell(decimal_text(row.sb)),
        Cell(halves_text(row.de)),
    ]


def standings_notes(view: DivisionView) -> list[str]:
    """The lines under the table: the column legend, then the marks that appear."""
    return [LEGEND, *mark_notes(view, DQ_NOTE)]


def mark_notes(view: DivisionView, dq_note: str) -> list[str]:
    """The notes for the marks the division's image shows (both images): shared ranks,
    a disqualified club (`dq_note`, each image saying how it shows its matches), and
    letters drawn as code boxes."""
    notes = []
    if any(row.tied for row in view.rows):
        notes.append(TIED_NOTE)
    if any(row.disqualified for row in view.rows):
        notes.append(dq_note)
    if any(map(has_code_boxes, (view.title, *(row.club for row in view.rows)))):
        notes.append(CODE_NOTE)
    return notes


def standings_png(view: DivisionView) -> bytes:
    """The division's standings as PNG bytes; the same view always gives the same bytes."""
    rows = [_cells(row) for row in view.rows]
    return table_png(
        view.title, view.caption("Standings"), COLUMNS, rows, standings_notes(view), STYLE
    )
