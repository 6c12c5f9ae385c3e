"""`arbiter berger N [--double] [--json]`: prints the FIDE Berger pairing table by CORE-1."""

from __future__ import annotations

import argparse
import json
from typing import Any

from core.berger import MAX_PLAYERS, MIN_PLAYERS, BergerTable, pairing_table
from core.league.season import quoted

from .errors import CliError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `berger` subcommand."""
    parser = subparsers.add_parser(
        "berger",
        help="print the Berger round-robin pairing table",
        description=(
            f"Print the FIDE Berger table for {MIN_PLAYERS}-{MAX_PLAYERS} players "
            "(pairing numbers, White first; with an odd count one player per round has no game)."
        ),
    )
    parser.add_argument("players", type=player_count, metavar="N", help="number of players")
    parser.add_argument(
        "--double", action="store_true", help="double round robin (second cycle colours reversed)"
    )
    parser.add_argument(
        "--no-swap",
        dest="swap",
        action="store_false",
        help="with --double, keep the first cycle's last two rounds in table order "
        "(by default they are swapped, as FIDE recommends)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def player_count(text: str) -> int:
    """N: a whole number in ASCII digits. int() would also take '٤' or '1_0'."""
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of players")
    return int(text)


def table_json(table: BergerTable) -> dict[str, Any]:
    """The table as `{"rounds": [[[white, black], ...], ...], "byes": [n or null, ...]}`."""
    return {
        "rounds": [[[p.white, p.black] for p in boards] for boards in table.rounds],
        "byes": list(table.byes),
    }


def table_text(table: BergerTable) -> str:
    """The table as one line per round: `Rd 1: 1-6, 2-5, 3-4` plus the player without a game."""
    width = len(str(len(table.rounds)))
    lines = []
    for number, (boards, bye) in enumerate(zip(table.rounds, table.byes, strict=True), start=1):
        games = ", ".join(f"{p.white}-{p.black}" for p in boards)
        lines.append(f"Rd {number:>{width}}: {games}" + (f"  (no game: {bye})" if bye else ""))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Prints the table asked for. An unsupported player count is a usage error with exit 2."""
    if not args.swap and not args.double:
        raise CliError("--no-swap only applies to a double round robin (--double)")
    try:
        table = pairing_table(args.players, double=args.double, swap_last_two=args.swap)
    except ValueError as error:
        raise CliError(str(error)) from error
    print(json.dumps(table_json(table)) if args.json else table_text(table))
    return 0
