"""The `arbiter` command line: one entry point whose subcommands live in sibling modules.

Every module in this package that defines `register(subparsers)` adds its subcommands, so a feature
adds a command by adding a module, without editing a central list. A subcommand sets `handler=` with
`set_defaults`, a callable that takes the parsed namespace and returns an exit code. It signals a
user error by raising `CliError`. Argument errors are one line too, through
`bot.cli.parser.ArgumentParser`, and exit 2.

Every module here is imported to build the parser, even for `arbiter --help`, so a module imports at
its top only what `register` needs. discord.py, aiohttp, aiosqlite, pydantic models and the bot are
imported inside the functions that run, as tests/cli/test_cli_imports.py checks.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from bot.cli.errors import CliError
from bot.cli.parser import ArgumentParser, one_line

__all__ = ["CliError", "build_parser", "main"]

MESSAGE_LIMIT = 1000
"""The longest refusal printed. Messages quote user text cut short already, so this is the net."""


def build_parser() -> argparse.ArgumentParser:
    """Build the `arbiter` parser with every subcommand found in this package."""
    parser = ArgumentParser(
        prog="arbiter",
        description="Arbiter: run chess club leagues and tours by their written regulations.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one `arbiter` subcommand and returns its exit code, 2 for usage and input errors."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # surface a closed pipe here, not at interpreter exit
        return code
    except CliError as error:
        # One line whatever the message holds (a file name with a newline, a problem quoting
        # text), named after the subcommand that failed (`arbiter season import: …`).
        print(f"{args.cli_prog}: {one_line(error.message, MESSAGE_LIMIT)}", file=sys.stderr)
        return error.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`arbiter league … | head`): stop quietly, as Unix tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
