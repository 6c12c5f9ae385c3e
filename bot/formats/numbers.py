"""Number, instant and name fields shared by Arbiter's files (season file, config.toml):
what JSON / TOML may hold where a number, a date or a printed name is due."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, StringConstraints

from core.points import number_only

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def finite_number(value: object) -> object:
    """A number (CORE-5: not text, not a boolean) that is finite: NaN is "not a number",
    not "must be greater than 0"; infinity is refused with its own word."""
    value = number_only(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("not a number (NaN)")
        if math.isinf(value):
            raise ValueError("must be a finite number, not infinity")
    return value


def iso_text(value: object) -> object:
    """A date or date-time must be ISO 8601 text (`2017-10-01T18:00:00Z`), as the published
    schema says: pydantic alone would also read a Unix integer or a string of digits."""
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str) or not _ISO_DAY.match(value):
        shown = "a number" if isinstance(value, int | float) else "not ISO 8601 text"
        raise ValueError(f"must be ISO 8601 text (YYYY-MM-DD…), {shown}")
    return value


def printable(value: str) -> str:
    """A name Arbiter prints as it is (terminal, Discord): control characters and ANSI
    escapes are refused, since they would rewrite what a reader sees."""
    found = _CONTROL.search(value)
    if found:
        raise ValueError(
            f"contains the control character U+{ord(found.group()):04X} (names are printed)"
        )
    return value


Count = Annotated[int, BeforeValidator(finite_number)]
"""An integer field (a count, hours, a round): text, booleans and NaN refused."""
Number = Annotated[float, BeforeValidator(finite_number)]
"""A real-valued field (a rating, seconds): text, booleans, NaN and infinity refused."""
Printable = Annotated[str, AfterValidator(printable)]
"""A name that will be printed: no control characters."""
Name = Annotated[str, StringConstraints(min_length=1), AfterValidator(printable)]
"""A name that will be printed and cannot be empty."""
