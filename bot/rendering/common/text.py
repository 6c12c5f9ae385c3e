"""How Arbiter writes the small things every output shares, once.

These are text cut to a limit with "…", scores with ½, and instants as Discord timestamps with their
countdown. The Sonneborn-Berger values of a team league also use ¼ and ¾.

Scores: a multiple of ¼ is written with the vulgar fractions chess players use, as in `13½`, `½`,
`35¼`, `2¾` or `−1½`. Any other value, which the rules never produce, is written as its exact
decimal. Files meant for programs, CSV and JSON, keep exact decimals such as `35.25`.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from core.points import decimal_text

ELLIPSIS = "…"
MINUS = "−"
"""U+2212 MINUS SIGN, so that a negative score from an adjustment reads as minus rather than a
hyphen.
"""


def cut(text: str, limit: int) -> str:
    """`text` within `limit` characters: itself when it fits, else its start and "…".

    The result is then exactly `limit` long. It never leaves half an escape, since a lone trailing
    backslash would escape the "…" or the markdown after it, as in `**{name}**`.
    """
    if limit < 1:
        raise ValueError("a limit holds at least one character")
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    if (len(kept) - len(kept.rstrip("\\"))) % 2:
        kept = kept[:-1]
    return kept + ELLIPSIS


_QUARTERS = ("", "¼", "½", "¾")
"""The vulgar fraction of each quarter of a point."""


def points(value: Fraction | int) -> str:
    """A score as a person reads it, such as `3`, `3½`, `½`, `35¼`, `0` or `−½`, as the module
    docstring says.
    """
    if isinstance(value, int):
        return _quarters(4 * value)
    if 4 % value.denominator:
        return decimal_text(value)  # a value the rules never produce
    return _quarters(value.numerator * (4 // value.denominator))


def halves(half: int) -> str:
    """Half-points as `points` writes them, from the database's integers, where a board's 1½ is 3.

    It works in whole numbers, so no Fraction is made for a score on the hot path.
    """
    return _quarters(2 * half)


def _quarters(quarters: int) -> str:
    """A whole number of quarter points as `points` writes it."""
    whole, rest = divmod(abs(quarters), 4)
    text = (str(whole) if whole or not rest else "") + _QUARTERS[rest]
    return (MINUS if quarters < 0 else "") + text


def score(first: Fraction | int, second: Fraction | int) -> str:
    """Two scores of a result with an en dash between, such as `2½–1½`."""
    return f"{points(first)}–{points(second)}"


def timestamp(instant: dt.datetime, style: str = "F") -> str:
    """An aware instant as a Discord timestamp such as `<t:UNIX:F>`, which every reader sees in
    their own zone.

    `R` is the live countdown, as in "in 3 days".
    """
    if instant.tzinfo is None:
        raise ValueError("a timestamp needs an aware instant")
    return f"<t:{int(instant.timestamp())}:{style}>"


def countdown(instant: dt.datetime) -> str:
    """An instant with its live countdown: `<t:…:F> (<t:…:R>)`."""
    return f"{timestamp(instant)} ({timestamp(instant, 'R')})"


def halves_text(value: Fraction | None) -> str:
    """A score as a person reads it (`points`: `13½`, `½`, `3`, an SB of
    `61¼`); none (a direct encounter not applied): empty."""
    return "" if value is None else points(value)


def shown_rank(rank: int, shared: bool, *, by_lot: bool = False) -> str:
    """A rank as the tables show it: `3`, `2=` when shared, `4*` when a drawing of lots
    decided it."""
    return f"{rank}{'=' if shared else '*' if by_lot else ''}"
