"""The standings as an embed table (≤ 30 characters a row), the embed paginator (Discord's
limits; property-tested: no page over them, no line lost, order kept) and the CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rendering.common.limits import EMBED_TOTAL, FIELDS_PER_EMBED
from bot.rendering.common.pages import field_pages, line_pages, split_line
from bot.rendering.common.text_table import ROW_LIMIT, abbreviations
from bot.rendering.league.division_view import division_view
from bot.rendering.league.standings_csv import HEADER, standings_csv
from bot.rendering.league.standings_table import division_block, standings_pages, standings_table
from tests.support.rendering_season import CLUBS, generated_report

VIEW = division_view(generated_report(), "P")


def test_every_table_row_fits_a_phone_and_every_club_has_a_row() -> None:
    table = standings_table(VIEW.rows)
    assert len(table.lines) == 14
    assert all(len(line) <= ROW_LIMIT for line in table.lines)
    assert table.lines[0].split()[:2] == ["Rk", "Club"] and "MP" in table.lines[0]
    assert table.lines[-1].split() == ["DQ", abbreviations(CLUBS, 5)[CLUBS[-1]]]


def test_short_names_are_distinct_and_explained_in_the_legend() -> None:
    table = standings_table(VIEW.rows)
    shown = [line[3:].split()[0] for line in table.lines[1:]]
    assert len(set(shown)) == len(shown)
    legend = "\n".join(table.legend)
    for row, short in zip(VIEW.rows, shown, strict=True):
        if short != row.club:
            assert f"`{short}` {row.club}" in legend
    assert "DQ" in legend


def test_clashing_initials_grow_apart_and_fitting_names_stay_whole() -> None:
    """Clashing initials take longer forms that tell the clubs apart (`ReR`, `RoR` — not
    `RR` and `RR2`, which read as the same club, issue 20); a number only when no form is
    left; a name that fits stays whole."""
    short = abbreviations(["Red Rooks", "Royal Rooks", "Ro", "Rosa Rugosa Club"], 3)
    assert short == {
        "Red Rooks": "ReR",
        "Royal Rooks": "RoR",
        "Ro": "Ro",
        "Rosa Rugosa Club": "RRC",
    }
    fans = abbreviations(["Feyenoord Fans", "Flamengo Fans", "Fulham Fans"], 4)
    assert fans == {"Feyenoord Fans": "FeF", "Flamengo Fans": "FlF", "Fulham Fans": "FuF"}
    same = abbreviations(["Ab Cd", "Ab Ce"], 2)
    assert same == {"Ab Cd": "Ab", "Ab Ce": "A2"}


def test_wide_numbers_drop_columns_by_priority_but_never_overflow() -> None:
    rows = tuple(
        replace(r, game_points=Fraction(123457, 2), sb=Fraction(987654321, 4)) for r in VIEW.rows
    )
    table = standings_table(rows)
    assert all(len(line) <= ROW_LIMIT for line in table.lines)
    header = table.lines[0].split()
    assert "MP" in header and "P" in header
    assert "Not shown" in table.legend[-1]


def test_the_embed_block_is_a_code_block_within_the_description_limit() -> None:
    (block,) = division_block(VIEW)
    assert block.count("```") == 2 and len(block) <= 4096
    pages = standings_pages([VIEW] * 20)
    assert len(pages) > 1 and all(len(page) <= 4096 for page in pages)
    assert sum(page.count("**P**") for page in pages) == 20


def test_a_table_too_long_for_one_page_is_split_by_rows_with_its_header() -> None:
    pieces = division_block(VIEW, limit=300)
    assert len(pieces) > 2 and all(len(p) <= 300 for p in pieces)
    tables = [p for p in pieces if "```" in p]
    assert all(p.count("```") == 2 and "Rk Club" in p for p in tables)
    body = [line for p in tables for line in p.split("\n")[3:-1]]
    assert body == list(standings_table(VIEW.rows).lines[1:])


@given(
    st.lists(st.text(max_size=120), max_size=60),
    st.integers(1, 300),
    st.none() | st.integers(1, 30),
)
def test_line_pages_keep_every_line_in_order_within_the_limits(
    lines: list[str], limit: int, max_lines: int | None
) -> None:
    pages = line_pages(lines, limit, max_lines)
    assert all(len(page) <= limit for page in pages)
    split = [page.split("\n") for page in pages]
    if max_lines is not None:
        assert all(len(page) <= max_lines for page in split)
    shown = [line for page in split for line in page]
    assert "".join(shown) == "".join(lines).replace("\n", "")  # every character, in order
    whole = [line for text in lines for line in text.split("\n")]
    assert [piece for line in whole for piece in split_line(line, limit)] == shown
    assert ["".join(split_line(line, limit)) for line in whole] == whole


@given(
    st.lists(st.tuples(st.text(min_size=1, max_size=256), st.text(min_size=1, max_size=1024))),
    st.integers(0, 1000),
)
def test_field_pages_stay_within_25_fields_and_6000_characters(
    fields: list[tuple[str, str]], reserved: int
) -> None:
    pages = field_pages(fields, reserved)
    assert [f for page in pages for f in page] == fields
    for page in pages:
        assert 1 <= len(page) <= FIELDS_PER_EMBED
        assert reserved + sum(len(n) + len(v) for n, v in page) <= EMBED_TOTAL


def test_field_pages_refuse_a_field_over_discords_limits() -> None:
    with pytest.raises(ValueError, match="limits"):
        field_pages([("name", "v" * 1025)])
    with pytest.raises(ValueError, match="name and a value"):
        field_pages([("name", "")])


def test_csv_has_a_header_and_exact_values_as_text() -> None:
    text = standings_csv(VIEW)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(HEADER)
    assert [row[3] for row in rows[1:]] == [r.club for r in VIEW.rows]
    for row, standing in zip(rows[1:], VIEW.rows, strict=True):
        assert Fraction(row[8]) == standing.match_points
        assert Fraction(row[9]) == standing.game_points
        assert Fraction(row[10]) == standing.sb
    numbers = [cell for row in rows[1:] for cell in row[4:]]
    assert all(cell == "" or cell.replace(".", "", 1).isdigit() for cell in numbers)
    assert rows[-1][0] == "" and rows[-1][2] == "yes"


def test_csv_writes_quarters_and_halves_exactly() -> None:
    row = replace(VIEW.rows[0], match_points=Fraction(19, 2), sb=Fraction(245, 4))
    text = standings_csv(replace(VIEW, rows=(row,)))
    line = text.splitlines()[1].split(",")
    assert line[8] == "9.5" and line[10] == "61.25"
