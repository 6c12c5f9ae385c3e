"""`arbiter standings FILE.trf`: the standings of a round robin from any program's TRF export.

It reads TRF-16 or TRF-2026 and ranks by points and the CCT-8b tie-breaks of CORE-3. The file's own
ranks and points are ignored and computed again, and `--trf-out` writes them back.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import cast

from bot.formats.terminal import shown_text
from bot.rendering.common.standings_json import standings_json
from bot.rendering.common.standings_text import standings_text
from core.league.season import quoted
from core.points import half_points
from core.results import STANDARD, Scoring
from core.standings import PlayerStanding
from core.tiebreaks import CCT_8B, DeReading
from core.trf import TrfError, TrfTournament, decode_trf, parse_trf
from core.trf2026 import (
    MAX_GAME_POINTS,
    TrfScores,
    ignored_records,
    scored_standings,
    trf_scores,
)
from core.trf_writer import dump_trf

from .errors import CliError
from .input_file import input_path, read_input
from .output_file import write_output

MAX_POINTS = MAX_GAME_POINTS
"""The most a game may be worth with `--points`, as in record 162. Above is a typo."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `standings` subcommand."""
    parser = subparsers.add_parser(
        "standings",
        help="rank a round robin from a TRF-16 or TRF-2026 file",
        description="Rank the players of a TRF round robin by points, then direct "
        "encounter, wins, Sonneborn-Berger and Koya (CCT-8b). Ranks and points in the file "
        "are ignored and computed again.",
    )
    parser.add_argument(
        "file", type=input_path, metavar="FILE.trf", help="a FIDE TRF-16 or TRF-2026 file"
    )
    parser.add_argument(
        "--tiebreaks",
        choices=[reading.value for reading in DeReading],
        default=DeReading.CCT.value,
        help="direct-encounter reading: cct = once over the points group (default), "
        "fide2024 = re-applied to every sub-group still tied",
    )
    parser.add_argument(
        "--points",
        metavar="W,D,L",
        help="points for a win, a draw and a loss (default 1,0.5,0, or the file's record "
        "162; e.g. 3,1,0)",
    )
    parser.add_argument(
        "--lots",
        metavar="SEED",
        help="break ties left after every criterion by a drawing of lots with this recorded "
        "seed: any text, e.g. the draw's date, so the drawing can be replayed (CORE-3; "
        "default: tied players share the rank)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--trf-out",
        type=Path,
        metavar="OUT",
        help="also write the file to OUT with the computed points and ranks",
    )
    parser.set_defaults(handler=run)


def parse_scoring(text: str) -> Scoring:
    """Reads `W,D,L`, such as `3,1,0` or `1,0.5,0`, or raises CliError for anything else.

    By CORE-5 each must be a multiple of ½, from 0 to `MAX_POINTS`.
    """
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3:
        raise CliError(f"--points needs three numbers W,D,L, not {quoted(text)}")
    try:
        win, draw, loss = (half_points(part) for part in parts)
    except ValueError as error:
        raise CliError(f"--points {quoted(text)}: {error}") from error
    if min(win, draw, loss) < 0:
        raise CliError(f"--points {quoted(text)}: points cannot be negative")
    if max(win, draw, loss) > MAX_POINTS:
        raise CliError(f"--points {quoted(text)}: a game is worth at most {MAX_POINTS} points")
    if not win >= draw >= loss or win == loss:
        raise CliError(f"--points must have win >= draw >= loss and win > loss, not {quoted(text)}")
    return Scoring(win, draw, loss)


def parse_lots(seed: str | None) -> str | None:
    """The recorded seed of `--lots`. An empty one would be a drawing nobody can replay."""
    if seed is not None and not seed.strip():
        raise CliError("--lots needs a seed to record, not an empty string")
    return seed


def read_tournament(path: Path) -> TrfTournament:
    """Reads and parses a TRF file as UTF-8, else Windows-1252, else Latin-1.

    Unreadable or malformed input is a CliError with exit 2. A TRF message quotes names and text of
    the file, and its control characters are shown escaped by `shown_text`, as in the table.
    """
    try:
        return parse_trf(decode_trf(read_input(path)))
    except TrfError as error:
        raise CliError(shown_text(f"{path}: {error}")) from error


def read_scores(path: Path, tournament: TrfTournament, given: Scoring | None) -> TrfScores:
    """The file's scoring from records 162 and 299, or `--points`. Both at once is refused."""
    try:
        scores = trf_scores(tournament, given or STANDARD)
    except TrfError as error:
        raise CliError(shown_text(f"{path}: {error}")) from error
    if given is not None and scores.scoring_line:
        raise CliError(
            shown_text(
                f"--points cannot be used with {path}: line {scores.scoring_line} sets the "
                "scoring (record 162 or 299)"
            )
        )
    return scores


def write_trf(path: Path, tournament: TrfTournament, rows: tuple[PlayerStanding, ...]) -> None:
    """Writes the tournament with the computed points and ranks to `path` in UTF-8.

    Points the TRF columns cannot hold are refused with exit 2. A path that cannot be written fails
    with exit 1.
    """
    try:
        text = dump_trf(
            tournament,
            {cast(int, row.player): row.points for row in rows},  # TRF players: start numbers
            {cast(int, row.player): row.rank for row in rows},
        )
    except ValueError as error:
        raise CliError(shown_text(f"--trf-out {path}: {error}")) from error
    write_output(path, text.encode("utf-8"))


def run(args: argparse.Namespace) -> int:
    """Prints the standings of the TRF file, as JSON with --json, and notes the ignored records."""
    given = parse_scoring(args.points) if args.points is not None else None
    seed = parse_lots(args.lots)
    tournament = read_tournament(args.file)
    scores = read_scores(args.file, tournament, given)
    names = {p.start_no: p.name for p in tournament.players}
    reading = DeReading(args.tiebreaks)
    rows = scored_standings(tournament, scores, reading=reading, lots_seed=seed)
    if args.trf_out is not None:
        write_trf(args.trf_out, tournament, rows)
    for code, count in ignored_records(tournament):
        lines = f"{count} line{'' if count == 1 else 's'}"
        print(f"note: ignored record {code} ({lines})", file=sys.stderr)
    if args.json:
        print(json.dumps(standings_json(rows, names, lots=seed is not None)))
    else:
        order = ", ".join(f"DE ({reading.value})" if c == "DE" else c for c in CCT_8B)
        title = f"{shown_text(tournament.name)}\n" if tournament.name else ""
        print(standings_text(rows, names, f"{title}Order: {order}"))
    return 0
