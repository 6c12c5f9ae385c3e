"""`/incident list`: an event's disconnection incidents and their CCT-10 rulings."""

from __future__ import annotations

from bot.tour.references import find_event
from storage.guild import GuildStore
from storage.tour.rulings import Incident


async def incident_list(
    store: GuildStore, event: str
) -> tuple[str, list[Incident], dict[int, str]]:
    """The event's name, its incidents oldest first and its players' names by id."""
    async with store.read() as view:
        record = await find_event(view, event)
        found = await view.tour_rulings.incidents(record.id)
        players = {p.player_id: p.name for p in await view.tour_events.players(record.id)}
    return record.name, found, players
