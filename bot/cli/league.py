"""`arbiter league FILE.json`: the CL standings or the CL-8 promotion proposal, computed from a
season file.

It prints a readable table, or the JSON of docs/season-file.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
from typing import TYPE_CHECKING, Any

from bot.cli.errors import CliError
from bot.cli.season_file import read_season
from core.league.season import quoted

if TYPE_CHECKING:
    from core.league.report import LeagueReport


def as_of_date(text: str) -> dt.date:
    """`--as-of`: a calendar date written YYYY-MM-DD.

    20171030, which Python also reads, is refused with one line as a CliError with exit 2.
    """
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            raise ValueError(text)
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CliError(f"--as-of: {quoted(text)} is not a date (YYYY-MM-DD)") from None


def register(subparsers: Any) -> None:
    """Add the `league` subcommand."""
    parser = subparsers.add_parser(
        "league",
        help="CL standings from a season file",
        description="Compute the CL standings (or the promotion proposal) from a season file.",
    )
    parser.add_argument("file", metavar="FILE.json", help="a season file (docs/season-file.md)")
    parser.add_argument(
        "--as-of", metavar="YYYY-MM-DD", help="standings at the end of that day (UTC)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--promotion", action="store_true", help="print the promotion / relegation proposal"
    )
    parser.add_argument(
        "--withdraw",
        action="append",
        default=[],
        metavar="CLUB",
        help="a club not continuing next season (repeatable; adds to the file's `withdrawn`)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Reads the season, computes and prints. Bad files fail with a CliError and exit 2."""
    if args.withdraw and not args.promotion:
        raise CliError("--withdraw only applies to the --promotion proposal")
    from bot.rendering.league.report_json import proposal_json
    from bot.rendering.league.report_text import proposal_text
    from core.league import league_report, promotion_proposal

    as_of = None if args.as_of is None else as_of_date(args.as_of)
    season = read_season(args.file)
    if args.promotion and as_of is None:
        as_of = season.rules.divisions_cutoff
    now = None if as_of else dt.datetime.now(dt.UTC)
    report = league_report(season, as_of=as_of, now=now)
    if args.promotion:
        known = season.club_division()
        unknown = [c for c in args.withdraw if c not in known]
        if unknown:
            raise CliError(f"--withdraw: unknown club {quoted(unknown[0])}")
        proposal = promotion_proposal(
            report.divisions,
            season.rules.promotion_places,
            [*season.withdrawn, *args.withdraw],
        )
        if args.json:
            print(json.dumps(proposal_json(report, proposal), indent=2, ensure_ascii=False))
        else:
            print(proposal_text(report, proposal))
        return 0
    print_report(report, args.json)
    return 0


def print_report(report: LeagueReport, as_json: bool) -> None:
    """Prints the league report as JSON, or else as the text tables."""
    from bot.rendering.league.report_json import report_json
    from bot.rendering.league.report_text import report_text

    if as_json:
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print(report_text(report))
