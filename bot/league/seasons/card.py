"""`/season show` as a read use case: a season's card — its status and calendar, each
division's clubs and minimum players, how many matches are finished, and its champion."""

from __future__ import annotations

from bot.league.references import find_season
from bot.league.store import StandingsCache
from bot.rendering.league_embeds import DivisionSize, SeasonInfo
from storage.guild import GuildStore


def shown_status(stored: str, every_match_decided: bool) -> str:
    """A season's status as people are told it: `finished` once every match is decided
    (CL-1, from the facts), whatever status was stored when it was scheduled."""
    return "finished" if every_match_decided else stored


async def season_card(store: GuildStore, standings: StandingsCache, reference: str) -> SeasonInfo:
    """The card of the season `reference` names (of this guild only); the champion (CL-16)
    comes from the cached standings as at now."""
    async with store.read() as view:
        record = await find_season(view.seasons, reference)
        divisions = await view.seasons.divisions(record.id)
        members = await view.seasons.members(record.id)
        matches = await view.matches.of_season(record.id)
    report = await standings.report(store, record, now=store.database.clock())
    sizes = tuple(
        DivisionSize(d.name, sum(1 for m in members if m.division_id == d.id), d.min_players)
        for d in divisions
    )
    return SeasonInfo(
        record.name,
        shown_status(record.status, report.complete and bool(matches)),
        sizes,
        record.first_round,
        record.round_days,
        len(matches),
        sum(1 for m in matches if m.finished_at is not None),
        report.champion,
    )
