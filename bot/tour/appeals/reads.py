"""`/appeal list`: an event's fair-play appeals, deadlines and decisions, by CCT-11."""

from __future__ import annotations

from bot.tour.references import find_event
from storage.guild import GuildStore
from storage.tour.rulings import Appeal


async def appeal_list(store: GuildStore, event: str) -> tuple[str, list[Appeal], dict[int, str]]:
    """The event's name, its appeals oldest first and its players' names by id."""
    async with store.read() as view:
        record = await find_event(view, event)
        found = await view.tour_rulings.appeals(record.id)
        players = {p.player_id: p.name for p in await view.tour_events.players(record.id)}
    return record.name, found, players
