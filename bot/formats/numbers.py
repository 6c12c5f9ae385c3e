"""Number, instant and name fields shared by Arbiter's files, the season file and config.toml.

They say what JSON or TOML may hold where a number, a date or a printed name is due.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from fractions import Fraction
from typing import Annotated

from pydantic import (
    AfterValidator,
    BeforeValidator,
    PlainSerializer,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
)

from core.league.season import quoted
from core.names import NAME_LIMIT, invisible, text_problem, username_problem
from core.points import half_points, json_number


def number_only(value: object) -> object:
    """CORE-5: refuses text and booleans where a file must hold a number.

    pydantic's lax mode would read `"1.5"` as 1.5 and `true` as 1, which the published JSON Schema
    refuses.
    """
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number")
    if isinstance(value, str):
        raise ValueError(f"{quoted(value)} is text, not a number")
    return value


def _half_points_field(value: object) -> Fraction:
    """The `HalfPoints` validator: a number that is a multiple of ½, neither text nor a boolean."""
    return half_points(number_only(value))


HalfPoints = Annotated[
    Fraction,
    PlainValidator(_half_points_field),
    PlainSerializer(json_number, return_type=int | float, when_used="json"),
    WithJsonSchema({"type": "number", "multipleOf": 0.5}),
]
"""A pydantic field type for a score that is a multiple of ½, serialised as a JSON number.

A whole score is written as an integer. One Python call validates a value, with no second Fraction
check.
"""


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def finite_number(value: object) -> object:
    """CORE-5: a finite number that is neither text nor a boolean.

    NaN is called "not a number" rather than "must be greater than 0", and infinity is refused with
    its own word.
    """
    value = number_only(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("not a number (NaN)")
        if math.isinf(value):
            raise ValueError("must be a finite number, not infinity")
    return value


def iso_text(value: object) -> object:
    """A date or date-time must be ISO 8601 text such as `2017-10-01T18:00:00Z`, as the published
    schema says.

    pydantic alone would also read a Unix integer or a string of digits.
    """
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str) or not _ISO_DAY.match(value):
        number = ", not a number" if isinstance(value, int | float) else ""
        raise ValueError(f"must be ISO 8601 text (YYYY-MM-DD…){number}")
    return value


def printable(value: str) -> str:
    """A name Arbiter prints as it is, on a terminal or in Discord, checked by the one name gate in
    `core.names`.

    Control characters, ANSI escapes and invisible characters are refused, since they would rewrite
    what a reader sees or make two names look alike. Invisible characters include direction
    overrides, the word joiner and the byte-order mark.
    """
    found = _CONTROL.search(value)
    if found:
        raise ValueError(
            f"contains the control character U+{ord(found.group()):04X} (names are printed)"
        )
    if value.isascii():
        return value  # no control character (checked above) and nothing invisible
    for char in value:
        if invisible(char):
            raise ValueError(
                f"contains the invisible character U+{ord(char):04X} (names are printed)"
            )
    return value


def short_name(value: str) -> str:
    """A club, season or division name as every command requires it, by `core.names.text_problem`.

    It is printable, not blank, and at most `NAME_LIMIT` characters.
    """
    printable(value)
    problem = text_problem(value.strip(), NAME_LIMIT)
    if problem is not None:
        raise ValueError(problem.replace("holds", "contains", 1))
    return value


@functools.lru_cache(maxsize=8192)
def username(value: str) -> str:
    """A chess.com username as `/roster link` requires it, by `core.names.username_problem`.

    A Cyrillic or full-width look-alike is not another player. Each distinct name is checked once,
    since a season's players are in every payload of their club's matches. A refused name raises
    every time.
    """
    printable(value)
    problem = username_problem(value.strip())
    if problem is not None:
        raise ValueError(f"{quoted(value)} {problem}")
    return value


WHOLE_LIMIT = 2**53
"""No whole number of a file is larger, as JSON's exact integers and Discord's integer options
allow.

A count, hours or a round past it is a typo, and past 2⁶³ it would not fit an SQLite column.
"""


def whole_number(value: object) -> object:
    """A `finite_number` of at most `WHOLE_LIMIT` either way.

    A forged 10³⁰ is thus refused with its key instead of failing when it is stored.
    """
    value = finite_number(value)
    if isinstance(value, int | float) and abs(value) > WHOLE_LIMIT:
        raise ValueError(f"too large: at most 2⁵³ ({WHOLE_LIMIT:,})")
    return value


Count = Annotated[int, BeforeValidator(whole_number)]
"""An integer field such as a count, hours or a round. Text, booleans and NaN are refused."""
Number = Annotated[float, BeforeValidator(finite_number)]
"""A real-valued field such as a rating or seconds. Text, booleans, NaN and infinity are refused."""
Printable = Annotated[str, AfterValidator(printable)]
"""A name that will be printed: no control characters."""
Name = Annotated[str, StringConstraints(min_length=1), AfterValidator(printable)]
"""A name that will be printed and cannot be empty."""
ShortName = Annotated[
    str, StringConstraints(min_length=1, max_length=NAME_LIMIT), AfterValidator(short_name)
]
"""A club, season or division name: printed, not blank, at most 100 characters."""
Username = Annotated[str, StringConstraints(min_length=1), AfterValidator(username)]
"""A chess.com username of ASCII letters, digits, `_` and `-`."""
