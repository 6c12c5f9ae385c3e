"""`arbiter tour FILE.json`: a CCT tour from a tour file — every event's placings and tour
points, the tour standings, the Finals qualification and the Finals table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.cli.file_problems import invalid_file
from bot.cli.input_file import input_path, read_input, shown
from bot.formats.tour_file import TourFileError, parse_tour
from bot.rendering.tour_json import tour_json
from bot.rendering.tour_text import tour_text
from core.league.season import quoted
from core.tour.finals import FinalsError
from core.tour.ranking import TourError
from core.tour.report import tour_report


def register(subparsers: Any) -> None:
    """Add the `tour` subcommand."""
    parser = subparsers.add_parser(
        "tour",
        help="CCT tour standings from a tour file",
        description="Compute every event's placings and tour points, the tour standings, the "
        "Finals qualification and the Finals table from a tour file (tour-file.md).",
    )
    parser.add_argument("file", type=input_path, metavar="FILE.json", help="a tour file")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--after", metavar="EVENT", help="the standings as after that event (no Finals)"
    )
    add_config_option(parser)
    parser.set_defaults(handler=run)


def read_capped(path: Path) -> bytes:
    """A file the tour names, read within the input cap (a device such as /dev/zero is
    refused, not read into memory); a refusal is a ValueError for the JSON path's message."""
    try:
        return read_input(path)
    except CliError as error:
        raise ValueError(error.message) from None


def run(args: argparse.Namespace) -> int:
    """Read, compute, print; a bad file or --after fails with exit 2 naming the JSON path."""
    config = config_from_args(args)
    try:
        text = read_input(args.file).decode("utf-8-sig")  # a BOM is not JSON
    except UnicodeDecodeError:
        raise CliError(f"{shown(args.file)}: not UTF-8 text") from None
    try:
        tour, tables = parse_tour(text, args.file.parent, read_capped)
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
