"""The standings pins as a source of the bot's pin refresher in bot/runtime/pin_refresher.py.

After a unit of work that bumped a season's version, and once at start-up, each stale pin gets an
outbox edit of its message. A pin is stale when the version it shows is older than its season's. The
edit is recorded with the version it now shows in the same unit of work. A change that leaves a
division's table as the pin shows it, such as a reschedule or a roster note, records the new version
without an edit, so Discord is not asked to redraw the same table.
"""

from __future__ import annotations

import json

from bot.league.standings.views import season_context
from bot.league.store import StandingsCache
from bot.rendering.division_view import division_view
from bot.rendering.standings_embeds import pin_embeds
from bot.runtime.pin_refresher import Refreshed
from storage.database import Database
from storage.guild import Committed, GuildStore, UnitOfWork
from storage.pins import guilds_with_stale_pins


class StandingsPins:
    """The league's division standings pins, made by `/standings-pin`."""

    def __init__(self, standings: StandingsCache) -> None:
        self.standings = standings

    def follows(self, committed: Committed) -> bool:
        """A bumped season may move a pinned division's table."""
        return bool(committed.seasons)

    async def stale_guilds(self, database: Database) -> list[int]:
        """The guilds holding a stale, posted standings pin."""
        return await guilds_with_stale_pins(database)

    async def refresh(self, store: GuildStore, uow: UnitOfWork) -> Refreshed:
        """Bring each stale, posted standings pin of the guild up to its season's version."""
        edits = brought = 0
        for pin in await uow.pins.stale():
            record = await uow.seasons.get(pin.season_id)
            names = {d.id: d.name for d in await uow.seasons.divisions(pin.season_id)}
            if record is None or pin.division_id not in names or pin.message_id is None:
                continue
            report = await self.standings.report(store, record, now=uow.now)
            context = await season_context(uow, self.standings, record, None)
            embeds = pin_embeds(division_view(report, names[pin.division_id], context))
            shown = await uow.outbox.latest_embeds(pin.outbox_id, pin.message_id)
            if shown != json.loads(json.dumps(embeds)):  # as the outbox stores them
                await uow.outbox.post(pin.channel_id, embeds=embeds, edit_of=pin.message_id)
                edits += 1
            await uow.pins.rendered(pin.id, pin.season_version)
            brought += 1
        return Refreshed(edits, brought, await uow.pins.unsent_stale())
