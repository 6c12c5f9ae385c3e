"""`arbiter sync [--guild ID]`: publishes the slash commands to Discord, which is never done on
start.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bot.cli.config_option import add_config_option, config_from_args, require_token
from bot.cli.parser import guild_option

if TYPE_CHECKING:  # discord.py and the bot are imported when `sync` runs, not for --help
    from bot.kernel.config import Config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `sync`."""
    parser = subparsers.add_parser(
        "sync",
        help="publish the slash commands to Discord",
        description="Publish the slash commands globally (may take up to an hour to show) "
        "or to one guild (instant; default: sync_guild from the configuration).",
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--guild", type=guild_option, metavar="ID", help="sync to this guild only")
    target.add_argument(
        "--global",
        dest="everywhere",
        action="store_true",
        help="sync globally even if sync_guild is configured",
    )
    add_config_option(parser)
    parser.set_defaults(handler=sync)


async def sync_commands(config: Config, token: str, guild_id: int | None) -> list[str]:
    """Logs in over HTTP only, loads the command tree and syncs it, returning the names synced."""
    import discord

    from bot.app.arbiter import offline_bot

    bot = await offline_bot(config)
    async with bot:
        await bot.login(token)
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        synced = await bot.tree.sync(guild=guild)
    return sorted(command.name for command in synced)


def sync(args: argparse.Namespace) -> int:
    """Sync and report what was published where."""
    import asyncio

    from bot.cli.discord_errors import reported_discord_failures

    config = config_from_args(args)
    token = require_token(config)
    guild_id = None if args.everywhere else (args.guild or config.sync_guild)
    with reported_discord_failures():
        names = asyncio.run(sync_commands(config, token, guild_id))
    where = f"guild {guild_id}" if guild_id else "all guilds (global; may take up to an hour)"
    print(f"synced {len(names)} command(s) to {where}: {', '.join(names)}")
    return 0
