"""`arbiter league FILE.json`: the CL standings (or the CL-8 promotion proposal) computed
from a season file, as a readable table or as season-file.md's JSON."""

from __future__ import annotations

import argparse
import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from bot.cli.errors import CliError
from bot.cli.input_file import shown
from bot.cli.season_file import read_season

if TYPE_CHECKING:  # imported when the command runs, not for `arbiter --help`
    from core.league import LeagueReport
    from core.league.promotion import Proposal


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


def register(subparsers: Any) -> None:
    """Add the `league` subcommand."""
    parser = subparsers.add_parser(
        "league",
        help="CL standings from a season file",
        description="Compute the CL standings (or the promotion proposal) from a season file.",
    )
    parser.add_argument("file", metavar="FILE.json", help="a season file (season-file.md)")
    parser.add_argument(
        "--as-of", type=_date, metavar="YYYY-MM-DD", help="standings at the end of that day (UTC)"
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


def _num(value: Any) -> str:
    from core.points import decimal_text

    return "" if value is None else decimal_text(value)


def render_table(report: LeagueReport) -> str:
    """The standings as aligned text: one table per division, then forfeits and players."""
    lines = [f"{report.season}" + (f" — as of {report.as_of}" if report.as_of else "")]
    header = ("Rk", "Club", "P", "W", "D", "L", "MP", "GP", "SB", "DE")
    for name, table in report.divisions:
        rows: list[tuple[str, ...]] = [header]
        for s in table:
            rank = "DQ" if s.disqualified else f"{s.rank}{'=' if s.tied else ''}"
            rows.append(
                (
                    rank,
                    s.club,
                    *(str(n) for n in (s.played, s.won, s.drawn, s.lost)),
                    *(_num(v) for v in (s.match_points, s.game_points, s.sb, s.de)),
                )
            )
        widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
        lines += ["", name]
        for row in rows:
            cells = [
                cell.ljust(w) if i == 1 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
    if report.champion:
        lines += ["", f"Every match decided. Champion (CL-16): {report.champion}"]
    if report.forfeits:
        lines += ["", "Forfeits:"]
        lines += [f"  {b.match}: {b.club} ({b.rule})" for b in report.forfeits]
    if report.disqualified:
        lines += ["", "Disqualified:"]
        lines += [f"  {q.club} ({q.rule})" for q in report.disqualified]
    if report.multi_team_players:
        lines += ["", "Multi-team players (CL-18):"]
        lines += [
            f"  {p.player}: home club {p.home_club}, {p.other_matches} matches elsewhere"
            for p in report.multi_team_players
        ]
    if report.adjusted_players:
        lines += ["", "Adjusted players (CL-ADJ):"]
        lines += [f"  {player} ({rule})" for player, rule in report.adjusted_players]
    return "\n".join(lines)


def proposal_json(report: LeagueReport, proposal: Proposal) -> dict[str, Any]:
    """The CL-8 proposal as JSON: next season's divisions, the moves and the withdrawals."""
    return {
        "season": report.season,
        "as_of": report.as_of.isoformat() if report.as_of else None,
        "divisions": [{"name": n, "clubs": list(clubs)} for n, clubs in proposal.divisions],
        "moves": [
            {"club": m.club, "from": m.from_division, "to": m.to_division} for m in proposal.moves
        ],
        "withdrawn": list(proposal.withdrawn),
    }


def render_proposal(report: LeagueReport, proposal: Proposal) -> str:
    """The CL-8 proposal as text."""
    when = f"as of {report.as_of}" if report.as_of else "on the current standings"
    lines = [f"{report.season}: promotion / relegation proposal ({when}), for a director vote"]
    for name, clubs in proposal.divisions:
        lines += ["", f"{name} ({len(clubs)} clubs)"] + [f"  {c}" for c in clubs]
    lines += ["", "Moves:"] + [
        f"  {m.club}: {m.from_division} → {m.to_division}" for m in proposal.moves
    ]
    if proposal.withdrawn:
        lines += ["", "Withdrawn:"] + [f"  {c}" for c in proposal.withdrawn]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Read the season, compute, print; bad files fail with exit 2 (CliError)."""
    if args.withdraw and not args.promotion:
        raise CliError("--withdraw only applies to the --promotion proposal")
    from core.league import league_report, promotion_proposal, report_json

    season = read_season(args.file)
    as_of = args.as_of
    if args.promotion and as_of is None:
        as_of = season.rules.divisions_cutoff
    now = None if as_of else dt.datetime.now(dt.UTC)
    report = league_report(season, as_of=as_of, now=now)
    if args.promotion:
        known = season.club_division()
        unknown = [c for c in args.withdraw if c not in known]
        if unknown:
            raise CliError(f"--withdraw: unknown club {shown(unknown[0])!r}")
        proposal = promotion_proposal(
            report.divisions,
            season.rules.promotion_places,
            [*season.withdrawn, *args.withdraw],
        )
        if args.json:
            print(json.dumps(proposal_json(report, proposal), indent=2, ensure_ascii=False))
        else:
            print(render_proposal(report, proposal))
        return 0
    if args.json:
        print(json.dumps(report_json(report), indent=2, ensure_ascii=False))
    else:
        print(render_table(report))
    return 0
