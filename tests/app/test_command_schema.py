"""Every slash command of every cog respects Discord's limits, checked offline on exactly the
payload a sync sends (`to_dict`); discord.py itself lets several of these through."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot, cog_names

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
MAX_OPTIONS = MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000


def _text_size(payload: dict[str, Any]) -> int:
    size = len(payload.get("name", "")) + len(payload.get("description", ""))
    for choice in payload.get("choices") or []:
        size += len(choice["name"]) + len(str(choice["value"]))
    return size + sum(_text_size(option) for option in payload.get("options") or [])


def _check_options(where: str, options: list[dict[str, Any]], depth: int) -> list[str]:
    problems = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: {len(options)} options (max {MAX_OPTIONS})")
    kinds = {option["type"] in (SUBCOMMAND, GROUP) for option in options}
    if len(kinds) > 1:
        problems.append(f"{where}: mixes subcommands with plain options")
    seen_optional = False
    for option in options:
        path = f"{where} {option['name']}"
        problems += _check_named(path, option)
        if option["type"] == GROUP and depth >= 1:
            problems.append(f"{path}: subcommand group nested too deep")
        if option["type"] in (SUBCOMMAND, GROUP):
            problems += _check_options(path, option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(f"{path}: required option after an optional one")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(f"{path}: {len(choices)} choices (max {MAX_CHOICES})")
        for choice in choices:
            if not 1 <= len(choice["name"]) <= 100:
                problems.append(f"{path}: choice name {choice['name']!r} not 1-100 chars")
            if isinstance(choice["value"], str) and len(choice["value"]) > 100:
                problems.append(f"{path}: choice value longer than 100 chars")
    return problems


def _check_named(where: str, payload: dict[str, Any]) -> list[str]:
    problems = []
    if not NAME.match(payload["name"]):
        problems.append(f"{where}: name {payload['name']!r} is not 1-32 lowercase [-_a-z0-9]")
    if not 1 <= len(payload.get("description", "")) <= 100:
        problems.append(
            f"{where}: description has {len(payload.get('description', ''))} chars (1-100)"
        )
    return problems


def schema_problems(payload: dict[str, Any]) -> list[str]:
    """Every way one command payload breaks Discord's limits (empty when it is fine)."""
    where = f"/{payload['name']}"
    if payload.get("type", 1) != 1:  # context menus: a name, no description
        return [] if 1 <= len(payload["name"]) <= 32 else [f"{where}: name not 1-32 chars"]
    problems = _check_named(where, payload)
    problems += _check_options(where, payload.get("options") or [], 0)
    if _text_size(payload) > MAX_COMMAND_CHARS:
        problems.append(f"{where}: more than {MAX_COMMAND_CHARS} characters of text in total")
    return problems


def test_every_cog_is_loaded(bot: ArbiterBot) -> None:
    modules = {cog.__module__ for cog in bot.cogs.values()}
    assert modules == set(cog_names())
    assert {"cogs.setup", "cogs.help"} <= modules


def test_every_command_respects_discord_limits(bot: ArbiterBot) -> None:
    payloads = [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    assert payloads, "no commands registered"
    assert len(payloads) <= 100
    names = [p["name"] for p in payloads]
    assert len(names) == len(set(names))
    problems = [problem for payload in payloads for problem in schema_problems(payload)]
    assert problems == []


def test_every_command_and_option_has_its_own_help_text(bot: ArbiterBot) -> None:
    for command in bot.tree.walk_commands():
        assert command.description and command.description != "…", command.qualified_name
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                assert parameter.description not in ("…", ""), (
                    f"/{command.qualified_name} option {parameter.name} has no description"
                )


def test_schema_check_catches_what_discord_refuses() -> None:
    @app_commands.command(name="bad", description="x" * 101)
    @app_commands.describe(first="ok", second="ok")
    @app_commands.choices(second=[app_commands.Choice(name=f"c{i}", value=i) for i in range(26)])
    async def bad(interaction: discord.Interaction, first: str = "", second: int = 0) -> None:
        pass

    payload = bad.to_dict(app_commands.CommandTree(discord.Client(intents=discord.Intents.none())))
    payload["options"][1]["required"] = True
    problems = schema_problems(payload)
    assert any("description has 101 chars" in p for p in problems)
    assert any("26 choices" in p for p in problems)
    assert any("required option after an optional one" in p for p in problems)
    assert schema_problems({"name": "Bad Name", "description": "d", "type": 1}) == [
        "/Bad Name: name 'Bad Name' is not 1-32 lowercase [-_a-z0-9]"
    ]
