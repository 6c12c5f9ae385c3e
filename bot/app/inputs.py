"""User text checked before a service stores or repeats it: trimmed, not empty, printable,
and of a bounded length, so a hostile name never reaches the database or a message whole."""

from __future__ import annotations

import re

from bot.app.errors import UserError, quote_mark

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
NAME_LIMIT = 100
"""Characters of a club, season or division name."""
NOTE_LIMIT = 500
"""Characters of a reason or note."""
SHOWN = 40
"""Characters of a bad value an error message repeats."""


def shown(value: str) -> str:
    """A value as a refusal (`UserError`) quotes it: escaped and cut, and marked so Discord
    shows it as typed (no markdown) while the CLI prints it unchanged."""
    return quote_mark(repr(value[:SHOWN]) + ("…" if len(value) > SHOWN else ""))


def named(name: str) -> str:
    """A stored name (club, season, division) as a refusal names it: unchanged, but marked so
    Discord shows it as typed (a name holding `_` or `*` is not markdown)."""
    return quote_mark(name)


def clean_text(value: str, what: str, limit: int = NAME_LIMIT, *, required: bool = True) -> str:
    """`value` trimmed; refused when empty (if required), too long, or holding control or
    direction-changing characters."""
    text = value.strip()
    if not text and required:
        raise UserError(f"The {what} cannot be empty.")
    if len(text) > limit:
        raise UserError(f"The {what} is too long ({len(text)} characters; at most {limit}).")
    if _CONTROL.search(text):
        raise UserError(f"The {what} {shown(text)} contains a control character.")
    return text


def optional_text(value: str | None, what: str, limit: int = NOTE_LIMIT) -> str | None:
    """Like `clean_text`, but None or blank gives None."""
    if value is None or not value.strip():
        return None
    return clean_text(value, what, limit)


def positive_id(value: int, what: str) -> int:
    """A database or Discord id: a positive integer (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0 or value >= 2**63:
        raise UserError(f"{what} must be a positive id.")
    return value
