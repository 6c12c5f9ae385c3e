"""`arbiter demo [--seed N] [--out DIR]` plays a whole generated CL season through the real bot
offline.

It needs no token and no network, and then prints the standings, champion and promotion proposal.
`arbiter demo --tour` plays a whole generated CCT tour the same way, then prints its tour standings,
the Finals table and what the bot did on its own.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.cli.errors import CliError
from bot.cli.input_file import shown
from core.league.season import quoted

MAX_SEED = 2**31 - 1
LEAGUE_OUT = "demo-out"
"""The league demo's folder when no --out is given."""
TOUR_OUT = "demo-tour-out"
"""The tour demo's folder when no --out is given, apart from the league's so both can be kept."""


def seed_number(text: str) -> int:
    """`--seed`: a whole number 0 … 2³¹−1."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and {MAX_SEED}")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `demo` subcommand."""
    parser = subparsers.add_parser(
        "demo",
        help="play a whole generated league season through the real bot, offline",
        description=(
            "Generate a CL season from a seed (three divisions of 13 clubs, their chess.com "
            "accounts and matches, and events that exercise the rules), play it through the "
            "real bot as a replay script (no token, no network), then print the standings, "
            "the champion and the promotion proposal, and write the season file, images, "
            "calendar, script and transcript to --out."
        ),
    )
    parser.add_argument("--seed", type=seed_number, default=1, metavar="N", help="default 1")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help=(
            f"where to write (a new or empty folder; default ./{LEAGUE_OUT}, "
            f"./{TOUR_OUT} with --tour)"
        ),
    )
    parser.add_argument(
        "--clubs",
        type=int,
        choices=range(4, 14),
        default=None,
        metavar="N",
        help="clubs per division, 4-13 (default 13, CL-12; fewer for a quick look)",
    )
    parser.add_argument(
        "--tour",
        action="store_true",
        help="play a CCT tour instead: two Regulars and a Major of 8, then a 10-player Finals",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Refuses a non-empty --out with exit 2, then plays and prints the summary.

    An --out that cannot be written fails with exit 1.
    """
    out: Path = args.out or Path(TOUR_OUT if args.tour else LEAGUE_OUT)
    if args.tour and args.clubs is not None:
        raise CliError("--clubs goes with a league season, not with --tour", 2)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(
            f"--out {shown(out)}: exists and is not an empty folder "
            "(remove it, or give another folder with --out)",
            2,
        )
    if args.tour:
        return _tour(args.seed, out)
    from bot.offline.demo.run import play, summary
    from bot.offline.expectations import ReplayFailure
    from bot.offline.script import ScriptError

    try:
        result = play(args.seed, out, clubs=13 if args.clubs is None else args.clubs)
    except ReplayFailure as failure:
        raise CliError(f"the season's script failed: {failure}", 1) from None
    except ScriptError as error:
        raise CliError(f"the season's script does not fit this bot: {error}", 1) from None
    except OSError as error:  # --out could not be made or written: a runtime failure
        where = shown(error.filename) if isinstance(error.filename, str) else shown(out)
        raise CliError(f"cannot write {where}: {error.strerror or error}", 1) from None
    print(summary(result))
    return 0


def _tour(seed: int, out: Path) -> int:
    """`--tour`: play the seed's tour and print its report and summary."""
    from bot.offline.demo.tour_run import play_tour, summary
    from bot.offline.expectations import ReplayFailure
    from bot.offline.script import ScriptError

    try:
        result = play_tour(seed, out)
    except ReplayFailure as failure:
        raise CliError(f"the tour's script failed: {failure}", 1) from None
    except ScriptError as error:
        raise CliError(f"the tour's script does not fit this bot: {error}", 1) from None
    except OSError as error:
        where = shown(error.filename) if isinstance(error.filename, str) else shown(out)
        raise CliError(f"cannot write {where}: {error.strerror or error}", 1) from None
    print(summary(result))
    return 0
