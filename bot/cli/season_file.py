"""Reading a season file for a CLI command: every failure becomes a CliError (exit 2)
naming the file and the path of each problem (one line when there is one problem)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.cli.errors import CliError
from bot.cli.input_file import read_input

if TYPE_CHECKING:  # pydantic models: imported when a command reads a season, not for --help
    from core.league.season import Season


def read_season(path: str) -> Season:
    """Load and check the season file at `path`, or raise CliError with every problem."""
    from bot.formats.season_file import SeasonFileError, load_season

    try:
        text = read_input(path).decode("utf-8-sig")  # a BOM is not JSON
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CliError(f"{path} is not UTF-8 text") from None
    try:
        return load_season(text)
    except SeasonFileError as error:
        if len(error.problems) == 1:
            [(where, problem)] = error.problems
            raise CliError(
                f"{path} is not a valid season file: {where or '(file)'}: {problem}"
            ) from None
        lines = "\n".join(f"  {where or '(file)'}: {problem}" for where, problem in error.problems)
        raise CliError(f"{path} is not a valid season file:\n{lines}") from None
