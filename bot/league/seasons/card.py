"""`/season show` as a read use case: a season's card — its phase in its life cycle (setup,
scheduled, running, finished, closed: CL-1, CL-8) and calendar, each
division's clubs and minimum players, how many matches are finished, and its champion."""

from __future__ import annotations

from bot.league.references import find_season
from bot.league.seasons.phase import phase_of
from bot.league.store import StandingsCache
from bot.rendering.league.embeds import DivisionSize, SeasonInfo
from storage.guild import GuildStore


async def season_card(store: GuildStore, standings: StandingsCache, reference: str) -> SeasonInfo:
    """The card of the season `reference` names (of this guild only); the champion (CL-16)
    comes from the cached standings as at now."""
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
