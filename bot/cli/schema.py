"""`arbiter schema NAME`: print the published JSON Schema of a file format, generated from
its models (season: the CL season file of season-file.md; tour: the CCT tour file of
tour-file.md)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.formats.tour_file import TourFile
from core.season import Season

SCHEMAS: dict[str, Any] = {"season": Season, "tour": TourFile}
"""Format name → the pydantic model whose JSON Schema is published."""


def register(subparsers: Any) -> None:
    """Add the `schema` subcommand."""
    parser = subparsers.add_parser(
        "schema", help="print a file format's JSON Schema", description=__doc__
    )
    parser.add_argument("name", choices=sorted(SCHEMAS), help="which format")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema as indented JSON."""
    print(json.dumps(SCHEMAS[args.name].model_json_schema(), indent=2, ensure_ascii=False))
    return 0
