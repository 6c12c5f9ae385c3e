"""`/season show` as a read use case: a season's card.

It shows the season's phase in its life cycle by CL-1 and CL-8, its calendar, each division's clubs
and minimum players, how many matches are finished, and its champion. The phases are setup,
scheduled, running, finished and closed.
"""

from __future__ import annotations

from bot.league.references import find_season
from bot.league.seasons.phase import phase_of
from bot.league.store import StandingsCache
from bot.rendering.league.embeds import DivisionSize, SeasonInfo
from storage.guild import GuildStore


async def season_card(store: GuildStore, standings: StandingsCache, reference: str) -> SeasonInfo:
    """The card of the season `reference` names, in this guild only.

    The CL-16 champion comes from the cached standings as at now.
    """
    now = store.database.clock()
    async with store.read() as view:
        record = await find_season(view.seasons, reference)
        divisions = await view.seasons.divisions(record.id)
        members = await view.seasons.members(record.id)
        matches = await view.matches.of_season(record.id)
    report = await standings.report(store, record, now=now)
    async with store.read() as view:
        phase = await phase_of(view, record, now, report)
    sizes = tuple(
        DivisionSize(d.name, sum(1 for m in members if m.division_id == d.id), d.min_players)
        for d in divisions
    )
    return SeasonInfo(
        record.name,
        phase.value,
        sizes,
        record.first_round,
        record.round_days,
        len(matches),
        sum(1 for m in matches if m.finished_at is not None),
        report.champion,
    )
