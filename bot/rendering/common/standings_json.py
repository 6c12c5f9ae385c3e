"""The individual standings as a JSON document, for `arbiter standings --json`.

Rows come in rank order, tied players share a rank, and every score is a JSON number. By CORE-5 the
scores are exact halves.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from core.points import json_number
from core.standings import PlayerStanding


def number_or_null(value: Fraction | int | None) -> int | float | None:
    """A score as a JSON number, or None for JSON `null` where there is none."""
    return None if value is None else json_number(value)


def standings_json(
    rows: tuple[PlayerStanding, ...], names: Mapping[Any, str], lots: bool = False
) -> dict[str, Any]:
    """The document `{"standings": [...]}`.

    With a drawing of lots in `lots`, each row also tells in `by_lot` whether the draw decided its
    rank.
    """
    entries: list[dict[str, Any]] = []
    for row in rows:
        entry: dict[str, Any] = {
            "rank": row.rank,
            "start_no": row.player,
            "name": names[row.player],
            "points": json_number(row.points),
            "tiebreaks": {
                "DE": number_or_null(row.de),
                "WIN": row.wins,
                "SB": json_number(row.sb),
                "KS": json_number(row.ks),
            },
        }
        if lots:
            entry["by_lot"] = row.by_lot
        entries.append(entry)
    return {"standings": entries}
