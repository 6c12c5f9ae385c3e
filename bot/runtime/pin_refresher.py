"""The pin refresher keeps the messages the bot maintains in step with what they show.

Each kind of pin is a `PinSource`. The league's standings pins live in bot/league/standings/pin.py
and the tour's event pins in bot/tour/events/pin.py. After a unit of work that bumped what a
source follows, the refresher runs one pass for that guild. In one unit of work every source
queues an outbox edit for each stale pin whose table changed and records the version it now
shows. Re-running finds nothing stale, so an edit is never queued twice. A crash between a change
and its pin's edit is repaired by `repair` at the next start. A pin whose own message has not
reached Discord yet cannot be edited, as it has no message id. Its guild is remembered and
refreshed when the outbox records a message of that guild as sent.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.runtime.scheduler import Timer
from bot.runtime.wake_loop import WakeLoop
from storage.engine.database import Database
from storage.engine.shards import Shards
from storage.guild import Committed, GuildStore, GuildUnit, UnitOfWork

log = logging.getLogger(__name__)

PASS_TIMER = "pins-refresh"


@dataclass(frozen=True)
class Refreshed:
    """What one source did in a pass: edits queued, pins brought to their version, and whether
    a stale pin still waits for its message to reach Discord."""

    edits: int = 0
    brought: int = 0
    waiting: bool = False


class PinSource(Protocol):
    """One kind of pinned message the refresher keeps up to date."""

    def follows(self, committed: Committed) -> bool:
        """Whether this commit may have left one of the guild's pins of this kind stale."""

    async def stale_guilds(self, database: Database) -> list[int]:
        """The guilds holding a posted pin of this kind behind its version, read at start-up."""

    async def refresh(self, store: GuildStore, uow: GuildUnit) -> Refreshed:
        """Queue the edits of the guild's stale pins and record the versions they show."""


async def edit_if_changed(
    uow: UnitOfWork,
    channel_id: int,
    outbox_id: int,
    message_id: int,
    embeds: Sequence[Mapping[str, Any]],
) -> int:
    """Queue an edit of a pinned message when `embeds` differ from what it shows or is about
    to show. Returns the edits queued, 1 or 0."""
    shown = await uow.outbox.latest_embeds(outbox_id, message_id)
    if shown == json.loads(json.dumps(embeds)):  # as the outbox stores them
        return 0
    await uow.outbox.post(channel_id, embeds=embeds, edit_of=message_id)
    return 1


class PinRefresher(WakeLoop):
    """Keeps every source's pins in step with what they show, through the outbox."""

    def __init__(
        self,
        database: Database,
        sources: Sequence[PinSource],
        *,
        timer: Timer | None = None,
        shards: Shards | None = None,
    ) -> None:
        super().__init__(database, timer, shards)
        self.sources = tuple(sources)
        self._guilds: set[int] = set()
        self._waiting: set[int] = set()
        self._refreshing: set[int] = set()

    def on_commit(self, committed: Committed) -> None:
        """A unit of work committed: if it may have left a pin stale, or delivered a message a
        stale pin waited for, refresh that guild's pins."""
        guild = committed.guild_id
        if not self.serves(guild):
            return
        if any(source.follows(committed) for source in self.sources) or (
            committed.sent and (guild in self._waiting or guild in self._refreshing)
        ):
            self._guilds.add(guild)
            if self.timer is not None:
                self.timer.add(PASS_TIMER, self.database.clock(), self._pass)
            else:
                self._wake.set()

    def start(self) -> None:
        """Refreshes in the background until `stop()`, without a timer. Call it inside the loop."""
        if self.timer is None:
            self._spawn("arbiter pins")

    async def _background_pass(self) -> None:
        await self._pass()

    async def _pass(self) -> None:
        """Refreshes every guild marked since the last pass. A failure waits for the next pass."""
        guilds, self._guilds = sorted(self._guilds), set()
        for guild_id in guilds:
            try:
                await self.refresh(guild_id)
            except Exception:  # a database error: the next change or start-up tries again
                log.exception("pins of guild %d not refreshed", guild_id)

    async def repair(self) -> int:
        """At start-up, refreshes every guild holding a stale pin and returns the edits queued."""
        guilds: set[int] = set()
        for source in self.sources:
            guilds.update(await source.stale_guilds(self.database))
        guilds = {guild for guild in guilds if self.serves(guild)}
        edits = 0
        for guild_id in sorted(guilds):
            edits += await self.refresh(guild_id)
        return edits

    async def refresh(self, guild_id: int) -> int:
        """Brings each stale pin of the guild up to its version in one unit of work.

        It queues an edit when what the pin shows changed, and records the version either way.
        Returns the edits queued, 0 with nothing written when nothing was stale.
        """
        store = GuildStore(self.database, guild_id)
        edits = 0
        waiting = False
        self._refreshing.add(guild_id)  # a message sent meanwhile calls for another pass
        try:
            async with store.change(None, "pins.refresh", f"guild:{guild_id}") as uow:
                brought = 0
                for source in self.sources:
                    done = await source.refresh(store, uow)
                    edits += done.edits
                    brought += done.brought
                    waiting = waiting or done.waiting
                if not brought:
                    uow.abandon()
        finally:
            self._refreshing.discard(guild_id)
        if waiting:
            self._waiting.add(guild_id)
        else:
            self._waiting.discard(guild_id)
        return edits
