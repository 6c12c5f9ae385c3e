"""An event's pinned message, posted through the outbox and kept at the event's version.

It shows the preliminary standings, then the bracket once the knock-out started, or the Finals
table. The bot's pin refresher in bot/runtime/pin_refresher.py keeps it, with `EventPins` as its
source. It refreshes after every committed change to the event, when the pin's own message reaches
Discord if it had not yet, and at start-up for a change no refresher followed.
"""

from __future__ import annotations

from typing import Any

from bot.kernel.actor import Actor, Role
from bot.rendering.tour.standings_embeds import finals_embeds, preliminary_embeds
from bot.runtime.pin_refresher import Refreshed, edit_if_changed
from bot.tour import replies as tour_replies
from bot.tour import views
from bot.tour.event_reads import Bracket, EventRead
from bot.tour.event_state import event_state
from bot.tour.game_targets import knockout_ties, open_targets
from bot.tour.references import find_event, find_tour
from bot.tour.store import LoadedEvent, load_event, load_tour
from core.tour.event_facts import finals_table, preliminary_standings
from core.tour.ranking import EventType
from storage.engine.database import Database
from storage.guild import Committed, GuildStore, GuildView, TourUnit
from storage.tour.events import TourEventRecord, guilds_with_stale_event_pins


async def pin_embeds(view: GuildView, record: TourEventRecord) -> list[dict[str, Any]]:
    """What the event's pin shows now, at most one page."""
    tour = await find_tour(view, record.tour_id)
    loaded = await load_event(view, record)
    if record.type is EventType.FINALS:
        return await _finals(view, loaded)
    read = EventRead(loaded, tour.rules, tour.name, event_state(loaded, {}))
    if record.drawn_at is None:
        return tour_replies.event_card(read)[:1]
    ties = knockout_ties(loaded)
    if ties:
        nexts = {t.contest or "": t for t in open_targets(loaded) if t.stage == "knockout"}
        return tour_replies.bracket(Bracket(read, ties, nexts))[:1]
    rows = preliminary_standings(loaded.facts)
    return [dict(preliminary_embeds(views.preliminary(loaded, rows))[0].to_dict())]


async def _finals(view: GuildView, loaded: LoadedEvent) -> list[dict[str, Any]]:
    """The CCT-8f Finals table with each finalist's bonus."""
    if not loaded.facts.players:
        return tour_replies.event_card(
            EventRead(
                loaded,
                (await find_tour(view, loaded.record.tour_id)).rules,
                "",
                event_state(loaded, {}),
            )
        )[:1]
    tour = await load_tour(view, await find_tour(view, loaded.record.tour_id))
    finals = next(e for e in tour.events if e.record.id == loaded.record.id)
    bonus = {str(p): b for p, b in tour.finals_bonus(finals).items()}
    table = finals_table(finals.facts, bonus)
    return [dict(finals_embeds(views.finals(loaded.record.name, table))[0].to_dict())]


async def pin_event(store: GuildStore, actor: Actor, event: str, channel_id: int) -> str:
    """Posts the event's pin to `channel_id`, replacing an earlier pin, and returns the event's
    name.
    """
    actor.require(Role.HQ)
    async with store.tour_change(actor.user_id, "event.pin", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        embeds = await pin_embeds(view, record)
        message = await uow.outbox.post(channel_id, embeds=embeds)
        await uow.tour_events.bump(record.id)  # its record now says it is pinned
        await uow.tour_events.add_pin(record.id, channel_id, message.id, actor.user_id)
        return record.name


class EventPins:
    """The tour's event pins, made by `/event pin`, as a source of the pin refresher."""

    def follows(self, committed: Committed) -> bool:
        """A bumped event may change what its pin shows."""
        return bool(committed.events)

    async def stale_guilds(self, database: Database) -> list[int]:
        """The guilds holding a posted event pin behind its event."""
        return await guilds_with_stale_event_pins(database)

    async def refresh(self, store: GuildStore, uow: TourUnit) -> Refreshed:
        """Edits each stale, posted event pin whose view changed, and records the version it shows.

        A stale pin whose message is not in Discord yet is `waiting`.
        """
        edits = brought = 0
        waiting = False
        view = uow.view()
        for pin in await uow.tour_events.stale_pins():
            if pin.message_id is None:
                waiting = True
                continue
            record = await view.tour_events.get(pin.event_id)
            if record is None:
                continue
            embeds = await pin_embeds(view, record)
            edits += await edit_if_changed(
                uow, pin.channel_id, pin.outbox_id, pin.message_id, embeds
            )
            await uow.tour_events.pin_rendered(pin.event_id, pin.event_version)
            brought += 1
        return Refreshed(edits, brought, waiting)
