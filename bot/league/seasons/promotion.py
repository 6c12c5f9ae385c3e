"""`/season promotion` as a read use case: the CL-8 promotion and relegation proposal of a
season, from its standings (adopted only by a passed director motion)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.league.references import find_season
from bot.league.store import StandingsCache
from core.league.promotion import Proposal, promotion_proposal
from storage.guild import GuildStore
from storage.seasons import SeasonRecord


@dataclass(frozen=True)
class SeasonPromotion:
    """A season and its CL-8 proposal."""

    season: SeasonRecord
    proposal: Proposal


async def season_promotion(
    store: GuildStore, standings: StandingsCache, season: str
) -> SeasonPromotion:
    """CL-8: the proposal computed from the season's standings now and its promotion places."""
    async with store.read() as view:
        record = await find_season(view.seasons, season)
    report = await standings.report(store, record, now=store.database.clock())
    return SeasonPromotion(
        record, promotion_proposal(report.divisions, record.rules.promotion_places)
    )
