"""`/standings` and `/crosstable` as a read use case.

It gives a season's divisions, or the one named, as views of the cached standings report, for the
embed, image, CSV or crosstable to render.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.league.references import find_division, find_season
from bot.league.store import StandingsCache
from bot.rendering.league.division_view import DivisionView, Fixture, SeasonContext, division_view
from core.league import end_of_day
from core.league.season import Season
from storage.guild import GuildStore


@dataclass(frozen=True)
class SeasonViews:
    """The season's name, the views of the divisions asked for in the season's order, and their
    date.

    The date is None for as at now, which is also used when the date asked for is not over.
    """

    season: str
    divisions: tuple[DivisionView, ...]
    as_of: dt.date | None = None


async def standings_views(
    store: GuildStore,
    standings: StandingsCache,
    season: str | int,
    division: str | int | None = None,
    as_of: dt.date | None = None,
    ready: Callable[[], Awaitable[None]] | None = None,
) -> SeasonViews:
    """The views of every division of the season `season` names, or of the division `division`
    names.

    Only this guild's season is found. The views are as at the end of `as_of`, else now. By CL-1 a
    day not over yet is shown as at now, so deadlines still to come are not judged as missed.
    `ready` runs once the names are found, before the report is built, so a refusal comes first and
    stays private.
    """
    now = store.database.clock()
    if as_of is not None and end_of_day(as_of) > now:
        as_of = None
    async with store.read() as view:
        record = await find_season(view.seasons, season)
        only = None if division is None else await find_division(view.seasons, record, division)
    if ready is not None:
        await ready()
    facts, report = await standings.season_report(store, record, as_of=as_of, now=now)
    context = context_of(facts, as_of or now.date())
    names = [name for name, _ in report.divisions] if only is None else [only.name]
    views = tuple(division_view(report, name, context) for name in names)
    return SeasonViews(record.name, views, as_of)


def context_of(season: Season, on: dt.date | None) -> SeasonContext:
    """The tables' context from a season's facts: its fixtures, CL-8 places and withdrawn clubs.

    Commands and pins take it from the season the standings cache holds, so it reads nothing.
    """
    fixtures = tuple(Fixture(m.id, m.home, m.away, m.round) for m in season.matches)
    return SeasonContext(fixtures, season.rules.promotion_places, season.withdrawn, on)
