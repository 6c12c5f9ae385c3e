"""A division's pinned standings: `/standings-pin` posts them through the outbox and records
the pin with the season's version it shows, and `StandingsPins`, a source of the bot's pin
refresher (bot/runtime/pin_refresher.py), edits each pin after every change that moves its
table. A change that leaves the table as the pin shows it, such as a reschedule, records the
new version without an edit."""

from __future__ import annotations

from bot.league.references import find_division, find_season
from bot.league.standings.views import context_of
from bot.league.store import StandingsCache
from bot.rendering.league.division_view import DivisionView, division_view
from bot.rendering.league.standings_embeds import pin_embeds
from bot.runtime.pin_refresher import Refreshed, edit_if_changed
from storage.engine.database import Database
from storage.guild import Committed, GuildStore, LeagueUnit
from storage.league.pins import guilds_with_stale_pins


async def pin_standings(
    store: GuildStore,
    standings: StandingsCache,
    user_id: int,
    season: str,
    division: str,
    channel_id: int,
) -> DivisionView:
    """League HQ (checked by the caller) pins the division's standings in `channel_id`, in
    one unit of work (pinning a division again replaces its pin); the standings pinned."""
    async with store.league_change(user_id, "standings.pin", f"season:{season}") as uow:
        record = await find_season(uow.seasons, season)
        found = await find_division(uow.seasons, record, division)
        version = await uow.seasons.version(record.id)
        assert version is not None
        facts, report = await standings.season_report(store, record, now=uow.now)
        view = division_view(report, found.name, context_of(facts, None))
        message = await uow.outbox.post(channel_id, embeds=pin_embeds(view))
        await uow.pins.pin(record.id, found.id, channel_id, message.id, version, user_id)
    return view


class StandingsPins:
    """The league's division standings pins (`/standings-pin`) as a source of the pin
    refresher."""

    def __init__(self, standings: StandingsCache) -> None:
        self.standings = standings

    def follows(self, committed: Committed) -> bool:
        """A bumped season may move a pinned division's table."""
        return bool(committed.seasons)

    async def stale_guilds(self, database: Database) -> list[int]:
        """The guilds holding a stale, posted standings pin."""
        return await guilds_with_stale_pins(database)

    async def refresh(self, store: GuildStore, uow: LeagueUnit) -> Refreshed:
        """Bring each stale, posted standings pin of the guild up to its season's version."""
        edits = brought = 0
        for pin in await uow.pins.stale():
            record = await uow.seasons.get(pin.season_id)
            names = {d.id: d.name for d in await uow.seasons.divisions(pin.season_id)}
            if record is None or pin.division_id not in names or pin.message_id is None:
                continue
            facts, report = await self.standings.season_report(store, record, now=uow.now)
            context = context_of(facts, None)
            embeds = pin_embeds(division_view(report, names[pin.division_id], context))
            edits += await edit_if_changed(
                uow, pin.channel_id, pin.outbox_id, pin.message_id, embeds
            )
            await uow.pins.rendered(pin.id, pin.season_version)
            brought += 1
        return Refreshed(edits, brought, await uow.pins.unsent_stale())
