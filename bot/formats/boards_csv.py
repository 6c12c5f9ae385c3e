"""A match's boards as CSV, for the arbiter's manual result with `/match result`.

Each line is one board, `board,home_player,away_player,home_points,away_points`, and a header line
is optional. Points are exact halves such as `1.5` or `1½`. Players are chess.com usernames, checked
as `/roster link` checks them through `core.names`, so a Cyrillic or full-width look-alike is
refused rather than taken as a second player. A player plays one board of a match. An error names
the bad line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from core.league.season import quoted
from core.names import username_problem
from core.points import half_points

HEADER = ("board", "home_player", "away_player", "home_points", "away_points")
MAX_BYTES = 100_000
MAX_BOARDS = 500
"""Boards of one match, and the highest board number."""


class BoardsCsvError(ValueError):
    """A boards file that cannot be read. The message names the line."""


@dataclass(frozen=True)
class BoardRow:
    """One board as given: its number, the players and their points."""

    board: int
    home_player: str
    away_player: str
    home_points: Fraction
    away_points: Fraction


def _points(text: str, line: int, column: str) -> Fraction:
    value = text.strip().replace("½", ".5")
    if len(value) > 10 or "e" in value.lower():
        raise BoardsCsvError(f"line {line}: {column} {quoted(text)} is not a number of halves")
    if value.startswith(".5"):
        value = "0" + value
    try:
        return half_points(Fraction(value))
    except (ValueError, ZeroDivisionError):
        raise BoardsCsvError(
            f"line {line}: {column} {quoted(text)} is not a number of halves"
        ) from None


def _player(text: str, line: int, column: str) -> str:
    name = text.strip()
    if not name:
        raise BoardsCsvError(f"line {line}: {column} is empty")
    if username_problem(name) is not None:
        raise BoardsCsvError(f"line {line}: {column} {quoted(name)} is not a chess.com username")
    return name


def parse_boards_csv(text: str) -> list[BoardRow]:
    """The boards of a CSV text in the order given. Each board number appears once."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise BoardsCsvError(f"the file is larger than {MAX_BYTES // 1000} kB")
    if "\x00" in text:
        raise BoardsCsvError("the file holds a NUL character: it is not CSV text")
    rows: list[BoardRow] = []
    seen: dict[int, int] = {}
    players: dict[str, int] = {}
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    for cells in reader:
        line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if not rows and not seen and tuple(c.strip().lower() for c in cells) == HEADER:
            continue
        if len(cells) != len(HEADER):
            raise BoardsCsvError(f"line {line}: {len(cells)} fields, expected {len(HEADER)}")
        number_text = cells[0].strip()
        if (
            not number_text.isascii()
            or not number_text.isdigit()
            or len(number_text) > len(str(MAX_BOARDS))
            or not 1 <= int(number_text) <= MAX_BOARDS
        ):
            raise BoardsCsvError(
                f"line {line}: board {quoted(cells[0])} is not a board number (1 to {MAX_BOARDS})"
            )
        number = int(number_text)
        if number in seen:
            raise BoardsCsvError(f"line {line}: board {number} is already on line {seen[number]}")
        seen[number] = line
        home, away = _player(cells[1], line, "home_player"), _player(cells[2], line, "away_player")
        if home.casefold() == away.casefold():
            raise BoardsCsvError(f"line {line}: {quoted(home)} cannot play both sides")
        for name in (home, away):
            key = name.casefold()
            if key in players:
                raise BoardsCsvError(
                    f"line {line}: {quoted(name)} already plays on line {players[key]}:"
                    " a player plays one board of a match"
                )
            players[key] = line
        rows.append(
            BoardRow(
                number,
                home,
                away,
                _points(cells[3], line, "home_points"),
                _points(cells[4], line, "away_points"),
            )
        )
    if not rows:
        raise BoardsCsvError("no boards in the file")
    return rows
