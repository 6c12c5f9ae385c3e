"""Ranked tables as monospace text for a code block: rows that fit a phone, names shortened
with a legend below. The league's and the tour's standings embeds both build on it."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.rendering.common.pages import DESCRIPTION_LIMIT, line_pages
from bot.rendering.common.user_text import code_text, inline_code, user_text

ROW_LIMIT = 30
"""Characters a table row may take: a phone shows about this many in a code block."""


CLUB_MIN = 4
"""The club column never gets narrower than this."""


FENCE = "```"


SMALL_WORDS = frozenset({"of", "the", "de", "du", "des", "la", "le", "and", "&", "von", "van"})


def _ascii(text: str) -> str:
    """`text` folded to printable ASCII, so a monospace column stays aligned on every device.

    Accents are dropped and other letters left out.
    """
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if " " <= c <= "~")


def _words(name: str) -> list[str]:
    """The words of a name that count for its initials. Small words are left out."""
    plain = " ".join(_ascii(name).split())
    words = [w for w in plain.replace("-", " ").split() if w[:1].isalnum()]
    return [w for w in words if w.lower() not in SMALL_WORDS] or words


def _shorts(name: str, width: int) -> list[str]:
    """Short forms of a name in at most `width` characters, plainest first.

    The forms are the name itself if it fits, its initials such as `FF`, then ever longer starts of
    its first word before the other initials, such as `FeF`, `FeyF` and `FeyeF`, and finally its
    start. A clash moves to the next form.
    """
    plain = " ".join(_ascii(name).split())
    if len(plain) <= width:
        return [plain]
    words = _words(name)
    forms: list[str] = []
    if len(words) > 1:
        rest = "".join(w[0].upper() for w in words[1:])
        for size in range(1, len(words[0]) + 1):
            form = (words[0][:size].capitalize() if size > 1 else words[0][0].upper()) + rest
            if len(form) <= width:
                forms.append(form)
    forms.append(plain[:width].rstrip())
    return list(dict.fromkeys(f for f in forms if f))


def abbreviations(clubs: Sequence[str], width: int) -> dict[str, str]:
    """A distinct short name of at most `width` characters for each club.

    Clubs whose short forms clash all take their next, longer form, so `Feyenoord Fans` and
    `Flamengo Fans` become `FeF` and `FlF` rather than `FF` and `FF2`. Only when the forms run out
    does a club take a number at its end.
    """
    forms = {club: _shorts(club, width) or [f"C{i}"[:width]] for i, club in enumerate(clubs, 1)}
    level = dict.fromkeys(clubs, 0)
    for _ in range(width + 2):
        chosen = {club: forms[club][min(level[club], len(forms[club]) - 1)] for club in clubs}
        clashing = [c for c in clubs if list(chosen.values()).count(chosen[c]) > 1]
        movable = [c for c in clashing if level[c] < len(forms[c]) - 1]
        if not movable:
            break
        for club in movable:
            level[club] += 1
    taken: set[str] = set()
    short: dict[str, str] = {}
    for club in clubs:
        name = chosen[club]
        number = 2
        while name in taken:
            suffix = str(number)
            name = (chosen[club][: width - len(suffix)] or "C") + suffix
            number += 1
        taken.add(name)
        short[club] = name
    return short


@dataclass(frozen=True, slots=True)
class TextTable:
    """A division as text: the table lines and the lines under it.

    The table lines come header first, each at most `ROW_LIMIT`. The lines under it hold the legend
    of short names, the marks and the columns left out.
    """

    lines: tuple[str, ...]
    legend: tuple[str, ...]


def _width(values: Sequence[str], header: str) -> int:
    return max([len(header), *(len(v) for v in values)])


@dataclass(frozen=True, slots=True)
class RankedLines:
    """A ranked table as text lines, header first.

    `short` gives each name as the table shows it, and `left_out` the number columns that had values
    but no room.
    """

    lines: tuple[str, ...]
    short: Mapping[str, str]
    left_out: tuple[str, ...]


def ranked_lines(
    ranks: Sequence[str],
    names: Sequence[str],
    values: Mapping[str, Sequence[str]],
    priority: Sequence[str],
    *,
    name_header: str = "Club",
    blank: Sequence[bool] = (),
    limit: int = ROW_LIMIT,
) -> RankedLines:
    """Rows of at most `limit` characters: rank, a distinct short name, then the number columns that
    fit.

    The number columns come from `values`, in its order, and are kept by `priority`. A column with
    no value at all is left out. A row flagged in `blank`, a disqualified club, shows no numbers.
    The league's and the tour's standings embeds share it.
    """
    used = _width(ranks, "Rk") + 1 + CLUB_MIN
    kept: list[str] = []
    for name in priority:
        if not any(values[name]):
            continue
        need = 1 + _width(values[name], name)
        if used + need <= limit:
            kept.append(name)
            used += need
    shown = [name for name in values if name in kept]
    name_width = CLUB_MIN + limit - used
    short = abbreviations(names, name_width)
    name_width = min(name_width, _width(list(short.values()), name_header))
    rank_width = _width(ranks, "Rk")
    widths = [_width(values[name], name) for name in shown]

    def line(rank: str, name: str, numbers: Sequence[str]) -> str:
        cells = [rank.rjust(rank_width), name.ljust(name_width)]
        cells += [n.rjust(w) for n, w in zip(numbers, widths, strict=True)]
        return " ".join(cells).rstrip()

    lines = [line("Rk", name_header, shown)]
    for index, (rank, name) in enumerate(zip(ranks, names, strict=True)):
        empty = index < len(blank) and blank[index]
        numbers = ["" if empty else values[n][index] for n in shown]
        lines.append(line(rank, code_text(short[name]), numbers))
    left_out = tuple(name for name in values if name not in shown and any(values[name]))
    return RankedLines(tuple(lines), short, left_out)


def short_name_legend(names: Sequence[str], short: Mapping[str, str]) -> list[str]:
    """A legend line for each name the table shortened: the short name as code, then the name as
    typed, escaped once.
    """
    return [
        f"{inline_code(short[n])} {user_text(n)}" for n in names if short[n] != " ".join(n.split())
    ]


def table_block(heading: str, table: TextTable, limit: int = DESCRIPTION_LIMIT) -> list[str]:
    """A table as embed text in pieces of at most `limit` characters.

    The text is the `heading`, the table in a code block and the legend. It is one piece when it
    fits. Otherwise the table is split by rows, repeating the header and heading, and then the
    legend follows.
    """
    whole = "\n".join([heading, FENCE, *table.lines, FENCE, *table.legend])
    if len(whole) <= limit:
        return [whole]
    frame = len(heading) + 2 * len(FENCE) + len(table.lines[0]) + 4  # + newlines
    pieces = [
        "\n".join([heading, FENCE, table.lines[0], page, FENCE])
        for page in line_pages(table.lines[1:], limit - frame)
    ]
    return pieces + line_pages(table.legend, limit)
