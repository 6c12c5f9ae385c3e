"""One poll of the open pairings, by CCT-7 and `core.tour.game_search`.

It reads the fetch plan from chess.com and lichess and searches each pairing among the games read.
It only reads and never writes: a job calls this in its fetch step and records what was found in its
unit of work. A request that fails leaves every watch that needed it unsearched this poll, with the
reason. Such a failure is an outage, a 5xx after the client's retries, or an unknown username. An
outage never yields a result, and never "no game".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.chesscom.client import ChessComClient
from bot.chesscom.games import site_games as chesscom_games
from bot.lichess import games as lichess_games
from bot.lichess.client import LichessClient
from bot.runtime.polite_http import ApiError
from bot.sites.fetch_plan import ArchiveRequest, SiteRequest, Watch, plan_fetch
from core.tour.game_search import GameSearch, Site, SiteGame, find_games


@dataclass(frozen=True, slots=True)
class Poll:
    """What one poll found.

    It holds a search per watch read completely, by its index in the watches given, and why the
    others that needed a failed request were not searched. It also holds the watches the budget left
    for the next poll, and how many requests were made.
    """

    searches: dict[int, GameSearch]
    failures: dict[int, str]
    deferred: tuple[int, ...]
    requests: int


async def read_request(
    request: SiteRequest, chesscom: ChessComClient | None, lichess: LichessClient | None
) -> list[SiteGame]:
    """The games one request reads, as site games. Raises ApiError or ValueError when it cannot."""
    if isinstance(request, ArchiveRequest):
        if chesscom is None:
            raise ValueError("chess.com is not read: no contact is configured")
        archive = await chesscom.player_games(request.username, request.year, request.month)
        return chesscom_games(archive.games)
    if lichess is None:
        raise ValueError("lichess is not read: no contact is configured")
    exported = await lichess.user_games(
        request.username, vs=request.vs, since=request.since, until=request.until
    )
    return lichess_games.site_games(exported)


async def poll(
    watches: Sequence[Watch],
    now: datetime,
    *,
    chesscom: ChessComClient | None,
    lichess: LichessClient | None,
    taken: Iterable[tuple[Site, str]] = (),
    taken_if: Callable[[SiteGame], bool] | None = None,
    budget: int | None = None,
) -> Poll:
    """Plans the poll with `plan_fetch`, makes its requests one after the other, and searches the
    watches.

    Every watch whose requests all succeeded is searched, in the order given. A game found for one
    watch is taken for the later ones. So are the `taken` keys, and the games read for which
    `taken_if` says so, such as a game already counted and known by its URL.
    """
    plan = plan_fetch(watches, now, budget)
    read: dict[SiteRequest, list[SiteGame]] = {}
    failed: dict[SiteRequest, str] = {}
    for request in plan.requests:
        try:
            read[request] = await read_request(request, chesscom, lichess)
        except (ApiError, ValueError) as error:
            failed[request] = str(error)
    failures: dict[int, str] = {}
    searched: list[int] = []
    for index in sorted(plan.reads):
        problems = [failed[request] for request in plan.reads[index] if request in failed]
        if problems:
            failures[index] = problems[0]
        else:
            searched.append(index)
    taken = set(taken)
    if taken_if is not None:
        taken |= {g.key for games in read.values() for g in games if taken_if(g)}
    found = find_games(
        [
            (watches[index].query, [g for r in plan.reads[index] for g in read[r]])
            for index in searched
        ],
        taken,
    )
    return Poll(
        dict(zip(searched, found, strict=True)), failures, plan.deferred, len(plan.requests)
    )
