"""`/event bracket`: the CCT-8c knock-out bracket as a PNG in the league's style.

It takes its fonts, colours, heading and notes from `image_table`. Quarter-finals, semi-finals and
the Final sit in three columns joined by lines, and the 3rd-place match goes under the Final when
the event has one. Each series is a box. It has a dark band with its name and the score columns D1
D2 Bz Ar S. It has a line per player with seed, name as typed and scores, the winner tinted green.
Two lines say who won and how, or give the next game with its CCT-7 time control and CCT-8e colours.
The image is about 1,200 px wide, and Discord scales it to a phone. It is stored with the palette of
its colours from `image_table.theme_palette`, which takes a fifth of the encoding time.

API: `bracket_png(view: BracketView)` -> PNG `bytes`, where the same view always gives the same
bytes. For tests, `bracket_image(view)` gives the RGB image before the palette,
`bracket_layout(view)` where each series' box goes, and `bracket_notes(view)` the notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.rendering.common.crosstable_grid import WON
from bot.rendering.common.image_table import (
    BAND,
    BAND_INK,
    GREY,
    INK,
    MARGIN,
    MUTED,
    PAPER,
    RULE,
    draw_heading,
    draw_notes,
    heading_height,
    notes_height,
    theme_palette,
)
from bot.rendering.common.image_text import CODE_NOTE, Pen, has_code_boxes, png_bytes
from bot.rendering.tour.bracket import SCORE_COLUMNS, BracketView, SeriesView, clock_text
from core.tour.knockout import Tie

CONDENSED = True
"""Boxes are set in DejaVu Sans Condensed, so a name of about 20 letters fits."""
BOX_WIDTH = 360
BAND_HEIGHT = 26
LINE_HEIGHT = 30
FOOT_HEIGHT = 21
BOX_HEIGHT = BAND_HEIGHT + 2 * LINE_HEIGHT + 2 * FOOT_HEIGHT + 6
ROW_GAP = 22
COLUMN_GAP = 48
LABEL_HEIGHT = 28
PAD = 8
SEED_WIDTH = 26
SCORE_WIDTHS = (36, 36, 36, 28, 40)
"""The widths of `SCORE_COLUMNS` inside a box."""
NAME_SIZE = 16
SMALL_SIZE = 13
LABEL_SIZE = 15
WIDTH = 2 * MARGIN + 3 * BOX_WIDTH + 2 * COLUMN_GAP
PALETTE = theme_palette(
    (PAPER, BAND, WON, RULE, INK, MUTED, GREY, BAND_INK),
    ((INK, PAPER), (MUTED, PAPER), (GREY, PAPER), (INK, WON), (MUTED, WON), (BAND_INK, BAND)),
)
"""Every colour the bracket draws with, and the shades of its text's edges."""
ROUNDS = ("Quarter-finals", "Semi-finals", "Final")
QF_ORDER = (Tie.QF1, Tie.QF4, Tie.QF2, Tie.QF3)
"""CCT-8c: from top to bottom, each semi-final's two quarter-finals side by side."""
LEGEND = (
    "D1 / D2 the rapid matches of day 1 and 2 (won at 2½) · Bz the blitz play-off · "
    "Ar Armageddon won (W) or lost (L) · S series: a match won 1, drawn ½ (CCT-8d)"
)
SEEDS_NOTE = (
    "Seeds are preliminary places (CCT-8c); the higher seed chooses the colours of day 1 "
    "game 1 and of the play-off (CCT-8e) · ✓ series winner"
)


@dataclass(frozen=True, slots=True)
class Box:
    """Where one series is drawn: its top-left corner."""

    tie: Tie
    x: int
    y: int


def _column_x(column: int) -> int:
    """The left edge of a round's column: 0 for quarter-finals, 1 for semi-finals, 2 for the
    Final.
    """
    return MARGIN + column * (BOX_WIDTH + COLUMN_GAP)


def bracket_layout(view: BracketView) -> dict[Tie, Box]:
    """Each series' box.

    The quarter-finals are stacked in `QF_ORDER`, and each semi-final is level with the middle of
    its two. The Final sits between the semi-finals. The 3rd-place match, when played, is level with
    the last quarter-final.
    """
    top = heading_height(_subtitle(view)) + LABEL_HEIGHT
    step = BOX_HEIGHT + ROW_GAP
    boxes = {tie: Box(tie, _column_x(0), top + i * step) for i, tie in enumerate(QF_ORDER)}
    middle = step // 2
    boxes[Tie.SF1] = Box(Tie.SF1, _column_x(1), top + middle)
    boxes[Tie.SF2] = Box(Tie.SF2, _column_x(1), top + 2 * step + middle)
    boxes[Tie.FINAL] = Box(Tie.FINAL, _column_x(2), top + step + middle)
    if any(s.tie is Tie.THIRD_PLACE for s in view.series):
        boxes[Tie.THIRD_PLACE] = Box(Tie.THIRD_PLACE, _column_x(2), top + 3 * step)
    return boxes


def bracket_notes(view: BracketView) -> list[str]:
    """The lines under the bracket: the score columns, the seeds and colours, and the CCT-7 time
    controls.

    The code-box note is added when a name needs it.
    """
    controls = view.controls
    times = " · ".join(
        f"{c.name[:1].upper()}{c.name[1:]} {clock_text(c)}"
        for c in (controls.rapid, controls.blitz, controls.armageddon)
    )
    draw = " (a draw goes to Black)" if controls.armageddon.draw_goes_to_black else ""
    notes = [LEGEND, SEEDS_NOTE, f"{times}{draw} (CCT-7)"]
    texts = [view.event, *(name for s in view.series for name in s.names)]
    if any(map(has_code_boxes, texts)):
        notes.append(CODE_NOTE)
    return notes


def _subtitle(view: BracketView) -> str:
    """`Knock-out bracket · 4 of 8 series decided`."""
    decided = sum(1 for s in view.series if s.winner is not None)
    return f"Knock-out bracket · {decided} of {len(view.series)} series decided"


class _Pens:
    """The sizes of text a bracket uses, made once per image."""

    def __init__(self) -> None:
        self.name = Pen(NAME_SIZE, CONDENSED)
        self.small = Pen(SMALL_SIZE, CONDENSED)
        self.label = Pen(LABEL_SIZE, CONDENSED)


def _score_lefts(x: int) -> list[int]:
    """The left edge of each score column in a box at `x`."""
    right = x + BOX_WIDTH - PAD
    lefts = []
    for width in reversed(SCORE_WIDTHS):
        right -= width
        lefts.append(right)
    return lefts[::-1]


@cache
def _band() -> Image.Image:
    """A box's dark band with the score columns' headers, drawn once and pasted in each box.

    It is the same in all boxes, and only the series' name differs.
    """
    band = Image.new("RGB", (BOX_WIDTH, BAND_HEIGHT), BAND)
    canvas = ImageDraw.Draw(band)
    pen = Pen(SMALL_SIZE, CONDENSED)
    for header, left, width in zip(SCORE_COLUMNS, _score_lefts(0), SCORE_WIDTHS, strict=True):
        pen.draw_in(canvas, (left, 0, left + width, BAND_HEIGHT), header, BAND_INK, "centre")
    return band


def _draw_box(
    image: Image.Image,
    canvas: ImageDraw.ImageDraw,
    box: Box,
    series: SeriesView,
    pens: _Pens,
) -> None:
    """One series: its band, a line per player, and the two lines under them."""
    x, y = box.x, box.y
    right, bottom = x + BOX_WIDTH - 1, y + BOX_HEIGHT - 1
    canvas.rectangle((x, y, right, bottom), fill=PAPER, outline=RULE)
    image.paste(_band(), (x, y))
    lefts = _score_lefts(x)
    pens.small.draw_in(canvas, (x + PAD, y, lefts[0], y + BAND_HEIGHT), series.title, BAND_INK)
    name_left = x + PAD + SEED_WIDTH
    name_room = lefts[0] - name_left - PAD
    for index, first in enumerate((True, False)):
        top = y + BAND_HEIGHT + index * LINE_HEIGHT
        line_bottom = top + LINE_HEIGHT
        won = series.won(first)
        if won:
            canvas.rectangle((x + 1, top, right - 1, line_bottom - 1), fill=WON)
        elif index:
            canvas.line((x + PAD, top, right - PAD, top), fill=RULE)
        seed = series.seeds[index]
        seed_box = (x + PAD, top, name_left - 6, line_bottom)
        pens.small.draw_in(canvas, seed_box, "" if seed is None else str(seed), MUTED, "right")
        ink = INK if series.known else GREY
        if series.winner is not None and not won:
            ink = MUTED
        name = pens.name.fit(series.names[index], name_room)
        pens.name.draw_in(canvas, (name_left, top, lefts[0] - PAD, line_bottom), name, ink)
        cells = series.score_cells(first)
        for text, left, width in zip(cells, lefts, SCORE_WIDTHS, strict=True):
            pens.name.draw_in(canvas, (left, top, left + width, line_bottom), text, ink, "centre")
    foot_top = y + BAND_HEIGHT + 2 * LINE_HEIGHT + 3
    room = BOX_WIDTH - 2 * PAD
    names_room = room // 3
    for index, line in enumerate(series.footer(lambda n: pens.small.fit(n, names_room))):
        top = foot_top + index * FOOT_HEIGHT
        ink = INK if index == 0 and series.winner is not None else MUTED
        text = pens.small.fit(line, room)
        pens.small.draw_in(canvas, (x + PAD, top, right - PAD, top + FOOT_HEIGHT), text, ink)


def _join(canvas: ImageDraw.ImageDraw, feeders: tuple[Box, Box], target: Box) -> None:
    """Lines from two boxes' right edges to the middle of the box they feed."""
    middle_x = feeders[0].x + BOX_WIDTH + COLUMN_GAP // 2
    centre = BOX_HEIGHT // 2
    ys = [box.y + centre for box in feeders]
    for y in ys:
        canvas.line((feeders[0].x + BOX_WIDTH, y, middle_x, y), fill=GREY, width=2)
    canvas.line((middle_x, ys[0], middle_x, ys[1]), fill=GREY, width=2)
    target_y = target.y + centre
    canvas.line((middle_x, target_y, target.x - 1, target_y), fill=GREY, width=2)


def bracket_png(view: BracketView) -> bytes:
    """The bracket as PNG bytes, in `PALETTE`'s colours."""
    return png_bytes(bracket_image(view), PALETTE)


def bracket_image(view: BracketView) -> Image.Image:
    """The bracket drawn in full RGB colour."""
    subtitle = _subtitle(view)
    boxes = bracket_layout(view)
    notes = bracket_notes(view)
    content_bottom = max(box.y for box in boxes.values()) + BOX_HEIGHT
    height = content_bottom + notes_height(notes) + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    canvas = ImageDraw.Draw(image)
    draw_heading(canvas, WIDTH, view.event, subtitle, CONDENSED)
    pens = _Pens()
    label_top = heading_height(subtitle)
    for column, label in enumerate(ROUNDS):
        left = _column_x(column)
        box = (left, label_top, left + BOX_WIDTH, label_top + LABEL_HEIGHT - 4)
        pens.label.draw_in(canvas, box, label, MUTED)
    _join(canvas, (boxes[Tie.QF1], boxes[Tie.QF4]), boxes[Tie.SF1])
    _join(canvas, (boxes[Tie.QF2], boxes[Tie.QF3]), boxes[Tie.SF2])
    _join(canvas, (boxes[Tie.SF1], boxes[Tie.SF2]), boxes[Tie.FINAL])
    for series in view.series:
        _draw_box(image, canvas, boxes[series.tie], series, pens)
    draw_notes(canvas, WIDTH, content_bottom, notes, CONDENSED)
    return image
