"""Where in a JSON file pydantic found a problem, as the CLI and the bot name it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.league.season import QUOTE_LIMIT, quoted


def json_path(loc: Iterable[Any]) -> str:
    """A pydantic location as a JSON path: ("matches", 3, "boards", 7, "home_points") →
    `matches[3].boards[7].home_points`; a key of the file (an `at_start` club, an event
    name) quoted when it is long or not printable; "" for the whole file."""
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
