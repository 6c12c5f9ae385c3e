"""`/standings-pin` as a use case: posts a division's standings through the outbox and records the
pin.

The pin records the season's version it shows, so bot/league/standings/pin_refresher.py edits it
after every change.
"""

from __future__ import annotations

from bot.league.references import find_division, find_season
from bot.league.standings.views import season_context
from bot.league.store import StandingsCache
from bot.rendering.division_view import DivisionView, division_view
from bot.rendering.standings_embeds import pin_embeds
from storage.guild import GuildStore


async def pin_standings(
    store: GuildStore,
    standings: StandingsCache,
    user_id: int,
    season: str,
    division: str,
    channel_id: int,
) -> DivisionView:
    """League HQ pins the division's standings in `channel_id` in one unit of work, and gets the
    standings pinned.

    The caller checks the role. Pinning a division again replaces its pin.
    """
    async with store.change(user_id, "standings.pin", f"season:{season}") as uow:
        record = await find_season(uow.seasons, season)
        found = await find_division(uow.seasons, record, division)
        version = await uow.seasons.version(record.id)
        assert version is not None
        report = await standings.report(store, record, now=uow.now)
        view = division_view(report, found.name, await season_context(uow, standings, record, None))
        message = await uow.outbox.post(channel_id, embeds=pin_embeds(view))
        await uow.pins.pin(record.id, found.id, channel_id, message.id, version, user_id)
    return view
