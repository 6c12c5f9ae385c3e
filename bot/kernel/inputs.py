"""User text checked before a service stores or repeats it, through the one name gate in
`core.names`.

Text is trimmed, not empty, free of invisible and control characters, and of a bounded length, so a
hostile name never reaches the database or a message whole. chess.com usernames are checked as
chess.com spells them. Each refusal is one line naming what was wrong.
"""

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
    "web_slug",
]

SHOWN = 40
"""Characters of a bad value an error message repeats."""
SLUG_LENGTHS = (3, 40)
"""The shortest and the longest slug of a guild's public site."""
SLUG_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
SNOWFLAKE_LIMIT = 2**63
"""Discord ids of users, channels and roles are below 2⁶³, as SQLite's INTEGER is too."""


def shown(value: str) -> str:
    """A value as a `UserError` refusal quotes it: escaped, cut and marked.

    The mark makes Discord show it as typed, with no markdown, while the CLI prints it unchanged.
    """
    return quote_mark(repr(value[:SHOWN]) + ("…" if len(value) > SHOWN else ""))


def named(name: str) -> str:
    """A stored club, season or division name as a refusal names it: unchanged, but marked.

    The mark makes Discord show it as typed, so a name holding `_` or `*` is not markdown.
    """
    return quote_mark(name)


def clean_text(value: str, what: str, limit: int = NAME_LIMIT, *, required: bool = True) -> str:
    """`value` trimmed, or refused with one line saying why.

    It is refused when empty if required, too long, or holding an invisible or control character, as
    `core.names.text_problem` finds.
    """
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
    """A chess.com username as given, checked as every door checks it.

    It holds ASCII letters, digits, `_` and `-`, at most 50 characters. The doors are `/roster
    link`, boards CSVs and season files.
    """
    name = text.strip()
    problem = username_problem(name)
    if problem is not None:
        raise UserError(f"The chess.com username {shown(name)} {problem}.")
    return name


def positive_id(value: int, what: str) -> int:
    """A Discord id of a user or a channel: a positive integer below 2⁶³, not a boolean."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < SNOWFLAKE_LIMIT:
        raise UserError(f"{what} must be a positive id.")
    return value


def web_slug(text: str) -> str:
    """The public site's part of a guild's addresses, as in `/g/my-club/`, or one refusal.

    It holds 3 to 40 lower-case letters, digits and dashes, and neither starts nor ends with a dash,
    so it is safe in any address and never names a folder such as `..`.
    """
    slug = text.strip()
    shortest, longest = SLUG_LENGTHS
    rule = (
        f"a slug is {shortest} to {longest} lower-case letters, digits and dashes,"
        " such as `my-club`"
    )
    if not slug:
        raise UserError(f"Give the site a slug: {rule}.")
    if not shortest <= len(slug) <= longest:
        raise UserError(f"The slug {shown(slug)} has {len(slug)} characters: {rule}.")
    if slug.lower() != slug and set(slug.lower()) <= SLUG_CHARACTERS:
        raise UserError(f"The slug {shown(slug)} has capital letters: {rule}.")
    if not set(slug) <= SLUG_CHARACTERS:
        raise UserError(f"The slug {shown(slug)} holds other characters: {rule}.")
    if slug.startswith("-") or slug.endswith("-"):
        raise UserError(f"The slug {shown(slug)} starts or ends with a dash: {rule}.")
    return slug
