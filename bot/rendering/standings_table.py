"""`/standings` (embed): a division's table as monospace text in a code block that survives
a phone screen — every table row at most 30 characters, club names shortened with a legend
below, columns kept by importance — and split into embed-sized pages. Names in the code block
keep no backslash (code shows as typed; only a backtick is replaced, `escape.code_text`);
names in the legend and heading are escaped markdown (`escape.user_text`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.rendering.division_view import DivisionView, rank_text
from bot.rendering.pages import DESCRIPTION_LIMIT, line_pages, pack
from bot.rendering.user_text import code_text, inline_code, user_text
from core.league.standings import ClubStanding
from core.points import decimal_text

ROW_LIMIT = 30
"""Characters a table row may take: a phone shows about this many in a code block."""
CLUB_MIN = 4
"""The club column never gets narrower than this."""
FENCE = "```"
NO_CLUBS = "No clubs in this division yet."
"""Said instead of an empty table headed `Rk Club`."""
SMALL_WORDS = frozenset({"of", "the", "de", "du", "des", "la", "le", "and", "&", "von", "van"})


def _score(value: Fraction | None) -> str:
    return "" if value is None else decimal_text(value)


COLUMNS: dict[str, Callable[[ClubStanding], str]] = {
    "P": lambda r: str(r.played),
    "W": lambda r: str(r.won),
    "D": lambda r: str(r.drawn),
    "L": lambda r: str(r.lost),
    "MP": lambda r: _score(r.match_points),
    "GP": lambda r: _score(r.game_points),
    "SB": lambda r: _score(r.sb),
    "DE": lambda r: _score(r.de),
}
"""The number columns in the order shown."""
PRIORITY = ("MP", "P", "GP", "SB", "W", "D", "L", "DE")
"""Which number columns to keep first when not all fit in a row."""


def _ascii(text: str) -> str:
    """`text` folded to printable ASCII (accents dropped, other letters left out), so a
    monospace column stays aligned on every device."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if " " <= c <= "~")


def _short(name: str, width: int) -> str:
    """A name in `width` characters: itself if it fits, else the initials of its words
    (small words left out), else its start."""
    plain = " ".join(_ascii(name).split())
    if len(plain) <= width:
        return plain
    words = [w for w in plain.replace("-", " ").split() if w[:1].isalnum()]
    big = [w for w in words if w.lower() not in SMALL_WORDS] or words
    if len(big) > 1:
        return "".join(w[0].upper() for w in big)[:width]
    return plain[:width].rstrip()


def abbreviations(clubs: Sequence[str], width: int) -> dict[str, str]:
    """A distinct short name of at most `width` characters for each club (in order: a clash
    takes a number at its end, `KRT` then `KR2`)."""
    taken: set[str] = set()
    short: dict[str, str] = {}
    for index, club in enumerate(clubs, start=1):
        name = _short(club, width) or f"C{index}"[:width]
        number = 2
        while name in taken:
            suffix = str(number)
            name = (_short(club, width)[: width - len(suffix)] or "C") + suffix
            number += 1
        taken.add(name)
        short[club] = name
    return short


@dataclass(frozen=True, slots=True)
class TextTable:
    """A division as text: the table lines (header first, each ≤ `ROW_LIMIT`) and the
    lines under it (the legend of short names, the marks, the columns left out)."""

    lines: tuple[str, ...]
    legend: tuple[str, ...]


def _width(values: Sequence[str], header: str) -> int:
    return max([len(header), *(len(v) for v in values)])


def standings_table(rows: Sequence[ClubStanding], limit: int = ROW_LIMIT) -> TextTable:
    """The table of `rows` in rows of at most `limit` characters: rank, club and the number
    columns that fit by `PRIORITY` (a column with no value at all is left out)."""
    ranks = [rank_text(row) for row in rows]
    values = {name: [column(row) for row in rows] for name, column in COLUMNS.items()}
    used = _width(ranks, "Rk") + 1 + CLUB_MIN
    kept: list[str] = []
    for name in PRIORITY:
        if not any(values[name]):
            continue
        need = 1 + _width(values[name], name)
        if used + need <= limit:
            kept.append(name)
            used += need
    shown = [name for name in COLUMNS if name in kept]
    clubs = [row.club for row in rows]
    club_width = CLUB_MIN + limit - used
    short = abbreviations(clubs, club_width)
    club_width = min(club_width, _width(list(short.values()), "Club"))
    rank_width = _width(ranks, "Rk")
    widths = [_width(values[name], name) for name in shown]

    def line(rank: str, club: str, numbers: Sequence[str]) -> str:
        cells = [rank.rjust(rank_width), club.ljust(club_width)]
        cells += [n.rjust(w) for n, w in zip(numbers, widths, strict=True)]
        return " ".join(cells).rstrip()

    lines = [line("Rk", "Club", shown)]
    for index, (rank, club) in enumerate(zip(ranks, clubs, strict=True)):
        numbers = ["" if rows[index].disqualified else values[n][index] for n in shown]
        lines.append(line(rank, code_text(short[club]), numbers))
    legend = [
        f"{inline_code(short[c])} {user_text(c)}" for c in clubs if short[c] != " ".join(c.split())
    ]
    marks = []
    if any(row.tied for row in rows):
        marks.append("`=` shared rank (CL-17)")
    if any(row.disqualified for row in rows):
        marks.append("`DQ` disqualified (CL-DQ)")
    left_out = [name for name in COLUMNS if name not in shown and any(values[name])]
    if left_out:
        marks.append(f"Not shown: {' '.join(left_out)} (see format:image)")
    if marks:
        legend.append(" · ".join(marks))
    return TextTable(tuple(lines), tuple(legend))


def division_block(view: DivisionView, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """A division as embed text — its heading, the table in a code block, the legend —
    in pieces of at most `limit` characters: one piece when it fits, else the table split
    by rows (header and heading repeated) and then the legend."""
    heading = f"**{user_text(view.division)}** · {view.caption('standings')}"
    if not view.rows:
        return [f"{heading}\n{NO_CLUBS}"]
    table = standings_table(view.rows)
    whole = "\n".join([heading, FENCE, *table.lines, FENCE, *table.legend])
    if len(whole) <= limit:
        return [whole]
    frame = len(heading) + 2 * len(FENCE) + len(table.lines[0]) + 4  # + newlines
    pieces = [
        "\n".join([heading, FENCE, table.lines[0], page, FENCE])
        for page in line_pages(table.lines[1:], limit - frame)
    ]
    return pieces + line_pages(table.legend, limit)


def standings_pages(views: Sequence[DivisionView], limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """Every division's block packed into embed descriptions of at most `limit`
    characters, divisions in order, a blank line between two on one page."""
    pieces = [piece for view in views for piece in division_block(view, limit)]
    return ["\n\n".join(page) for page in pack(pieces, len, limit, None, gap=2)]
