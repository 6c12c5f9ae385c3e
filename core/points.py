"""Exact scores by CORE-5: points are `Fraction`s that are multiples of ½, never binary floats.

Parsing accepts ints, exact floats, decimal strings and "a/b" strings. A file's stricter number
fields are the adapters' concern, in `bot/formats/numbers.py`. JSON output turns a Fraction back
into an int when whole, else into the float it equals exactly. Halves and quarters are exact in
binary. Text output shows a score as an exact decimal with `decimal_text`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

HALF = Fraction(1, 2)
ZERO = Fraction(0)
ONE = Fraction(1)


def to_fraction(value: object) -> Fraction:
    """Convert a number or numeric string to an exact Fraction, rejecting bools and NaN."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError("a boolean is not a score")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("a score must be a finite number")
        return Fraction(value)
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError) as error:
            raise ValueError(f"{value!r} is not a number") from error
    raise ValueError(f"{value!r} is not a number")


_COMMON_HALVES: dict[int | float, Fraction] = {n / 2: Fraction(n, 2) for n in range(-8, 401)}
"""The halves from -4 to 200, shared since Fractions are immutable.

A season file's points are almost all among them, so parsing one is a dict look-up. This matters for
the 190,000-game benchmark.
"""


def half_points(value: object) -> Fraction:
    """Parses a score that must be a multiple of ½ by CORE-5, or raises ValueError."""
    kind = type(value)
    if kind is float or kind is int:  # not bool (True == 1 would hit the table)
        common: Fraction | None = _COMMON_HALVES.get(value)  # type: ignore[call-overload]  # an int or float, checked above
        if common is not None:
            return common
    points = to_fraction(value)
    if points.denominator > 2:  # a Fraction is in lowest terms: halves have 1 or 2
        raise ValueError(f"{float(points)} is not a multiple of ½")
    return points


def json_number(value: Fraction | int) -> int | float:
    """Render an exact score as a JSON number: an int when whole, else its exact float."""
    value = Fraction(value)
    if value.denominator == 1:
        return int(value)
    return float(value)


def decimal_text(value: Fraction | int) -> str:
    """An exact score as text output shows it: `6`, `6.5`, `32.25`, or `a/b`.

    The fraction form is used when the score has no decimal of at most six places, since a float's
    text could round it.
    """
    value = Fraction(value)
    for places in range(0, 7):
        scaled = value * 10**places
        if scaled.denominator == 1:
            whole = f"{abs(scaled.numerator):0{places + 1}d}"
            sign = "-" if value < 0 else ""
            return sign + (f"{whole[:-places]}.{whole[-places:]}" if places else whole)
    return f"{value.numerator}/{value.denominator}"
