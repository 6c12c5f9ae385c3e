"""The rule settings of a CL season as pydantic fields, and their conversion back.

The fields are generated from the one definition, `core.league.season.SeasonRules`, with its fields'
types, defaults, bounds and descriptions. The config's `[rules.cl]` and the season file's `rules`
thus cannot drift from it or from each other. A model's values are converted back to a `SeasonRules`
here too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any, get_type_hints
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field

from bot.formats.numbers import Count, Number, Printable
from core.league.season import SeasonRules, exact_percent, quoted, rule_settings

HHMM = r"^([01]\d|2[0-3]):[0-5]\d$"
"""A local time of day, HH:MM."""


def _describe(meta: Mapping[str, Any]) -> str:
    """A field's description: its rule, what it is, and its floor when it has one."""
    text = f"{meta['rule']}: {meta['doc']}"
    floor = meta["floor"]
    if floor is not None:
        text += f" (fixed floor {float(floor.lowest):g}: {floor.text})"
    return text


def _default(value: object) -> object:
    """A `SeasonRules` default as the file and the config write it."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dt.time):
        return value.strftime("%H:%M")
    return value


def rule_fields(
    *, leave_out: Collection[str] = (), day: Any = dt.date
) -> dict[str, tuple[Any, Any]]:
    """Every `SeasonRules` field but `leave_out` as a pydantic (type, field) pair, in the
    dataclass's order.

    Integers become `Count`, and reals and percentages `Number`. Lists of hours, HH:MM times, zones
    and dates are typed too. `day` is the date type a file validates with.
    """
    hints = get_type_hints(SeasonRules)
    found: dict[str, tuple[Any, Any]] = {}
    for item in rule_settings():
        if item.name in leave_out:
            continue
        meta = item.metadata
        hint = hints[item.name]
        bounds = {key: meta[key] for key in ("ge", "gt", "le") if meta[key] is not None}
        info: dict[str, Any] = {"description": _describe(meta)}
        default = _default(item.default)
        kind: Any
        if hint is int:
            kind = Count
        elif hint in (float, Fraction):
            kind = Number
        elif hint == tuple[int, ...]:
            kind, bounds = list[Count], {"max_length": meta["items"]} if meta["items"] else {}
        elif hint is dt.time:
            kind, bounds = str, {"pattern": HHMM}
        elif hint is str:
            kind, bounds = Printable, {"min_length": 1, "max_length": 64}
        elif hint == dt.date | None:
            kind = day | None
        else:  # a new kind of setting: say so here rather than guess its file form
            raise TypeError(f"SeasonRules.{item.name}: no file form for {hint!r}")
        found[item.name] = (kind, Field(default, **bounds, **info))  # a list is copied per model
    return found


def known_zone(value: str) -> str:
    """A start zone by CL-13 and CL-22: an IANA name the machine knows."""
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {quoted(value)} (use an IANA name)") from None
    return value


def season_rules(values: Mapping[str, Any], **given: Any) -> SeasonRules:
    """The `SeasonRules` a model's values stand for.

    Every field the model has is used, and `given` adds or replaces some, such as the config's zone.
    Lists become tuples, HH:MM a time, and a percentage is kept exact by `exact_percent`.
    """
    hints = get_type_hints(SeasonRules)
    converted: dict[str, Any] = {}
    for item in dataclasses.fields(SeasonRules):
        if item.name not in values:
            continue
        value, hint = values[item.name], hints[item.name]
        if hint == tuple[int, ...]:
            value = tuple(value)
        elif hint is dt.time:
            value = dt.time.fromisoformat(value)
        elif hint is Fraction:
            value = exact_percent(value)
        converted[item.name] = value
    return SeasonRules(**{**converted, **given})


def rule_values(rules: SeasonRules, *, leave_out: Collection[str] = ()) -> dict[str, Any]:
    """A `SeasonRules` as a model's values, every field but `leave_out`. This is the inverse of
    `season_rules`.
    """
    return {
        item.name: _default(getattr(rules, item.name))
        for item in dataclasses.fields(SeasonRules)
        if item.name not in leave_out
    }
