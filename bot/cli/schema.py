"""`arbiter schema NAME`: print the published JSON Schema of a file format, generated from
its models (season: the CL season file of season-file.md; tour: the CCT tour file of
tour-file.md)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from bot.formats.season_file import season_schema
from bot.formats.tour_file import TourFile

SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "season": season_schema,
    "tour": lambda: TourFile.model_json_schema(),
}
"""Format name → the function giving its published JSON Schema (generated from its models)."""


def register(subparsers: Any) -> None:
    """Add the `schema` subcommand."""
    parser = subparsers.add_parser(
        "schema", help="print a file format's JSON Schema", description=__doc__
    )
    parser.add_argument("name", choices=sorted(SCHEMAS), help="which format")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema as indented JSON."""
    print(json.dumps(SCHEMAS[args.name](), indent=2, ensure_ascii=False))
    return 0
