"""`/standings` as an embed: a division's table as monospace text that survives a phone screen.

Every table row is at most 30 characters. Club names are shortened with a legend below, columns
are kept by importance, and the table is split into embed-sized pages. Names in the code block
keep no backslash, because code shows as typed. Only a backtick is replaced, by
`escape.code_text`. Names in the legend and heading are escaped markdown through
`escape.user_text`. The tour's tables are built the same way, with `ranked_lines`,
`short_name_legend` and `table_block`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from bot.rendering.common.pages import DESCRIPTION_LIMIT, pack
from bot.rendering.common.text import points
from bot.rendering.common.text_table import (
    ROW_LIMIT,
    TextTable,
    ranked_lines,
    short_name_legend,
    table_block,
)
from bot.rendering.common.user_text import user_text
from bot.rendering.league.division_view import DivisionView, rank_text
from core.league.standings import ClubStanding

NO_CLUBS = "No clubs in this division yet."
"""Said instead of an empty table headed `Rk Club`."""


def _score(value: Fraction | None) -> str:
    """A score as people read it in Discord, as the images write it: `8½`, `35¼`."""
    return "" if value is None else points(value)


COLUMNS: dict[str, Callable[[ClubStanding], str]] = {
    "P": lambda r: str(r.played),
    "W": lambda r: str(r.won),
    "D": lambda r: str(r.drawn),
    "L": lambda r: str(r.lost),
    "MP": lambda r: _score(r.match_points),
    "SB": lambda r: _score(r.sb),
    "DE": lambda r: _score(r.de),
    "GP": lambda r: _score(r.game_points),
}
"""The number columns in the order shown: CL-17's (match points, SB, DE), game points after."""
PRIORITY = ("MP", "P", "GP", "SB", "W", "D", "L", "DE")
"""Which number columns to keep first when not all fit in a row."""
DE_DECIDED = ("MP", "DE", "P", "GP", "SB", "W", "D", "L")
"""CL-17: the priority when direct encounter decided a place — DE is then shown, right
after the match points it broke a tie of."""


def standings_table(rows: Sequence[ClubStanding], limit: int = ROW_LIMIT) -> TextTable:
    """The table of `rows` in rows of at most `limit` characters: rank, club and the number
    columns that fit by `PRIORITY` (a column with no value at all is left out) — by
    `DE_DECIDED` when direct encounter decided a place (CL-17), so it is always shown then."""
    clubs = [row.club for row in rows]
    priority = DE_DECIDED if any(row.de is not None for row in rows) else PRIORITY
    table = ranked_lines(
        [rank_text(row) for row in rows],
        clubs,
        {name: [column(row) for row in rows] for name, column in COLUMNS.items()},
        priority,
        blank=[row.disqualified for row in rows],
        limit=limit,
    )
    legend = short_name_legend(clubs, table.short)
    marks = []
    if any(row.tied for row in rows):
        marks.append("`=` shared rank (CL-17)")
    if any(row.disqualified for row in rows):
        marks.append("`DQ` disqualified (CL-DQ)")
    if table.left_out:
        marks.append(f"Not shown: {' '.join(table.left_out)} (see format:image)")
    if marks:
        legend.append(" · ".join(marks))
    return TextTable(table.lines, tuple(legend))


def division_block(view: DivisionView, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """A division as embed text (`table_block`): its heading, table and legend."""
    heading = f"**{user_text(view.division)}** · {view.caption('standings')}"
    if not view.rows:
        return [f"{heading}\n{NO_CLUBS}"]
    return table_block(heading, standings_table(view.rows), limit)


def standings_pages(views: Sequence[DivisionView], limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """Every division's block packed into embed descriptions of at most `limit`
    characters, divisions in order, a blank line between two on one page."""
    pieces = [piece for view in views for piece in division_block(view, limit)]
    return ["\n\n".join(page) for page in pack(pieces, len, limit, None, gap=2)]
