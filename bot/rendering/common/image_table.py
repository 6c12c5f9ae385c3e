"""A table painted as a PNG, with a title, a dark header band, shaded rows and notes.

The league's and the tour's standings images and crosstables share it and only say what each cell
holds. The heading and notes are drawn here for the bracket image too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from PIL import Image, ImageColor, ImageDraw

from bot.rendering.common.image_text import Pen, png_bytes

Align = Literal["left", "right", "centre"]

MARGIN = 24
TITLE_SIZE = 26
SUBTITLE_SIZE = 17
HEADER_SIZE = 15
NOTE_SIZE = 14
TITLE_HEIGHT = 40
SUBTITLE_HEIGHT = 28
HEADER_HEIGHT = 36
NOTE_HEIGHT = 22
CELL_PADDING = 10

PAPER = "#ffffff"
STRIPE = "#f1f4f8"
INK = "#1f2933"
MUTED = "#6b7785"
GREY = "#a0a8b2"
BAND = "#2f3b4c"
BAND_INK = "#ffffff"
RULE = "#c9d1db"
BLEND_STEPS = 12
"""Shades between an ink and a ground in `theme_palette`, for the edges of anti-aliased text."""


@cache
def theme_palette(colours: tuple[str, ...], texts: tuple[tuple[str, str], ...]) -> Image.Image:
    """A "P" image palette for `png_bytes`.

    It holds `colours` exactly and, for each (ink, ground) pair of `texts`, `BLEND_STEPS` shades
    between them for the edges of anti-aliased text. An image drawn in these colours alone keeps its
    fills exact and its text's edges within a few levels.
    """
    exact = [ImageColor.getrgb(c)[:3] for c in colours]
    shades = []
    for ink, ground in texts:
        fore, back = ImageColor.getrgb(ink)[:3], ImageColor.getrgb(ground)[:3]
        for step in range(1, BLEND_STEPS):
            share = step / BLEND_STEPS
            pairs = zip(fore, back, strict=True)
            shades.append(tuple(round(b + (f - b) * share) for f, b in pairs))
    entries = list(dict.fromkeys([*exact, *shades]))
    if len(entries) > 256:
        raise ValueError(f"{len(entries)} colours do not fit a PNG palette of 256")
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in entries for channel in colour])
    return palette


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell: its text, and how it stands out with a tint, grey ink or a strike-through."""

    text: str
    tint: str | None = None
    ink: str = INK
    strike: bool = False


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its header, alignment, a minimum width and the padding each side, in pixels."""

    header: str
    align: Align = "right"
    min_width: int = 0
    padding: int = CELL_PADDING


@dataclass(frozen=True, slots=True)
class TableStyle:
    """Sizes of one table image.

    `flex` is the column that takes the width left over, and its texts are shortened with … to fit
    it. `condensed` sets the table in DejaVu Sans Condensed.
    """

    width: int
    body_size: int
    row_height: int
    flex: int
    condensed: bool = False

    def pen(self, size: int) -> Pen:
        """A pen of `size` pixels in this table's face."""
        return Pen(size, self.condensed)


def column_widths(
    columns: Sequence[Column], rows: Sequence[Sequence[Cell]], style: TableStyle
) -> list[int]:
    """Each column's width: its widest text plus padding, at least its minimum.

    The flex column takes what is left of `style.width`, at least its minimum.
    """
    body, head = style.pen(style.body_size), style.pen(HEADER_SIZE)
    widths = []
    for index, column in enumerate(columns):
        texts = [row[index].text for row in rows] if index != style.flex else []
        natural = max([head.width(column.header), *(body.width(t) for t in texts)])
        widths.append(max(column.min_width, natural + 2 * column.padding))
    room = style.width - 2 * MARGIN - sum(widths) + widths[style.flex]
    widths[style.flex] = max(columns[style.flex].min_width, room)
    return widths


def table_png(
    title: str,
    subtitle: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    notes: Sequence[str],
    style: TableStyle,
) -> bytes:
    """The table as PNG bytes, `width` wide unless the columns need more.

    The height is the title block, the header band, one `row_height` per row and one line per note.
    """
    widths = column_widths(columns, rows, style)
    width = max(style.width, sum(widths) + 2 * MARGIN)
    top = heading_height(subtitle)
    body_top = top + HEADER_HEIGHT
    body_bottom = body_top + style.row_height * len(rows)
    height = body_bottom + notes_height(notes) + MARGIN
    image = Image.new("RGB", (width, height), PAPER)
    canvas = ImageDraw.Draw(image)
    draw_heading(canvas, width, title, subtitle, style.condensed)
    lefts = [MARGIN + sum(widths[:i]) for i in range(len(widths))]
    right_edge = MARGIN + sum(widths)
    canvas.rectangle((MARGIN, top, right_edge - 1, body_top - 1), fill=BAND)
    head = style.pen(HEADER_SIZE)
    for column, left, w in zip(columns, lefts, widths, strict=True):
        box = (left + column.padding, top, left + w - column.padding, body_top)
        head.draw_in(canvas, box, column.header, BAND_INK, column.align)
    body = style.pen(style.body_size)
    flex_room = widths[style.flex] - 2 * columns[style.flex].padding
    for number, row in enumerate(rows):
        y = body_top + number * style.row_height
        bottom = y + style.row_height
        if number % 2:
            canvas.rectangle((MARGIN, y, right_edge - 1, bottom - 1), fill=STRIPE)
        for index, (cell, column, left, w) in enumerate(
            zip(row, columns, lefts, widths, strict=True)
        ):
            if cell.tint:
                canvas.rectangle((left + 1, y + 1, left + w - 2, bottom - 2), fill=cell.tint)
            text = body.fit(cell.text, flex_room) if index == style.flex else cell.text
            box = (left + column.padding, y, left + w - column.padding, bottom)
            body.draw_in(canvas, box, text, cell.ink, column.align)
            if cell.strike and text:
                text_width = body.width(text)
                x = box[0] if column.align == "left" else box[2] - text_width
                middle = y + style.row_height // 2
                canvas.line((x - 2, middle, x + text_width + 2, middle), fill=cell.ink, width=2)
    canvas.line((MARGIN, body_bottom - 1, right_edge - 1, body_bottom - 1), fill=RULE)
    draw_notes(canvas, width, body_bottom, notes, style.condensed)
    return png_bytes(image)


def heading_height(subtitle: str) -> int:
    """Where an image's content starts: after the top margin, the title and any subtitle."""
    return MARGIN + TITLE_HEIGHT + (SUBTITLE_HEIGHT if subtitle else 0)


def notes_height(notes: Sequence[str]) -> int:
    """The height the notes under an image's content take, nothing without notes.

    That is half a line's gap, then a line each.
    """
    return (NOTE_HEIGHT // 2 if notes else 0) + NOTE_HEIGHT * len(notes)


def draw_heading(
    canvas: ImageDraw.ImageDraw, width: int, title: str, subtitle: str, condensed: bool = False
) -> None:
    """The title, with the subtitle in muted ink under it, across an image `width` wide.

    The tables and the bracket share it.
    """
    Pen(TITLE_SIZE, condensed).draw_in(
        canvas, (MARGIN, MARGIN, width - MARGIN, MARGIN + TITLE_HEIGHT), title, INK
    )
    if subtitle:
        box = (MARGIN, MARGIN + TITLE_HEIGHT, width - MARGIN, heading_height(subtitle))
        Pen(SUBTITLE_SIZE, condensed).draw_in(canvas, box, subtitle, MUTED)


def draw_notes(
    canvas: ImageDraw.ImageDraw, width: int, top: int, notes: Sequence[str], condensed: bool
) -> None:
    """The notes under an image's content ending at `top`, one muted line each, shortened
    with … to the image's width."""
    note = Pen(NOTE_SIZE, condensed)
    first = top + (NOTE_HEIGHT // 2 if notes else 0)
    for number, line in enumerate(notes):
        y = first + number * NOTE_HEIGHT
        text = note.fit(line, width - 2 * MARGIN)
        note.draw_in(canvas, (MARGIN, y, width - MARGIN, y + NOTE_HEIGHT), text, MUTED)
