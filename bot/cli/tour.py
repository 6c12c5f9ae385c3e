"""`arbiter tour FILE.json` and `arbiter tour export`: a CCT tour from or to a tour file.

`arbiter tour FILE.json` computes every event's placings and tour points, the tour standings, the
Finals qualification and the Finals table. `arbiter tour export TOUR --guild ID [--db PATH] [-o
FILE]` writes a guild's stored tour as that file, as `/tour export` gives it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.cli.file_problems import invalid_file
from bot.cli.input_file import input_path, read_input, shown
from bot.cli.parser import guild_option
from core.league.season import quoted


def register(subparsers: Any) -> None:
    """Add the `tour` subcommand."""
    parser = subparsers.add_parser(
        "tour",
        help="CCT tour standings from a tour file",
        description="Compute every event's placings and tour points, the tour standings, the "
        "Finals qualification and the Finals table from a tour file (docs/tour-file.md).",
    )
    parser.add_argument(
        "file", type=input_path, metavar="FILE.json", help="a tour file (or: export TOUR)"
    )
    parser.add_argument("tour", nargs="?", metavar="TOUR", help="with export: the tour's name")
    parser.add_argument(
        "--guild", type=guild_option, metavar="ID", help="with export: the guild id"
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="with export: the database file (default: database.path of the configuration), "
        "e.g. demo-tour-out/arbiter.db",
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="with export: write here, not stdout"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--after", metavar="EVENT", help="the standings as after that event (no Finals)"
    )
    add_config_option(parser)
    parser.set_defaults(handler=run)


def read_capped(path: Path) -> bytes:
    """A file the tour names, read within the input cap.

    A device such as /dev/zero is refused rather than read into memory. A refusal is a ValueError
    carrying the JSON path's message.
    """
    try:
        return read_input(path)
    except CliError as error:
        raise ValueError(error.message) from None


EXPORT = Path("export")


def run(args: argparse.Namespace) -> int:
    """Reads, computes and prints. A bad file or --after fails with exit 2 naming the JSON path.

    `export TOUR --guild ID` writes a stored tour instead.
    """
    if args.file == EXPORT and args.tour is not None:
        return run_export(args)
    given_options = (
        (args.tour, "TOUR"),
        (args.guild, "--guild"),
        (args.db, "--db"),
        (args.output, "-o"),
    )
    for given, option in given_options:
        if given is not None:
            raise CliError(f"{option} goes with `arbiter tour export TOUR --guild ID`")
    # imported here, not for every `arbiter` command (the tour file reader is a heavy import)
    from bot.formats.tour_file import TourFileError, parse_tour
    from bot.rendering.tour.report_json import tour_json
    from bot.rendering.tour.report_text import tour_text
    from core.tour.finals import FinalsError
    from core.tour.ranking import TourError
    from core.tour.report import tour_report

    config = config_from_args(args)
    try:
        text = read_input(args.file).decode("utf-8-sig")  # a BOM is not JSON
    except UnicodeDecodeError:
        raise CliError(f"{shown(args.file)}: not UTF-8 text") from None
    try:
        tour, tables = parse_tour(
            text, args.file.parent, read_capped, config.rules.cct.finals_players
        )
    except TourFileError as error:
        raise invalid_file(args.file, "tour", error.problems) from None
    if args.after is not None and args.after not in {e.name for e in tour.events}:
        raise CliError(f"--after: no event named {quoted(args.after)} in {shown(args.file)}")
    try:
        report = tour_report(tour, args.after, tables, config.rules.cct.finals_players)
    except (TourError, FinalsError) as error:
        raise CliError(f"{shown(args.file)}: {error}") from None
    if args.json:
        print(json.dumps(tour_json(report), indent=2, ensure_ascii=False))
    else:
        print(tour_text(report))
    return 0


def run_export(args: argparse.Namespace) -> int:
    """`arbiter tour export TOUR --guild ID`: the tour file of a stored tour, on stdout or in `-o
    FILE`.

    It is the file `/tour export` writes.
    """
    if args.guild is None:
        raise CliError("export needs --guild ID (the guild the tour belongs to)")
    if args.after is not None or args.json:
        raise CliError("--after and --json go with a tour file, not with export")
    from bot.cli.handlers.tour import export_tour

    export_tour(args)
    return 0
