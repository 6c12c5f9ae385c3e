"""User text checked before a service stores or repeats it, through the one name gate
(`core.names`): trimmed, not empty, no invisible or control character, of a bounded length —
so a hostile name never reaches the database or a message whole — and chess.com usernames
as chess.com spells them. Each refusal is one line naming what was wrong."""

from __future__ import annotations

from bot.kernel.errors import UserError, quote_mark
from core.names import NAME_LIMIT, NOTE_LIMIT, text_problem, username_problem

__all__ = [
    "NAME_LIMIT",
    "NOTE_LIMIT",
    "chesscom_username",
    "clean_text",
    "named",
    "optional_text",
    "positive_id",
    "shown",
]

SHOWN = 40
"""Characters of a bad value an error message repeats."""
SNOWFLAKE_LIMIT = 2**63
"""Discord ids (users, channels, roles) are below 2⁶³ (SQLite's INTEGER too)."""


def shown(value: str) -> str:
    """A value as a refusal (`UserError`) quotes it: escaped and cut, and marked so Discord
    shows it as typed (no markdown) while the CLI prints it unchanged."""
    return quote_mark(repr(value[:SHOWN]) + ("…" if len(value) > SHOWN else ""))


def named(name: str) -> str:
    """A stored name (club, season, division) as a refusal names it: unchanged, but marked so
    Discord shows it as typed (a name holding `_` or `*` is not markdown)."""
    return quote_mark(name)


def clean_text(value: str, what: str, limit: int = NAME_LIMIT, *, required: bool = True) -> str:
    """`value` trimmed; refused (one line saying why) when empty (if required), too long, or
    holding an invisible or control character (`core.names.text_problem`)."""
    text = value.strip()
    if not text and not required:
        return text
    problem = text_problem(text, limit)
    if problem is not None:
        raise UserError(f"The {what} {problem}.")
    return text


def optional_text(value: str | None, what: str, limit: int = NOTE_LIMIT) -> str | None:
    """Like `clean_text`, but None or blank gives None."""
    if value is None or not value.strip():
        return None
    return clean_text(value, what, limit)


def chesscom_username(text: str) -> str:
    """A chess.com username as given (ASCII letters, digits, `_`, `-`; at most 50 characters), as
    every door checks it (`/roster link`, boards CSVs, season files)."""
    name = text.strip()
    problem = username_problem(name)
    if problem is not None:
        raise UserError(f"The chess.com username {shown(name)} {problem}.")
    return name


def positive_id(value: int, what: str) -> int:
    """A Discord id (a user's, a channel's): a positive integer below 2⁶³, not a boolean."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < SNOWFLAKE_LIMIT:
        raise UserError(f"{what} must be a positive id.")
    return value
