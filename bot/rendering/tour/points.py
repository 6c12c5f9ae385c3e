"""A tour points table and a preliminary's game scoring as text, by CCT-6 and CCT-8a.

The text follows the grammar `/event points` reads through `bot.formats.points_text`, so a table
shown can be typed back.
"""

from __future__ import annotations

from bot.formats.points_text import KEYS, PRELIM
from core.results import Scoring
from core.tour.preliminary import scoring_name
from core.tour.ranking import PointsTable


def table_line(table: PointsTable) -> str:
    """CCT-6: a table as text, such as `prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 25; 3rd 15;
    4th 10; …`.
    """
    parts = [f"{PRELIM} " + " ".join(str(p) for p in table.preliminary)]
    parts += [
        f"{key} {table.knockout[stage]}"
        for key, stage in KEYS.items()
        if stage is not None and stage in table.knockout
    ]
    return "; ".join(parts)


def scoring_line(scoring: Scoring) -> str:
    """CCT-8a: `1/½/0` or `3/1/0`."""
    return scoring_name(scoring)
