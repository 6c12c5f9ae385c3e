"""`arbiter web --db PATH`: serves the public web site of a database alone, read-only.

It shows a demo's database or a backup without a bot: the file is opened so that nothing can be
written to it, and nothing is migrated. A database of another schema version than this program's is
refused, older or newer. `arbiter run` serves the same site beside the bot when the configuration
has a `[web]` table, with `start_site`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.errors import CliError
from bot.cli.input_file import shown

if TYPE_CHECKING:  # aiohttp and the site are imported when the site starts, not for --help
    from aiohttp import web

    from bot.kernel.config import WebConfig
    from bot.league.store import StandingsCache
    from storage.engine.database import Database

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080
STOP_SIGNALS = ("SIGTERM", "SIGINT")
"""What stops `arbiter web` cleanly with exit 0: a service manager's stop, or Ctrl-C."""


def port_number(text: str) -> int:
    """`--port`: 1 to 65535, or 0 for any free port."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535; 0: any free one)")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `web`."""
    parser = subparsers.add_parser(
        "web",
        help="serve the public web site of a database alone, read-only (a demo's, a backup)",
        description=(
            "Serve the public web site of an Arbiter SQLite database without the bot: the pages "
            "of every server whose HQ turned its site on with /setup web. The file is opened "
            "read-only and nothing is migrated. Ctrl-C or SIGTERM stops it."
        ),
    )
    parser.add_argument(
        "--db", type=Path, required=True, metavar="PATH", help="the SQLite database file"
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, metavar="HOST", help=f"default {DEFAULT_HOST}"
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        metavar="PORT",
        help=f"default {DEFAULT_PORT}; 0 takes any free port",
    )
    parser.add_argument(
        "--base-url",
        default=None,
        metavar="URL",
        help="the public address the pages are reached at, such as https://arbiter.example.org",
    )
    parser.set_defaults(handler=run)


async def start_site(
    database: Database, standings: StandingsCache | None, settings: WebConfig
) -> web.AppRunner:
    """Starts serving the site of `database` where `settings` say, and returns its runner.

    `runner.cleanup()` stops it. A port that cannot be listened on raises `CliError`.
    """
    from aiohttp import web

    from bot.web.site import make_app

    app = make_app(
        database,
        standings,
        base_url=settings.base_url or "",
        requests_per_minute=settings.requests_per_minute,
    )
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.host, settings.port).start()
    except OSError as error:
        await runner.cleanup()
        where = f"{settings.host}:{settings.port}"
        raise CliError(
            f"cannot serve the web site on {where}: {error.strerror or error}", 1
        ) from None
    return runner


def served_at(runner: web.AppRunner) -> str:
    """The address the site listens on, such as `http://127.0.0.1:8080/`."""
    host, port = runner.addresses[0][:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


async def open_site_database(path: Path) -> Database:
    """The database at `path` opened read-only, once its schema is this program's.

    A missing file, a file that is not a database, and an older or newer schema raise `CliError`
    with exit 2.
    """
    from storage.engine.database import DatabaseUnavailable, SqliteDatabase
    from storage.engine.migrations import discover

    try:
        database = await SqliteDatabase.open_read_only(path)
    except DatabaseUnavailable as error:
        raise CliError(str(error), 2) from None
    version, known = await database.schema_version(), len(discover())
    if version == known:
        return database
    await database.close()
    if version == 0:
        raise CliError(f"--db {shown(path)}: not an Arbiter database (no schema version)", 2)
    if version > known:
        raise CliError(
            f"--db {shown(path)}: written by a newer Arbiter (schema version {version}, this"
            f" program knows {known}): serve it with that version",
            2,
        )
    raise CliError(
        f"--db {shown(path)}: its schema version {version} is older than this program's"
        f" ({known}), and this command changes nothing: `arbiter db migrate` or `arbiter run`"
        " brings it up to date (on a copy, to keep the file as it is)",
        2,
    )


async def _serve(args: argparse.Namespace, settings: WebConfig) -> None:
    """Serves until SIGTERM or Ctrl-C, then stops the site and closes the database."""
    import asyncio
    import signal
    import sys

    from bot.rendering.common.web_site import site_address
    from storage.shared.web_sites import published_guilds

    database = await open_site_database(args.db)
    try:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        runner = await start_site(database, None, settings)
        for name in STOP_SIGNALS:
            loop.add_signal_handler(getattr(signal, name), stop.set)
        try:
            address = served_at(runner)
            print(f"arbiter web: serving {shown(args.db)} read-only at {address} (Ctrl-C stops)")
            guilds = await published_guilds(database)
            base = settings.base_url or address.rstrip("/")
            for slug, _ in guilds:
                print(f"  {site_address(slug, base)}")
            if not guilds:
                print("  no server shows its site yet: its HQ turns it on with /setup web")
            sys.stdout.flush()
            await stop.wait()
        finally:
            for name in STOP_SIGNALS:
                loop.remove_signal_handler(getattr(signal, name))
            await runner.cleanup()
    finally:
        await database.close()


def run(args: argparse.Namespace) -> int:
    """Serves the site of `--db` until stopped."""
    import asyncio

    from pydantic import ValidationError

    from bot.kernel.config import WebConfig

    try:
        settings = WebConfig(host=args.host, port=args.port, base_url=args.base_url)
    except ValidationError as error:
        problem = error.errors()[0]
        option = "--" + str(problem["loc"][0]).replace("_", "-")
        raise CliError(f"{option}: {problem['msg'].removeprefix('Value error, ')}", 2) from None
    asyncio.run(_serve(args, settings))
    return 0
