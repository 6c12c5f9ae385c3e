"""How values are stored: instants as ISO 8601 UTC text, days as ISO dates, rows as records."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypeVar

from core.names import folded
from storage.engine.connection import Row

T = TypeVar("T")


def to_text(instant: dt.datetime) -> str:
    """An aware instant as the ISO 8601 UTC text stored in the database, in whole seconds."""
    if instant.tzinfo is None:
        raise ValueError("stored instants must be timezone-aware")
    return instant.astimezone(dt.UTC).isoformat(timespec="seconds")


def instant_text(instant: dt.datetime) -> str:
    """An aware instant as stored for league facts: ISO 8601 UTC with sub-seconds kept."""
    if instant.tzinfo is None:
        raise ValueError("stored instants must be timezone-aware")
    return instant.astimezone(dt.UTC).isoformat()


def from_text(text: str) -> dt.datetime:
    """The aware UTC instant stored by `to_text` or `instant_text`."""
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC)


def instant_or_none(text: str | None) -> dt.datetime | None:
    """`from_text` of a nullable column. None stays None."""
    return None if text is None else from_text(text)


def day_or_none(text: str | None) -> dt.date | None:
    """The date of a nullable ISO date column. None stays None."""
    return None if text is None else dt.date.fromisoformat(text)


CANDIDATES = 200
"""At most this many rows per lookup. The ranking keeps 25."""


def record(kind: Callable[..., T], row: Row, **values: Any) -> T:
    """`kind` made of the row's columns by name, `values` standing in for the columns they name."""
    return kind(**(dict(zip(row.keys(), row, strict=True)) | values))


def like_pattern(text: str) -> str:
    """A LIKE pattern matching `text` anywhere, its wildcards taken literally."""
    escaped = folded(text).replace("\\", "\\\\").replace("%", "\\%")
    return "%" + escaped.replace("_", "\\_") + "%"


def name_filter(column: str, name: str | None) -> tuple[str, tuple[str, ...]]:
    """The condition after AND keeping rows whose `column` is the key of `name`, with its
    parameter, or nothing when no name is given."""
    if not name:
        return "", ()
    return f" AND {column} = ?", (folded(name),)
