"""pydantic's validation problems in plain words, for every file Arbiter reads.

The config and season files say `must be at least 1`, `must be a whole number` or `unknown key`
under the key each is about, rather than pydantic's `Input should be greater than or equal to 1`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.formats.rule_fields import HHMM
from core.league.season import quoted

PATTERNS = {HHMM: "must be a time of day as HH:MM (00:00 to 23:59)"}
"""What the regular expressions of Arbiter's files mean, in words."""


def plain(problem: Any, patterns: Mapping[str, str] | None = None, table: str | None = None) -> str:
    """One pydantic problem in plain words, such as `must be at least 1`.

    pydantic's own words would be `Input should be greater than or equal to 1` or `String should
    match pattern '^…$'`. `patterns` says in words what each regular expression of the model means.
    `table` names a TOML table where one was expected, such as `[chesscom]`.
    """
    kind, ctx, given = problem["type"], problem.get("ctx") or {}, problem.get("input")
    shown = f", not {quoted(given)}" if isinstance(given, str) else ""
    if kind == "extra_forbidden":
        return "unknown key"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        where = f"[{table}] " if table else ""
        return f"should be a table ({where}with its keys), not a single value"
    if kind == "json_invalid":
        return f"not JSON: {ctx.get('error', 'cannot be read')}"
    if kind == "missing":
        return "is required"
    bounds = {
        "greater_than": ("must be more than", "gt"),
        "greater_than_equal": ("must be at least", "ge"),
        "less_than": ("must be less than", "lt"),
        "less_than_equal": ("must be at most", "le"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        bound = ctx.get(key)
        if bound is None:
            return "is out of range"
        return f"{words} {bound:g}" if isinstance(bound, float) else f"{words} {bound}"
    if kind == "string_pattern_mismatch":
        meaning = {**PATTERNS, **(patterns or {})}.get(ctx.get("pattern", ""))
        return (meaning or "is not in the expected form") + shown
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "")
        return f"must be one of {expected}{shown}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    if kind in ("float_type", "float_parsing"):
        return "must be a number"
    if kind in ("bool_type", "bool_parsing"):
        return "must be true or false"
    if kind == "string_type":
        return "must be text (in quotes)"
    if kind in ("list_type", "tuple_type"):
        return "must be a list ([…])"
    if kind in ("string_too_long", "too_long"):
        unit = "characters" if kind == "string_too_long" else "items"
        return f"must have at most {ctx.get('max_length')} {unit}"
    if kind in ("string_too_short", "too_short"):
        unit = "characters" if kind == "string_too_short" else "items"
        return f"must have at least {ctx.get('min_length')} {unit}"
    if kind == "enum":
        expected = str(ctx.get("expected", "")).replace("'", "")
        return f"must be one of {expected}{shown}"
    if kind in ("value_error", "assertion_error"):  # our own checks, already in plain words
        return str(problem["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return "is not a value this file accepts"


def unknown_first(problems: Sequence[Any]) -> list[Any]:
    """pydantic's problems with every unknown key first, the rest in their order.

    A typo'd key is what makes the key it meant missing.
    """
    return sorted(problems, key=lambda problem: problem["type"] != "extra_forbidden")


def suggestion(problem: Any, problems: Sequence[Any]) -> str:
    """` — did you mean `divisions`?` for an unknown key close to a key missing from the same
    object, or nothing."""
    if problem["type"] != "extra_forbidden" or not problem["loc"]:
        return ""
    parent, key = tuple(problem["loc"][:-1]), str(problem["loc"][-1])
    missing = [
        str(other["loc"][-1])
        for other in problems
        if other["type"] == "missing" and tuple(other["loc"][:-1]) == parent and other["loc"]
    ]
    close = difflib.get_close_matches(key, missing, n=1)
    return f" — did you mean `{close[0]}`?" if close else ""
