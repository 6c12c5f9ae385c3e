"""The window of dates a command accepts: none before 2000 and none more than five years ahead.

A typo such as 9999 is refused as one line, rather than stored or failing as an overflow.
"""

from __future__ import annotations

import datetime as dt

EARLIEST_DAY = dt.date(2000, 1, 1)
"""No league date lies before this. chess.com's team matches began in 2007."""
YEARS_AHEAD = 5
"""No league date lies further ahead than this, so a typo such as 9999 is refused."""


def latest_day(today: dt.date) -> dt.date:
    """The last day accepted `YEARS_AHEAD` years after `today`."""
    return today.replace(year=today.year + YEARS_AHEAD, day=min(today.day, 28))
