"""The leaf commands of the real command tree, loaded once the way the bot loads it (for
the permission matrices, which must cover every command)."""

from __future__ import annotations

import asyncio
import functools
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from tests.support.command_world import config_for
from tests.support.discord_harness import DiscordHarness

W = TypeVar("W")
Options = Callable[[W, DiscordHarness], dict[str, Any]]
"""Valid options of a command in a test world `W` (and its harness)."""


@dataclass(frozen=True)
class Rule(Generic[W]):
    """Who may run a changing command, the words its refusal must hold, and valid options
    for it in a test world `W`."""

    allowed: frozenset[str]
    names: tuple[str, ...]
    options: Options[W]


def rule(
    allowed: set[str],
    names: tuple[str, ...],
    options: Callable[[W, DiscordHarness], dict[str, Any]],
) -> Rule[W]:
    """A `Rule` with `allowed` as a frozen set."""
    return Rule(frozenset(allowed), names, options)


TOUR_GROUPS = ("tour", "event", "game", "series", "finals", "incident", "appeal")
"""The tour's command groups (docs/tour.md)."""


def is_tour_command(name: str) -> bool:
    """Whether a tree command belongs to the tour."""
    return name.split()[0] in TOUR_GROUPS


@functools.cache
def tree_commands() -> tuple[str, ...]:
    """Every leaf command's qualified name, sorted."""

    async def walk(path: Path) -> list[str]:
        bot = ArbiterBot(config_for(path), run_jobs=False)
        async with bot:
            await bot.setup_hook()
            return sorted(
                c.qualified_name
                for c in bot.tree.walk_commands()
                if isinstance(c, app_commands.Command)
            )

    with tempfile.TemporaryDirectory() as folder:
        return tuple(asyncio.run(walk(Path(folder) / "tree.db")))
