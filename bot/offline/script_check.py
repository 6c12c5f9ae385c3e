"""Checks a replay script against the real command tree before any step runs."""

from __future__ import annotations

from typing import Any

import discord

from bot.offline.discord_messages import Upload
from bot.offline.discord_stub import find_command
from bot.offline.script import (
    Autocomplete,
    Command,
    Script,
    ScriptError,
)


def check_against_tree(script: Script, tree: discord.app_commands.CommandTree) -> None:
    """Checks the script before any step runs, raising ScriptError naming the line.

    Every command, option and value must exist, have the option's type and be one of its choices if
    it has some, as Discord requires.
    """
    header = script.header
    members = {m.name for m in header.members}
    for step in script.steps:
        if not isinstance(step, Command | Autocomplete):
            continue
        try:
            _, command = find_command(tree, step.path)
        except LookupError:
            known = sorted(c.qualified_name for c in tree.walk_commands() if _is_command(c))
            raise ScriptError(
                step.line, f"no slash command /{step.path} (commands: {', '.join(known)})"
            ) from None
        params = {p.name: p for p in command.parameters}
        given = dict(step.options)
        if isinstance(step, Autocomplete):
            param = params.get(step.option)
            if param is None or not param.autocomplete:
                raise ScriptError(
                    step.line, f"/{step.path} has no option {step.option!r} with autocomplete"
                )
        else:
            missing = [name for name, p in params.items() if p.required and name not in given]
            if missing:
                raise ScriptError(step.line, f"/{step.path}: option {missing[0]!r} is required")
        for name, value in given.items():
            if name not in params:
                options = ", ".join(params) or "none"
                raise ScriptError(
                    step.line, f"/{step.path} has no option {name!r} (options: {options})"
                )
            problem = _value_problem(
                params[name].type, value, header.roles, header.channels, members
            )
            if problem:
                raise ScriptError(step.line, f"/{step.path} option {name!r}: {problem}")
            allowed = [choice.value for choice in params[name].choices]
            if allowed and value not in allowed:
                shown = ", ".join(str(a) for a in allowed)
                raise ScriptError(
                    step.line,
                    f"/{step.path} option {name!r}: {value!r} is not one of its choices ({shown})",
                )


def _is_command(node: Any) -> bool:
    return isinstance(node, discord.app_commands.Command)


def _value_problem(
    kind: discord.AppCommandOptionType,
    value: Any,
    roles: tuple[str, ...],
    channels: tuple[str, ...],
    members: set[str],
) -> str | None:
    """What is wrong with a script value for an option of type `kind`, if anything."""
    types = discord.AppCommandOptionType
    text = value if isinstance(value, str) else None
    if kind is types.role:
        if not (text and text.startswith("&") and text[1:] in roles):
            return f"expected &role, one of guild.roles, got {value!r}"
    elif kind is types.channel:
        if not (text and text.startswith("#") and text[1:] in channels):
            return f"expected #channel, one of guild.channels, got {value!r}"
    elif kind is types.user:
        if not (text and text.startswith("@") and text[1:] in members):
            return f"expected @member, one of the header's members, got {value!r}"
    elif kind is types.mentionable:
        if not (
            text
            and (
                (text.startswith("@") and text[1:] in members)
                or (text.startswith("&") and text[1:] in roles)
            )
        ):
            return f"expected @member or &role, got {value!r}"
    elif kind is types.attachment:
        if not isinstance(value, Upload):
            return 'expected a file: {"file": "name beside the script"}'
    elif kind is types.integer:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"expected a whole number, got {value!r}"
    elif kind is types.number:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return f"expected a number, got {value!r}"
    elif kind is types.boolean:
        if not isinstance(value, bool):
            return f"expected true or false, got {value!r}"
    elif not isinstance(value, str):
        return f"expected text, got {value!r}"
    return None
