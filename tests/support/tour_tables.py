"""Reading back the tables the tour's embeds show (bot/rendering/tour/standings_embeds.py):
the rows of the code block, each as rank, player (its full name from the legend below the
table when it was shortened) and the number columns, in order."""

from __future__ import annotations

import re
from fractions import Fraction

LEGEND = re.compile(r"^`(?P<short>[^`]+)` (?P<full>.+)$", re.MULTILINE)


def table_rows(description: str) -> list[tuple[str, str, list[str]]]:
    """(rank, player, number cells) of every row of the embed's code block. Numbers are
    right-aligned under their headings (a cell may be empty: DE not applied), a name fills
    the space before the first heading (a longer one is shortened, with the legend below
    the table)."""
    block = description.split("```")[1].strip("\n")
    header, *lines = block.splitlines()
    legend = {m["short"]: m["full"] for m in LEGEND.finditer(description.split("```")[2])}
    name_at = header.index("Player")
    ends, at = [], name_at + len("Player")
    headings = header[at:].split()
    first = header.index(headings[0], at)  # where the number columns begin
    for heading in headings:
        at = header.index(heading, at) + len(heading)
        ends.append(at)
    rows = []
    for line in lines:
        name = line[name_at:first].strip()
        start = first
        cells = []
        for end in ends:
            cells.append(line[start:end].strip())
            start = end
        rows.append((line[:name_at].strip(), legend.get(name, name), cells))
    return rows


def column(description: str, name: str) -> int:
    """The index of the number column `name` in `table_rows`' cells."""
    header = description.split("```")[1].strip("\n").splitlines()[0].split()
    return header.index(name) - 2


def number(cell: str) -> Fraction:
    """A table's number as an exact value: `3`, `6½`, `½`, `29.5`."""
    if cell.endswith("½"):
        return Fraction(int(cell[:-1] or 0)) + Fraction(1, 2)
    return Fraction(cell)
