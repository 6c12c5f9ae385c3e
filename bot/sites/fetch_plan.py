"""Which requests one poll of the open pairings makes to chess.com and lichess.

It is pure, so the cost of a poll is known before any request, and it makes at most one request per
pairing.

chess.com has no per-opponent search. A player's games come by month from
`/pub/player/{name}/games/{YYYY}/{MM}`, holding every game they finished that month, and either
player's archive holds the game. So for each pairing the plan reads every month its window touches
up to now, from one of the two players. It chooses the player whose archive also serves the most
other pairings, so a player in several open pairings is read once. lichess's export filters by
opponent and time with `/api/games/user/{name}?vs=…&since=…&until=…`. That is one request per pair
of players and window, started `EARLY_START` before the window so a game begun a little early is
seen. The search keeps only games that ended in the window.

A poll makes at most `budget` requests, by default one per pairing. A pairing whose needs do not fit
is `deferred` and searched on the next poll, where pairings read longest ago go first. It is never
searched on part of its games, since a month not read could hold a second candidate.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.tour.game_search import GameQuery, Site

EARLY_START = timedelta(hours=2)
"""The lichess export starts this long before the window, for a game begun early that ended in
it.
"""


@dataclass(frozen=True, slots=True, order=True)
class ArchiveRequest:
    """chess.com: a player's monthly archive, with the username casefolded since chess.com
    ignores case.
    """

    username: str
    year: int
    month: int


@dataclass(frozen=True, slots=True, order=True)
class ExportRequest:
    """lichess: one player's finished games against another, created in [since, until]."""

    username: str
    vs: str
    since: datetime
    until: datetime


SiteRequest = ArchiveRequest | ExportRequest


@dataclass(frozen=True, slots=True)
class Watch:
    """One open pairing watched on one site.

    It holds the caller's `pairing` id, what is searched, and when this pairing was last read
    completely, None for never. The oldest go first.
    """

    pairing: Hashable
    query: GameQuery
    last_read: datetime | None = None


@dataclass(frozen=True, slots=True)
class FetchPlan:
    """One poll: the requests to make in order, the requests each watch needs, and the watches left.

    For each watch searched this poll, by its index in the watches given, it lists the requests its
    games come from. The watches left for the next poll are those the budget did not cover. A watch
    whose round has not begun is in neither.
    """

    requests: tuple[SiteRequest, ...]
    reads: dict[int, tuple[SiteRequest, ...]]
    deferred: tuple[int, ...]

    def per_pairing(self, pairings: int) -> float:
        """Requests per pairing of this poll."""
        return len(self.requests) / pairings if pairings else 0.0


def months(start: datetime, end: datetime) -> list[tuple[int, int]]:
    """The year and month of every UTC month that `[start, end]` touches, in order."""
    first, last = (start.year, start.month), (end.year, end.month)
    found = []
    year, month = first
    while (year, month) <= last:
        found.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return found


def _needs(watch: Watch, now: datetime) -> list[list[SiteRequest]]:
    """What one watch needs read, each need with the requests that would serve it."""
    query = watch.query
    if now < query.start:
        return []  # the round has not begun: nothing can have been played yet
    first, second = sorted((query.first.casefold(), query.second.casefold()))
    if query.site is Site.LICHESS:
        since = query.start - EARLY_START
        return [[ExportRequest(first, second, since, query.end)]]
    last = min(query.end - timedelta(microseconds=1), now)  # the window holds not its end
    return [
        [ArchiveRequest(first, year, month), ArchiveRequest(second, year, month)]
        for year, month in months(query.start, last)
    ]


def plan_fetch(watches: Sequence[Watch], now: datetime, budget: int | None = None) -> FetchPlan:
    """The requests of one poll of `watches` at `now`, within `budget` requests.

    Each watch's needs are served, sharing chess.com archives between pairings. Watches go in the
    order of `last_read`: never read first, then oldest, with ties in the order given. The budget
    defaults to one request per distinct pairing. A watch whose needs would go over the budget is
    deferred whole.
    """
    if budget is None:
        budget = len({watch.pairing for watch in watches})
    needs = [_needs(watch, now) for watch in watches]
    demand: dict[SiteRequest, int] = {}
    for options_list in needs:
        for options in options_list:
            for request in options:
                demand[request] = demand.get(request, 0) + 1
    order = sorted(
        range(len(watches)),
        key=lambda i: (watches[i].last_read is not None, watches[i].last_read or now, i),
    )
    chosen: dict[SiteRequest, None] = {}
    reads: dict[int, tuple[SiteRequest, ...]] = {}
    deferred: list[int] = []
    for index in order:
        if not needs[index]:
            continue
        picks: list[SiteRequest] = []
        for options in needs[index]:
            shared = [request for request in options if request in chosen or request in picks]
            if shared:
                picks.append(shared[0])
            else:  # the option that also serves the most other needs, the first on a tie
                picks.append(max(options, key=lambda request: demand[request]))
        new = [request for request in dict.fromkeys(picks) if request not in chosen]
        if len(chosen) + len(new) > budget:
            deferred.append(index)
            continue
        for request in new:
            chosen[request] = None
        reads[index] = tuple(dict.fromkeys(picks))
    return FetchPlan(tuple(chosen), reads, tuple(sorted(deferred)))
