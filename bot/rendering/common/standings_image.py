"""The standings tables as PNGs, about 900 px wide for a phone: the style and notes the
league's division table and the tour's three tables share, and the one call that draws them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.rendering.common.image_table import Cell, Column, TableStyle, table_png
from bot.rendering.common.image_text import CODE_NOTE, has_code_boxes

WIDTH = 900


ROW_HEIGHT = 34


STYLE = TableStyle(width=WIDTH, body_size=17, row_height=ROW_HEIGHT, flex=1)


PLAYOFF = "#fbe3a6"
"""The tint of a rank that a play-off (or the organiser) must still decide."""


def leading_columns(ranked: str) -> tuple[Column, Column]:
    """The two columns every standings table starts with: the rank, then who is ranked."""
    return Column("Rk", "right", 48), Column(ranked, "left", 220)


TableModel = tuple[Sequence[Column], list[list[Cell]], list[str]]
"""What a table image draws: its columns, its rows of cells, the notes under it."""


def code_note(texts: Iterable[str]) -> list[str]:
    """CODE_NOTE when a text needs a code box (a letter the image font lacks)."""
    return [CODE_NOTE] if any(map(has_code_boxes, texts)) else []


def rank_cell(text: str, playoff: bool) -> Cell:
    """A rank cell, tinted when a play-off (or the organiser) must still decide it."""
    return Cell(text, tint=PLAYOFF if playoff else None)


def model_png(title: str, subtitle: str, model: TableModel) -> bytes:
    """A table model drawn as PNG bytes; the same model always gives the same bytes."""
    columns, rows, notes = model
    return table_png(title, subtitle, columns, rows, notes, STYLE)
