"""The standings pin refresher: after a unit of work that bumped a season's version (the
database tells it on commit) and once at start-up, each stale pin (the version it shows is
older than its season's) gets an outbox edit of its message, recorded with the version it
now shows in the same unit of work. Re-running finds nothing stale, so a crash between a
change and its pin's edit is repaired at the next start, and an edit is never queued twice.
A change that leaves a division's table as the pin shows it (a reschedule, a roster note)
records the new version without an edit: Discord is not asked to redraw the same table."""

from __future__ import annotations

import json
import logging

from bot.league.standings.views import season_context
from bot.league.store import StandingsCache
from bot.rendering.division_view import division_view
from bot.rendering.standings_embeds import pin_embeds
from bot.runtime.scheduler import Timer
from bot.runtime.wake_loop import WakeLoop
from storage.database import Database
from storage.guild import Committed, GuildStore
from storage.pins import guilds_with_stale_pins

log = logging.getLogger(__name__)

PASS_TIMER = "pins-refresh"


class PinRefresher(WakeLoop):
    """Keeps the standings pins in step with their seasons (through the outbox)."""

    def __init__(
        self, database: Database, standings: StandingsCache, *, timer: Timer | None = None
    ) -> None:
        super().__init__()
        self.database = database
        self.standings = standings
        self.timer = timer
        self._guilds: set[int] = set()

    def on_commit(self, committed: Committed) -> None:
        """A unit of work committed: if it bumped a season, refresh that guild's pins."""
        if committed.seasons:
            self._guilds.add(committed.guild_id)
            if self.timer is not None:
                self.timer.add(PASS_TIMER, self.database.clock(), self._pass)
            else:
                self._wake.set()

    def start(self) -> None:
        """Refresh in the background until `stop()` (without a timer; call inside the loop)."""
        if self.timer is None:
            self._spawn("arbiter standings pins")

    async def _background_pass(self) -> None:
        await self._pass()

    async def _pass(self) -> None:
        guilds, self._guilds = sorted(self._guilds), set()
        for guild_id in guilds:
            try:
                await self.refresh(guild_id)
            except Exception:  # a database error: the next change or start-up tries again
                log.exception("standings pins of guild %d not refreshed", guild_id)

    async def repair(self) -> int:
        """At start-up: refresh every guild holding a stale pin; the edits queued."""
        edits = 0
        for guild_id in await guilds_with_stale_pins(self.database):
            edits += await self.refresh(guild_id)
        return edits

    async def refresh(self, guild_id: int) -> int:
        """Bring each stale pin of the guild up to its season's version, in one unit of work:
        an edit of its message when the table it shows changed (not for a change that left
        the division's table as it was), and the version it now shows recorded either way.
        Returns the edits queued (0 and nothing written when nothing was stale)."""
        store = GuildStore(self.database, guild_id)
        edits = 0
        async with store.change(None, "pins.refresh", f"guild:{guild_id}") as uow:
            brought = 0
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
            if not brought:
                uow.abandon()
        return edits
