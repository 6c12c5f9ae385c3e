"""`arbiter run`: start the bot (storage, cogs, scheduler, then connect to Discord)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bot.cli.config_option import add_config_option, config_from_args, require_token
from bot.cli.errors import CliError

if TYPE_CHECKING:  # discord.py and the bot are imported when `run` runs, not for --help
    from bot.app.arbiter import ArbiterBot


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `run`."""
    parser = subparsers.add_parser("run", help="start the bot (needs DISCORD_TOKEN)")
    add_config_option(parser)
    parser.set_defaults(handler=run)


async def _serve(bot: ArbiterBot, token: str) -> None:
    async with bot:
        # A database that cannot be opened or migrated fails here, before contacting Discord.
        try:
            await bot.open_database()
        except RuntimeError as error:  # e.g. a schema newer than this program
            raise CliError(f"cannot migrate {bot.config.database.path}: {error}", 1) from None
        await bot.start(token)


def run(args: argparse.Namespace) -> int:
    """Run the bot until interrupted."""
    import asyncio

    from bot.app.arbiter import ArbiterBot
    from bot.cli.discord_errors import reported_discord_failures
    from storage.database import DatabaseUnavailable
    from storage.ownership import DatabaseOwned

    config = config_from_args(args)
    token = require_token(config)
    configure_logging(config.log_level)
    try:
        with reported_discord_failures():
            asyncio.run(_serve(ArbiterBot(config), token))
    except DatabaseUnavailable as error:
        raise CliError(f"database.path: {error}", 2) from None
    except DatabaseOwned as error:
        raise CliError(str(error), 1) from None
    return 0


def configure_logging(level: str) -> None:
    """Arbiter's log lines at `level` on stderr (discord.py's format). discord.py's own INFO
    chatter (gateway sessions, shards) shows only with DEBUG; its warnings and errors always.
    Its voice warnings never: Arbiter has no voice (bot.app.arbiter silences them)."""
    import logging

    import discord

    discord.utils.setup_logging(level=logging.getLevelName(level), root=True)
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.WARNING, logging.getLevelName(level)))
