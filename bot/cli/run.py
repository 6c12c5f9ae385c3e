"""`arbiter run`: starts the bot with its storage, cogs and scheduler, then connects to Discord.

With a `[web]` table in the configuration it serves the public web site beside the bot.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bot.cli.config_option import add_config_option, config_from_args, require_token
from bot.cli.errors import CliError

if TYPE_CHECKING:  # discord.py and the bot are imported when `run` runs, not for --help
    from aiohttp import web

    from bot.app.arbiter import ArbiterBot
    from bot.kernel.config import Config
    from storage.engine.shards import Shards


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `run`."""
    parser = subparsers.add_parser("run", help="start the bot (needs DISCORD_TOKEN)")
    add_config_option(parser)
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="run only these shards of the application (e.g. 0-3, or 0,2,5), beside other"
        " processes running the others on the same PostgreSQL database (needs --shard-count)",
    )
    parser.add_argument(
        "--shard-count",
        metavar="N",
        type=int,
        help="how many shards the application has in all, the same in every shard process",
    )
    parser.set_defaults(handler=run)


STOP_SIGNALS = ("SIGTERM", "SIGINT")
"""What stops `arbiter run` cleanly with exit 0: a service manager's stop, or Ctrl-C."""
START_GRACE_SECONDS = 5.0
"""How long `bot.start()` may take to return once the bot is closed."""


async def _serve(bot: ArbiterBot, token: str) -> None:
    """Runs the bot until Discord ends it or a stop signal arrives.

    Either way it waits for the whole close of the scheduler, outbox, gateway, database and
    ownership before returning, since `asyncio.run` cancels whatever is still running once this
    returns.
    """
    import asyncio
    import signal

    from storage.engine.locations import shown

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for name in STOP_SIGNALS:
        loop.add_signal_handler(getattr(signal, name), stop.set)
    try:
        async with bot:
            # A database that cannot be opened or migrated fails here, before contacting
            # Discord.
            try:
                await bot.open_database()
            except RuntimeError as error:  # e.g. a schema newer than this program
                where = shown(bot.config.database.location)
                raise CliError(f"cannot migrate {where}: {error}", 1) from None
            site = await _start_site(bot)
            running = asyncio.create_task(bot.start(token), name="arbiter run")
            stopping = asyncio.create_task(stop.wait(), name="arbiter stop signal")
            try:
                await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                stopping.cancel()
                if site is not None:  # no page is read from a database being closed
                    await site.cleanup()
                if not running.done():  # stopped: close, then let start() return
                    await bot.close()
                    await asyncio.wait({running}, timeout=START_GRACE_SECONDS)
                    running.cancel()  # still dialling a gateway that does not answer
                await bot.close()  # or wait for a close discord.py began
            if not running.cancelled():
                running.result()  # why Discord refused or ended the connection, if it did
    finally:
        for name in STOP_SIGNALS:
            loop.remove_signal_handler(getattr(signal, name))


async def _start_site(bot: ArbiterBot) -> web.AppRunner | None:
    """The public web site beside the bot, on its database and standings cache, when the
    configuration has a `[web]` table."""
    import logging

    from bot.cli.web import served_at, start_site

    settings = bot.config.web
    if settings is None:
        return None
    runner = await start_site(bot.database, bot.standings, settings)
    logging.getLogger("bot.web").info("web site at %s", served_at(runner))
    return runner


def run(args: argparse.Namespace) -> int:
    """Run the bot until interrupted."""
    import asyncio

    from bot.app.arbiter import ArbiterBot
    from bot.cli.discord_errors import reported_discord_failures
    from storage.engine.database import DatabaseUnavailable
    from storage.shared.ownership import DatabaseOwned

    config = config_from_args(args)
    shards = shards_from_args(args, config)
    token = require_token(config)
    configure_logging(config.log_level)
    try:
        with reported_discord_failures():
            asyncio.run(_serve(ArbiterBot(config, shards=shards), token))
    except DatabaseUnavailable as error:
        raise CliError(f"{config.database.key}: {error}", 2) from None
    except DatabaseOwned as error:
        raise CliError(str(error), 1) from None
    return 0


def shards_from_args(args: argparse.Namespace, config: Config) -> Shards | None:
    """The shards `--shards` and `--shard-count` name, or None for every shard in one process.

    A bad pair raises a `CliError` with exit 2, and so does sharding on SQLite, whose file one bot
    owns alone.
    """
    from storage.engine.postgresql import is_postgres_url
    from storage.engine.shards import Shards

    if args.shards is None and args.shard_count is None:
        return None
    if args.shards is None or args.shard_count is None:
        raise CliError("--shards and --shard-count go together (e.g. --shards 0-3 --shard-count 8)")
    if not is_postgres_url(config.database.location):
        raise CliError(
            "shard processes need PostgreSQL: one bot owns a SQLite database alone. Set"
            ' [database] url = "postgresql://…" in the configuration, or run without --shards'
        )
    try:
        return Shards.parse(args.shards, args.shard_count)
    except ValueError as error:
        raise CliError(str(error)) from None


def configure_logging(level: str) -> None:
    """Arbiter's log lines at `level` on stderr, in discord.py's format.

    discord.py's own INFO chatter about gateway sessions and shards shows only with DEBUG, and its
    warnings and errors always. Its voice warnings never show, since Arbiter has no voice and
    bot.app.arbiter silences them. Colours show only on a terminal.
    """
    import logging
    import os
    import sys

    import discord

    numeric = logging.getLevelName(level)
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        discord.utils.setup_logging(level=numeric, root=True)
    else:
        # discord.py colours its lines whenever it guesses a container. A file or a pipe, such
        # as a service's journal, gets plain text.
        plain = logging.Formatter(
            "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
        )
        discord.utils.setup_logging(level=numeric, formatter=plain, root=True)
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.WARNING, logging.getLevelName(level)))
