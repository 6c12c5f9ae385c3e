"""Reads a season file for a CLI command.

Every failure becomes a CliError with exit 2 and one line naming the file and the path of the first
problem, through `bot.cli.file_problems`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cli.errors import CliError
from bot.cli.file_problems import invalid_file
from bot.cli.input_file import read_input, shown

if TYPE_CHECKING:  # pydantic models: imported when a command reads a season, not for --help
    from core.league.season import Season


def read_season(path: str) -> Season:
    """Load and check the season file at `path`, or raise CliError with its first problem."""
    from bot.formats.season_file import SeasonFileError, load_season

    try:
        text = read_input(path).decode("utf-8-sig")  # a BOM is not JSON
    except UnicodeDecodeError:
        raise CliError(f"{shown(path)}: not UTF-8 text") from None
    try:
        return load_season(text)
    except SeasonFileError as error:
        raise invalid_file(path, "season", error.problems) from None
