"""`arbiter chesscom …`: shows what the bot reads from chess.com about a match, a club or a player.

Settings come from the `[chesscom]` section of the configuration given by `--config`, where the
environment variables `ARBITER_CHESSCOM_URL` and `ARBITER_CHESSCOM_CONTACT` override the file.
`--base-url`, `--contact`, `--timeout` and `--retries` override both for one call. Network failures
and unknown ids print one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.kernel.request_limits import MAX_RETRIES, MAX_TIMEOUT_SECONDS
from core.league.season import quoted

if TYPE_CHECKING:  # aiohttp and the client are imported when a command runs, not for --help
    from bot.chesscom.client import ChessComClient, ClientSettings
    from bot.chesscom.facts import MatchFacts
    from bot.kernel.config import ChessComConfig

NOT_FOUND_EXIT = 1
NETWORK_EXIT = 1


def timeout_option(text: str) -> float:
    """`--timeout SECONDS`: a finite number of seconds, above 0 and at most
    MAX_TIMEOUT_SECONDS, the limit of chesscom.timeout_seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 < value <= MAX_TIMEOUT_SECONDS:
        raise argparse.ArgumentTypeError(
            f"{quoted(text)}: must be a number of seconds above 0 and at most "
            f"{MAX_TIMEOUT_SECONDS:g}"
        )
    return value


MAX_NAME = 100
"""Longest username or club url-id accepted. chess.com's are far shorter."""


def _printable(text: str, what: str) -> str:
    if not all(c.isprintable() for c in text):
        raise argparse.ArgumentTypeError(f"control characters in the {what}")
    return text


def check_match_id(text: str) -> str:
    """Returns the digits of a team match id or of a chess.com match URL.

    It takes what `/match challenge` takes, such as `https://www.chess.com/club/matches/1234567`.
    """
    from bot.kernel.errors import UserError
    from bot.league.matches.service import chesscom_match_id

    try:
        return str(chesscom_match_id(text))
    except UserError as error:
        raise CliError(error.message.rstrip(".") + " (digits, or a chess.com match URL)") from None


def name_option(text: str) -> str:
    """A username or club url-id: not empty, printable, at most MAX_NAME characters."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the name is empty")
    if len(text) > MAX_NAME:
        raise argparse.ArgumentTypeError(f"longer than {MAX_NAME} characters: {quoted(text)}")
    return _printable(text, "name")


def player_option(text: str) -> str:
    """A chess.com username, checked before any request as `/roster link` checks it."""
    from bot.kernel.errors import UserError
    from bot.kernel.inputs import chesscom_username

    name = name_option(text)
    try:
        return chesscom_username(name)
    except UserError as error:
        raise argparse.ArgumentTypeError(error.message.rstrip(".")) from None


def base_url_option(text: str) -> str:
    """`--base-url`: an http or https URL with a host. Empty means the configured one."""
    if not text:
        return text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not an http(s) URL with a host")
    return _printable(text, "URL")


def contact_option(text: str) -> str:
    """`--contact`: one printable line for the User-Agent. Empty means the configured one."""
    if len(text) > 200:
        raise argparse.ArgumentTypeError("longer than 200 characters")
    return _printable(text, "contact")


def retries_option(text: str) -> int:
    """`--retries N`: a whole number from 0 to MAX_RETRIES."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None
    if not 0 <= value <= MAX_RETRIES:
        raise argparse.ArgumentTypeError(f"{quoted(text)}: must be from 0 to {MAX_RETRIES}")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `chesscom match|club|player` to the `arbiter` command line."""
    common = argparse.ArgumentParser(add_help=False)
    add_config_option(common)
    common.add_argument(
        "--base-url", type=base_url_option, help="API base URL (default: chesscom.base_url)"
    )
    common.add_argument(
        "--contact",
        type=contact_option,
        help="contact for the User-Agent (default: chesscom.contact)",
    )
    common.add_argument(
        "--timeout",
        type=timeout_option,
        metavar="SECONDS",
        help=f"seconds per request, at most {MAX_TIMEOUT_SECONDS}"
        " (default: chesscom.timeout_seconds)",
    )
    common.add_argument(
        "--retries",
        type=retries_option,
        metavar="N",
        help=f"retries on 429 / 5xx / network, 0-{MAX_RETRIES} (default: chesscom.max_retries)",
    )
    common.add_argument("--json", action="store_true", help="print JSON")

    parser = subparsers.add_parser(
        "chesscom",
        help="show what the bot reads from chess.com",
        description="Read a team match, a club or a player from the chess.com API.",
    )
    commands = parser.add_subparsers(dest="chesscom_command", metavar="WHAT", required=True)

    match = commands.add_parser(
        "match", parents=[common], help="a team match as a season-file match"
    )
    match.add_argument("id", metavar="ID|URL", help="chess.com team match id or URL")
    match.add_argument("--live", action="store_true", help="a live (not daily) team match")
    match.set_defaults(handler=_handler(_show_match))

    club = commands.add_parser(
        "club", parents=[common], help="a club's member count, average rating, admins"
    )
    club.add_argument("url_id", type=name_option, help="the club's url-id, e.g. team-romania")
    club.add_argument(
        "--from-members",
        action="store_true",
        help="compute the average daily rating from every member (one request each)",
    )
    club.set_defaults(handler=_handler(_show_club))

    player = commands.add_parser(
        "player", parents=[common], help="a player's status and daily timeout percentage"
    )
    player.add_argument("name", type=player_option, help="chess.com username")
    player.set_defaults(handler=_handler(_show_player))


Show = Callable[["ChessComClient", argparse.Namespace], Awaitable[str]]


def _handler(show: Show) -> Callable[[argparse.Namespace], int]:
    """Wrap an async command: build the client, run it, turn failures into `CliError`s."""

    def handle(args: argparse.Namespace) -> int:
        import asyncio

        if args.chesscom_command == "match":
            args.id = check_match_id(args.id)

        from bot.chesscom.facts import FactsError
        from bot.runtime.polite_http import ApiError, ApiNotFound

        settings = cli_settings(args, config_from_args(args).chesscom)
        try:
            text = asyncio.run(_run(show, settings, args))
        except ApiNotFound as error:
            raise CliError(f"not found: {error.message} ({error.url})", NOT_FOUND_EXIT) from error
        except ApiError as error:
            raise CliError(f"chess.com: {error.message} ({error.url})", NETWORK_EXIT) from error
        except FactsError as error:
            raise CliError(str(error), 1) from error
        except ValueError as error:
            raise CliError(str(error), 2) from error
        print(text)
        return 0

    return handle


async def _run(show: Show, settings: ClientSettings, args: argparse.Namespace) -> str:
    from bot.chesscom.client import ChessComClient

    async with ChessComClient(settings) as client:
        return await show(client, args)


def cli_settings(args: argparse.Namespace, configured: ChessComConfig) -> ClientSettings:
    """Client settings: the options where given, else the configuration's `[chesscom]`."""
    from bot.chesscom.client import ClientSettings
    from bot.kernel.config import CHESSCOM_CONTACT_ENV

    contact = (args.contact or configured.contact).strip()
    if not contact:
        raise CliError(
            "no contact for the User-Agent: set chesscom.contact in the configuration, "
            f"{CHESSCOM_CONTACT_ENV}, or pass --contact (chess.com refuses requests without one)"
        )
    timeout = configured.timeout_seconds if args.timeout is None else args.timeout
    retries = configured.max_retries if args.retries is None else args.retries
    if not (math.isfinite(timeout) and 0 < timeout <= MAX_TIMEOUT_SECONDS):
        # only a configured value gets here (the option is checked when parsed): name the key
        raise CliError(
            f"chesscom.timeout_seconds: {timeout!r} is not a number of seconds above 0 "
            f"and at most {MAX_TIMEOUT_SECONDS:g}"
        )
    if retries < 0:
        raise CliError("--retries must not be negative")
    return ClientSettings(
        contact=contact,
        base_url=args.base_url or configured.base_url,
        timeout_seconds=timeout,
        max_retries=retries,
    )


async def _show_match(client: ChessComClient, args: argparse.Namespace) -> str:
    from bot.chesscom.facts import Placement
    from bot.chesscom.reader import read_match

    observed = datetime.now(UTC)
    facts = await read_match(client, args.id, Placement(), observed_at=observed, live=args.live)
    if args.json:
        return json.dumps(match_json(facts), indent=2)
    return match_text(facts, args.id)


def match_json(facts: MatchFacts) -> dict[str, Any]:
    """The facts as JSON. `match` is a season-file match, and the rest uses season-file names."""
    return {
        "status": facts.status,
        "match": facts.match.model_dump(mode="json") if facts.match else None,
        "players": {club: list(names) for club, names in facts.players.items()},
        "closed_accounts": list(facts.closed_accounts),
        "fair_play": list(facts.fair_play),
        "fair_play_removals": {c: list(n) for c, n in facts.fair_play_removals.items()},
        "board_numbers": list(facts.board_numbers),
        "running_boards": list(facts.running_boards),
        "unpaired_boards": {str(n): why for n, why in facts.unpaired_boards.items()},
    }


def match_text(facts: MatchFacts, match_id: str) -> str:
    """The facts as a few readable lines."""
    from core.points import decimal_text

    match = facts.match
    lines = [f"chess.com match {match_id}: {facts.status}"]
    if match is None:
        lines.append("no start time yet")
    else:
        lines.append(f"{match.home} (home) vs {match.away} (away)")
        lines.append(f"start {_instant(match.start)}")
        if match.finished:
            lines.append(f"finished {_instant(match.finished)}")
        if match.challenge:
            accepted = (
                f"accepted no later than {_instant(match.challenge.accepted)}"
                if match.challenge.accepted
                else "not known to be accepted"
            )
            lines.append(
                f"challenge issued by {match.challenge.issued_by} "
                f"no later than {_instant(match.challenge.issued)}, {accepted}"
            )
        home = sum(board.home_points for board in match.boards)
        away = sum(board.away_points for board in match.boards)
        lines.append(
            f"{len(match.boards)} finished boards, {len(facts.running_boards)} running: "
            f"{match.home} {decimal_text(home)} - {decimal_text(away)} {match.away}"
        )
        for number, board in zip(facts.board_numbers, match.boards, strict=True):
            lines.append(
                f"  {number:>3}. {board.home_player} {decimal_text(board.home_points)}"
                f" - {decimal_text(board.away_points)} {board.away_player}"
            )
        for number, why in facts.unpaired_boards.items():
            lines.append(f"  {number:>3}. left out: {why}")
    for club, names in facts.players.items():
        lines.append(f"{club}: {len(names)} players")
    lines.append(f"closed accounts (CL-19): {_names(facts.closed_accounts)}")
    lines.append(f"fair play: {_names(facts.fair_play)}")
    return "\n".join(lines)


async def _show_club(client: ChessComClient, args: argparse.Namespace) -> str:
    from bot.chesscom.reader import RatingSource, read_club_at_start

    source = RatingSource.MEMBERS if args.from_members else RatingSource.PROFILE
    profile, facts = await read_club_at_start(client, args.url_id, source)
    average = None if facts.avg_rating is None else round(facts.avg_rating, 2)
    if args.json:
        return json.dumps(
            {
                "club": profile.url_id or args.url_id,
                "name": profile.name,
                "members": facts.members,
                "avg_rating": average,
                "rating_source": source.value,
                "admins": profile.admins,
            },
            indent=2,
        )
    return "\n".join(
        [
            f"{profile.name} ({profile.url_id or args.url_id})",
            f"members: {_unknown(facts.members)}",
            f"average daily rating: {_unknown(average)} (from the {source.value})",
            f"admins: {_names(profile.admins)}",
        ]
    )


async def _show_player(client: ChessComClient, args: argparse.Namespace) -> str:
    profile = await client.player(args.name)
    stats = await client.player_stats(args.name)
    timeout = stats.daily_timeout_percent
    name = profile.username or args.name
    if args.json:
        return json.dumps(
            {
                "player": name,
                "status": profile.status,
                "closed": profile.is_closed,
                "daily_timeout_percent": timeout,
            },
            indent=2,
        )
    closed = " (closed account, CL-19)" if profile.is_closed else ""
    daily = "no daily games" if timeout is None else f"{timeout:g} %"
    return f"{name}: {_unknown(profile.status)}{closed}\ndaily timeout: {daily}"


def _instant(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _names(names: tuple[str, ...] | list[str]) -> str:
    return f"{len(names)}: {', '.join(names)}" if names else "none"


def _unknown(value: object) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
