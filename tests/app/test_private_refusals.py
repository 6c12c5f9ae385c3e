"""Refusals stay private (issue 20, item 3): every command of the tree, given an integer
option outside its domain or Discord's ±2⁵³ (SQLite's 2⁶³ and beyond included), a date
outside a sane window (year 9999, year 1), or text no name may hold (6000 characters, an
RTL override, invisibles), answers with one ephemeral line — no error id, no public
"thinking…" left behind, nothing written (not even an audit row).

The values are generated (hypothesis); every (command, option) pair is also tried once with
a fixed value, so no command is left out. `ARBITER_LONG_PROPERTIES=1` runs many more
examples."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.command_input import Whole
from bot.rendering.common import limits
from tests.support.command_world import (
    ADMINS,
    BOARDS_CSV,
    SEASON_FILE,
    CommandWorld,
    copy_world,
    dump,
    invoke,
    league_bot,
)
from tests.support.discord_harness import DiscordHarness, Member, Upload

LONG = bool(os.environ.get("ARBITER_LONG_PROPERTIES"))
EXAMPLES = 400 if LONG else 12

DATE_OPTIONS = {"first_round": "day", "as_of": "day", "start": "instant"}
"""The text options that hold a date (`day`) or a date and time (`instant`)."""
DAY_STARTS = {"event create"}
"""Commands whose `start` is a day (an event's first day), not a date and time."""
BAD_DAYS = ("9999-12-31", "0001-01-01", "1999-12-31", "2999-06-01", "10000-01-01")
BAD_INSTANTS = ("9999-12-31 23:59", "9999-12-31T23:00-05:00", "0001-01-01 00:00", "2999-01-01")
BAD_TEXTS = ("x" * limits.STRING_OPTION, "A\u202eB", "\ufeffCL 2017", "B\u2060", "\x00\x1b[2J")
"""Text no option may store: Discord's longest, a direction override, invisibles, controls."""


def _commands(harness: DiscordHarness) -> list[app_commands.Command[Any, ..., Any]]:
    tree = harness.bot.tree  # type: ignore[attr-defined]
    found = [c for c in tree.walk_commands() if isinstance(c, app_commands.Command)]
    return sorted(found, key=lambda c: c.qualified_name)


def _domain(parameter: app_commands.Parameter) -> tuple[int, int]:
    low = parameter.min_value if parameter.min_value is not None else -limits.INTEGER_OPTION
    high = parameter.max_value if parameter.max_value is not None else limits.INTEGER_OPTION
    return int(low), int(high)


def _targets(harness: DiscordHarness) -> list[tuple[str, str, str]]:
    """(command, option, kind) for every integer, date and free-text option of the tree
    (a name, a reason, the match as a key or number, a chess.com reference)."""
    targets = []
    for command in _commands(harness):
        for parameter in command.parameters:
            if parameter.type is discord.AppCommandOptionType.integer:
                targets.append((command.qualified_name, parameter.name, "integer"))
            elif parameter.name in DATE_OPTIONS:
                targets.append(
                    (command.qualified_name, parameter.name, DATE_OPTIONS[parameter.name])
                )
            elif parameter.type is discord.AppCommandOptionType.string and not parameter.choices:
                targets.append((command.qualified_name, parameter.name, "text"))
    return targets


def _filled(
    harness: DiscordHarness, user: Member, path: str, bad: str, value: object
) -> dict[str, Any]:
    """The command's required options with plausible values, and `bad` = `value`."""
    [command] = [c for c in _commands(harness) if c.qualified_name == path]
    plausible: dict[str, Any] = {
        "season": "Test season",
        "division": "P",
        "club": "A",
        "name": "Zed",
        "first_round": (dt.date.today() + dt.timedelta(days=60)).isoformat(),
        "start": "2026-04-08 18:00",
        "chesscom_match": "12803",
        "match": "1",
        "chesscom_club": "arsenal-fans",
        "player": "a1",
        "reason": "why",
        "next_season": "Next",
    }
    if path in DAY_STARTS:
        plausible["start"] = plausible["first_round"]
    options: dict[str, Any] = {}
    for parameter in command.parameters:
        if parameter.name == bad or not parameter.required:
            continue
        kind = parameter.type
        if parameter.choices:
            options[parameter.name] = parameter.choices[0].value
        elif kind is discord.AppCommandOptionType.integer:
            options[parameter.name] = 1
        elif kind is discord.AppCommandOptionType.user:
            options[parameter.name] = harness.member(user_id=ADMINS["B"][0], name="admin-b")
        elif kind is discord.AppCommandOptionType.channel:
            options[parameter.name] = harness.channel("general")
        elif kind is discord.AppCommandOptionType.role:
            options[parameter.name] = harness.role("HQ")
        elif kind is discord.AppCommandOptionType.attachment:
            json_file = path == "season import"
            options[parameter.name] = Upload(
                "season.json" if json_file else "boards.csv",
                SEASON_FILE if json_file else BOARDS_CSV,
            )
        else:
            options[parameter.name] = plausible.get(parameter.name, "x")
    if path == "vote open" and bad == "start":  # only a reschedule motion reads its start
        options.update(kind="reschedule", match="1")
    options[bad] = value
    return options


class Running(NamedTuple):
    """The bot of a test, its database file, the member who acts, and the file's dump before
    the first command (nothing may ever change it, so it is read once)."""

    harness: DiscordHarness
    path: Path
    user: Member
    before: list[str]


def _bad_integer(low: int, high: int) -> st.SearchStrategy[int]:
    """Integers outside `low`…`high`: just outside, far outside, past 2⁵³, 2⁶³ and 10³⁰."""
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from([low - 1, high + 1, 2**53 + 1, 2**63, 10**30, -(2**63) - 1]),
    )


@pytest.fixture
async def running(world_file: tuple[Path, CommandWorld], tmp_path: Path) -> AsyncIterator[Running]:
    """One bot on a copy of the world, a member who holds every role and administers club A
    (so no role check stops a command before its options are read), and the copy's dump as
    the bot found it: every refusal must leave the database equal to it."""
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        everything = harness.member(
            "HQ",
            "Director",
            "Arbiter",
            permissions=harness.MANAGE_SERVER,
            user_id=ADMINS["A"][0],
            name="admin-a",
        )
        yield Running(harness, path, everything, dump(path))


async def _refused_privately(running: Running, command: str, option: str, value: object) -> str:
    harness, path, user, before = running
    outcome = await invoke(harness, command, user, _filled(harness, user, command, option, value))
    where = f"/{command} {option}={value!r}"
    texts = [reply.text() for reply in outcome.replies if reply.type not in (5, 6)]
    assert len(texts) == 1, f"{where}: {outcome.replies}"
    assert all(reply.ephemeral for reply in outcome.replies), f"{where}: a public reply"
    [text] = texts
    assert text and "\n" not in text.strip(), f"{where}: {text!r}"
    assert "error id" not in text and "could not be completed" not in text, f"{where}: {text}"
    assert not outcome.posts, f"{where}: posted {outcome.posts}"
    assert dump(path) == before, f"{where}: the database changed"
    return text


async def test_every_integer_and_date_option_of_every_command_refuses_out_of_range_privately(
    running: Running,
) -> None:
    """Each (command, option) once with a value just past Discord's or SQLite's range (an
    integer) or in year 9999 (a date): one private line naming the option."""
    harness = running.harness
    targets = _targets(harness)
    assert {("match list", "round", "integer"), ("vote cast", "motion", "integer")} <= set(targets)
    assert ("season create", "first_round", "day") in targets
    assert {("match report", "match", "text"), ("roster remove", "note", "text")} <= set(targets)
    params = {(c.qualified_name, p.name): p for c in _commands(harness) for p in c.parameters}
    assert len(targets) >= 15, targets
    for command, option, kind in targets:
        if kind == "integer":
            low, high = _domain(params[command, option])
            for value in (2**63, low - 1, high + 1):
                text = await _refused_privately(running, command, option, value)
                assert option in text, text
        elif kind == "text":
            for bad in (BAD_TEXTS[0], BAD_TEXTS[1]):
                await _refused_privately(running, command, option, bad)
        else:
            bad = BAD_DAYS[0] if kind == "day" else BAD_INSTANTS[0]
            text = await _refused_privately(running, command, option, bad)
            assert "9999" in text, text


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_generated_out_of_range_values_are_refused_privately(
    running: Running, data: st.DataObject
) -> None:
    """Property: any out-of-range integer or out-of-window date, in any command's option,
    is one private line; nothing is written (the bot is shared by the examples: a write by
    one would show in the dump after it)."""
    harness = running.harness
    command, option, kind = data.draw(st.sampled_from(_targets(harness)))
    if kind == "integer":
        [parameter] = [
            p
            for c in _commands(harness)
            if c.qualified_name == command
            for p in c.parameters
            if p.name == option
        ]
        value: object = data.draw(_bad_integer(*_domain(parameter)))
    elif kind == "text":
        value = data.draw(st.sampled_from(BAD_TEXTS))
    else:
        value = data.draw(st.sampled_from(BAD_DAYS if kind == "day" else BAD_INSTANTS))
    await _refused_privately(running, command, option, value)


def test_every_integer_option_is_bounded_by_its_domain_and_discords_range() -> None:
    """An id option is 1…2⁵³ (Discord's largest integer), published and checked."""
    match = Whole("match")
    assert (match.min_value, match.max_value) == (1, 2**53)
