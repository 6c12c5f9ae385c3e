"""`arbiter schema NAME`: print the published JSON Schema of a file format, generated from its
models. The season format is the CL season file of docs/season-file.md, and the tour format the CCT
tour file of docs/tour-file.md.
"""

from __future__ import annotations

import argparse
import json
from importlib import import_module
from typing import Any

SCHEMAS: dict[str, str] = {
    "season": "bot.formats.season_file:season_schema",
    "tour": "bot.formats.tour_file:tour_schema",
}
"""Maps a format name to the function giving its published JSON Schema, imported when asked."""


def register(subparsers: Any) -> None:
    """Add the `schema` subcommand."""
    parser = subparsers.add_parser(
        "schema", help="print a file format's JSON Schema", description=__doc__
    )
    parser.add_argument("name", choices=sorted(SCHEMAS), help="which format")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema as indented JSON."""
    module, name = SCHEMAS[args.name].split(":")
    schema = getattr(import_module(module), name)()
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0
