"""`arbiter season import|export|list|standings|calendar`: a guild's CL seasons from the shell.

Only the arguments are set up here. The work with the database, adapters and rendering lives in
`bot.cli.handlers.season`, imported when a season command runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.cli.config_option import add_config_option
from bot.cli.parser import guild_option


def _lazy(name: str) -> Callable[[argparse.Namespace], int]:
    """The handler `name` of `bot.cli.handlers.season`, imported only when it runs."""

    def run(args: argparse.Namespace) -> int:
        from bot.cli.handlers import season as season_handlers

        handler: Callable[[argparse.Namespace], int] = getattr(season_handlers, name)
        return handler(args)

    return run


def register(subparsers: Any) -> None:
    """Add `season` with its import, export, list, standings and calendar subcommands."""
    parser = subparsers.add_parser("season", help="a guild's CL seasons in the database")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, help: str, handler: str) -> Any:
        sub = actions.add_parser(name, help=help, description=help)
        sub.add_argument("--guild", type=guild_option, required=True, metavar="ID", help="guild id")
        sub.add_argument(
            "--db",
            type=Path,
            metavar="PATH",
            help="the database file (default: database.path of the configuration), e.g. "
            "demo-out/arbiter.db",
        )
        add_config_option(sub)
        sub.set_defaults(handler=_lazy(handler))
        return sub

    imp = action("import", "store a season file in the database", "run_import")
    imp.add_argument("file", metavar="FILE.json", help="a season file (docs/season-file.md)")
    imp.add_argument("--name", help="the season's name in the guild (default: the file's)")
    imp.add_argument("--replace", action="store_true", help="overwrite a season of that name")
    exp = action("export", "write a stored season as a season file", "run_export")
    exp.add_argument("name", metavar="NAME", help="the season's name")
    exp.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here, not stdout")
    action("list", "list the guild's seasons", "run_list")
    std = action("standings", "CL standings of a stored season", "run_standings")
    std.add_argument("name", metavar="NAME", help="the season's name")
    std.add_argument("--as-of", metavar="YYYY-MM-DD", help="standings at the end of that day (UTC)")
    std.add_argument("--json", action="store_true", help="print JSON instead of a table")
    cal = action("calendar", "the season's matches as an iCalendar file", "run_calendar")
    cal.add_argument("name", metavar="NAME", help="the season's name")
    cal.add_argument("--club", metavar="CLUB", help="only this club's matches")
    cal.add_argument("-o", "--output", type=Path, metavar="FILE.ics", help="write here")
