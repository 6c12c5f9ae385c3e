"""The one line a CLI command prints for a season or tour file with problems.

It gives the first problem with its JSON path, and how many more there are. One line, not one per
problem, is the standard for bad input and enough to act on. A file is fixed one problem at a time,
the count says how far there is to go, and problems often cascade from one mistake, such as every
event of a list missing the same key. For every problem at once, feed `arbiter schema season|tour`
to any JSON Schema validator or editor.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from bot.cli.errors import CliError
from bot.cli.input_file import shown

FILE_WIDE = ("", "(file)")
"""The path of a problem of the whole file, such as not JSON or not an object. It is not shown."""


def first_problem(problems: Sequence[tuple[str, str]]) -> str:
    """`PATH: PROBLEM` of the first problem, then `(and N more)` when there are more.

    A problem of the whole file has no path.
    """
    where, problem = problems[0]
    text = problem if where in FILE_WIDE else f"{where}: {problem}"
    more = len(problems) - 1
    return f"{text} (and {more} more)" if more else text


def invalid_file(
    path: str | os.PathLike[str], kind: str, problems: Sequence[tuple[str, str]]
) -> CliError:
    """The CliError, with exit 2, for the file at `path` that is not a valid `kind` file."""
    return CliError(f"{shown(path)} is not a valid {kind} file: {first_problem(problems)}", 2)
