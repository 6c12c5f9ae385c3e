"""`/standings format:image`: a division's table as a PNG about 900 px wide, for a phone.

Its state is under the title, as in `Standings after round 9 of 13 · 2026-03-01` or `Final
standings`. The columns follow CL-17's order: match points, then the tie-breaks SB and DE, with game
points after them. The CL-8 zones are tinted, green for the clubs the proposal moves up and red for
those it moves down. The CL-16 champion is starred, shared ranks are marked `2=`, and disqualified
clubs are greyed, struck through and listed last.
"""

from __future__ import annotations

from bot.rendering.common.image_table import GREY, Cell, Column
from bot.rendering.common.standings_image import code_note, leading_columns, model_png
from bot.rendering.common.text import halves_text
from bot.rendering.league.division_view import DivisionView, rank_text
from core.league.standings import ClubStanding

COLUMNS = (
    *leading_columns("Club"),
    *(Column(name, "right", 40) for name in ("P", "W", "D", "L")),
    Column("MP", "right", 60),
    Column("SB", "right", 76),
    Column("DE", "right", 52),
    Column("GP", "right", 70),
)
LEGEND = (
    "P played · W won · D drawn · L lost · MP match points · SB Sonneborn-Berger · "
    "DE direct encounter · GP game points"
)
UP, DOWN = "#dcf1dc", "#f8dcda"
ZONES_NOTE = "Green: goes up, red: goes down, if the season ended as the table stands (CL-8)"
FINAL_ZONES_NOTE = "Green: goes up, red: goes down (the CL-8 proposal, for a director vote)"
CHAMPION_NOTE = "★ champion (CL-16)"
STAR = "★ "
TIED_NOTE = "2= shared rank: still tied after match points, SB and direct encounter (CL-17)"
DQ_NOTE = "DQ disqualified (CL-DQ): its matches count for no one"


def _cells(row: ClubStanding, view: DivisionView) -> list[Cell]:
    if row.disqualified:
        return [Cell("DQ", ink=GREY), Cell(row.club, ink=GREY, strike=True)] + [
            Cell("", ink=GREY) for _ in COLUMNS[2:]
        ]
    tint = UP if row.club in view.up else DOWN if row.club in view.down else None
    club = STAR + row.club if row.club == view.champion else row.club
    texts = [
        rank_text(row),
        club,
        *(str(n) for n in (row.played, row.won, row.drawn, row.lost)),
        *(halves_text(v) for v in (row.match_points, row.sb, row.de, row.game_points)),
    ]
    return [Cell(text, tint=tint) for text in texts]


def standings_notes(view: DivisionView) -> list[str]:
    """The lines under the table: the column legend, then the marks that appear."""
    notes = [LEGEND]
    if view.up or view.down:
        final = view.progress is not None and view.progress.final
        notes.append(FINAL_ZONES_NOTE if final else ZONES_NOTE)
    if view.champion is not None:
        notes.append(CHAMPION_NOTE)
    return [*notes, *mark_notes(view, DQ_NOTE)]


def mark_notes(view: DivisionView, dq_note: str) -> list[str]:
    """The notes for the marks the division's image shows, in both images.

    The marks are shared ranks, a disqualified club and letters drawn as code boxes. `dq_note` lets
    each image say how it shows a disqualified club's matches.
    """
    notes = []
    if any(row.tied for row in view.rows):
        notes.append(TIED_NOTE)
    if any(row.disqualified for row in view.rows):
        notes.append(dq_note)
    return notes + code_note((view.title, *(row.club for row in view.rows)))


def standings_png(view: DivisionView) -> bytes:
    """The division's standings as PNG bytes. The same view always gives the same bytes."""
    rows = [_cells(row, view) for row in view.rows]
    return model_png(view.title, view.caption("Standings"), (COLUMNS, rows, standings_notes(view)))
