"""Where in a JSON file pydantic found a problem, as the CLI and the bot name it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.league.season import QUOTE_LIMIT, quoted


def json_path(loc: Iterable[Any]) -> str:
    """A pydantic location as a JSON path, or "" for the whole file.

    For example ("matches", 3, "boards", 7, "home_points") becomes
    `matches[3].boards[7].home_points`. A key of the file, such as an `at_start` club or an event
    name, is quoted when it is long or not printable.
    """
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
            continue
        part = str(part)
        if len(part) > QUOTE_LIMIT or not part.isprintable():
            part = quoted(part)
        text += f".{part}" if text else part
    return text
