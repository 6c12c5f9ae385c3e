"""`arbiter standings FILE.trf`: the standings of a round robin from any program's TRF-16
export, ranked by points and the CCT-8b tie-breaks (CORE-3); the file's own ranks are
ignored."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from core.tiebreaks import CCT_8B, DeReading

from .errors import CliError
from .input_file import input_path, read_input

if TYPE_CHECKING:  # core.points loads pydantic: imported when the command runs, not for --help
    from fractions import Fraction

    from core.results import Scoring
    from core.standings import Standing
    from core.trf import TrfTournament


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `standings` subcommand."""
    parser = subparsers.add_parser(
        "standings",
        help="rank a round robin from a TRF-16 file",
        description="Rank the players of a TRF-16 round robin by points, then direct "
        "encounter, wins, Sonneborn-Berger and Koya (CCT-8b). Ranks and points in the file "
        "are ignored and computed again.",
    )
    parser.add_argument("file", type=input_path, metavar="FILE.trf", help="a FIDE TRF-16 file")
    parser.add_argument(
        "--tiebreaks",
        choices=[reading.value for reading in DeReading],
        default=DeReading.CCT.value,
        help="direct-encounter reading: cct = once over the points group (default), "
        "fide2024 = re-applied to every sub-group still tied",
    )
    parser.add_argument(
        "--points",
        default="1,1/2,0",
        metavar="W,D,L",
        help="points for a win, a draw and a loss (default 1,0.5,0; e.g. 3,1,0)",
    )
    parser.add_argument(
        "--lots",
        metavar="SEED",
        help="break ties left after every criterion by a drawing of lots with this recorded "
        "seed (CORE-3; default: tied players share the rank)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=run)


def parse_scoring(text: str) -> Scoring:
    """Read `W,D,L` (e.g. `3,1,0` or `1,0.5,0`), each a multiple of ½ (CORE-5: exact
    scores); raise CliError for anything else."""
    from core.points import half_points
    from core.results import Scoring

    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3:
        raise CliError(f"--points needs three numbers W,D,L, not {text!r}")
    try:
        win, draw, loss = (half_points(part) for part in parts)
    except ValueError as error:
        raise CliError(f"--points {text!r}: {error}") from error
    if not win >= draw >= loss or win == loss:
        raise CliError(f"--points must have win >= draw >= loss and win > loss, not {text!r}")
    return Scoring(win, draw, loss)


def read_tournament(path: Path) -> TrfTournament:
    """Read and parse a TRF file; unreadable or malformed input is a CliError (exit 2)."""
    from core.trf import TrfError, parse_trf

    try:
        data = read_input(path)
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return parse_trf(text)
    except TrfError as error:
        raise CliError(f"{path}: {error}") from error


def _number(value: Fraction | int | None) -> int | float | None:
    from core.points import json_number

    return None if value is None else json_number(value)


def standings_json(rows: tuple[Standing, ...], names: dict[int, str], lots: bool = False) -> dict:
    """The JSON document: rows in rank order, tied players sharing a rank, JSON numbers;
    with a drawing of lots (`lots`), each row also tells whether the draw decided its rank."""
    from core.points import json_number

    document = {
        "standings": [
            {
                "rank": row.rank,
                "start_no": row.player,
                "name": names[row.player],  # type: ignore[index]
                "points": json_number(row.points),
                "tiebreaks": {
                    "DE": _number(row.de),
                    "WIN": row.wins,
                    "SB": json_number(row.sb),
                    "KS": json_number(row.ks),
                },
            }
            for row in rows
        ]
    }
    if lots:
        for entry, row in zip(document["standings"], rows, strict=True):
            entry["by_lot"] = row.by_lot
    return document


def _decimal(value: Fraction | None) -> str:
    """An exact score as text (`core.points.decimal_text`), `-` where there is none."""
    from core.points import decimal_text

    return "-" if value is None else decimal_text(value)


def standings_text(rows: tuple[Standing, ...], names: dict[int, str], title: str) -> str:
    """A readable table; a shared rank is marked `=`, a rank decided by lot `*`."""
    width = max([len("Name"), *(len(n) for n in names.values())])
    header = f"{'Rank':>4}  {'No':>3}  {'Name':<{width}}  {'Pts':>5}  {'DE':>5}  "
    header += f"{'WIN':>3}  {'SB':>7}  {'KS':>5}"
    lines = [title, header] if title else [header]
    for row in rows:
        rank = f"{row.rank}{'=' if row.tied else '*' if row.by_lot else ''}"
        lines.append(
            f"{rank:>4}  {row.player:>3}  {names[row.player]:<{width}}  "  # type: ignore[index]
            f"{_decimal(row.points):>5}  {_decimal(row.de):>5}  {row.wins:>3}  "
            f"{_decimal(row.sb):>7}  {_decimal(row.ks):>5}"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the standings of the TRF file (JSON with --json)."""
    from core.standings import standings
    from core.trf import games_and_byes

    scoring = parse_scoring(args.points)
    tournament = read_tournament(args.file)
    games, byes = games_and_byes(tournament)
    names = {p.start_no: p.name for p in tournament.players}
    reading = DeReading(args.tiebreaks)
    rows = standings(
        list(names), games, byes, scoring=scoring, reading=reading, lots_seed=args.lots
    )
    if args.json:
        print(json.dumps(standings_json(rows, names, lots=args.lots is not None)))
    else:
        order = ", ".join(f"DE ({reading.value})" if c == "DE" else c for c in CCT_8B)
        title = f"{tournament.name}\n" if tournament.name else ""
        print(standings_text(rows, names, f"{title}Order: {order}"))
    return 0
