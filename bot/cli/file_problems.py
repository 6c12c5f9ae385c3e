"""The one line a CLI command prints for a file with problems (a season file, a tour file):
the first problem with its JSON path, and how many more there are.

One line, not one per problem: the standard for bad input, and enough to act on: a file is
fixed one problem at a time, the count says how far there is to go, and problems often
cascade from one mistake (every event of a list missing the same key). Every problem at once
is what `arbiter schema season|tour` is for, fed to any JSON Schema validator or editor.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from bot.cli.errors import CliError
from bot.cli.input_file import shown

FILE_WIDE = ("", "(file)")
"""The path of a problem of the whole file (not JSON, not an object): not shown."""


def first_problem(problems: Sequence[tuple[str, str]]) -> str:
    """`PATH: PROBLEM` of the first problem (no path for the whole file), then
    `(and N more)` when there are more."""
    where, problem = problems[0]
    text = problem if where in FILE_WIDE else f"{where}: {problem}"
    more = len(problems) - 1
    return f"{text} (and {more} more)" if more else text


def invalid_file(
    path: str | os.PathLike[str], kind: str, problems: Sequence[tuple[str, str]]
) -> CliError:
    """The CliError (exit 2) for the file at `path`, not a valid `kind` file."""
    return CliError(f"{shown(path)} is not a valid {kind} file: {first_problem(problems)}", 2)
