"""What a user names in the tour, found in the guild's own data, or a refusal saying it does not
exist.

A user names a tour, an event, a player or an appeal. Another guild's are not found. An event is
named by its name, or as `Tour: Event` when several tours have an event of that name. Autocomplete
offers the form that is unique.
"""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, shown
from bot.kernel.references import find_by_id_or_name
from storage.guild import GuildView
from storage.tour.events import TourEventRecord
from storage.tour.rulings import Appeal
from storage.tour.tours import TourPlayer, TourRecord


async def find_tour(view: GuildView, reference: str | int) -> TourRecord:
    """A tour by id or name."""
    return await find_by_id_or_name(reference, "tour", view.tours.get, view.tours.by_name)


async def find_event(
    view: GuildView, reference: str | int, tour: TourRecord | None = None
) -> TourEventRecord:
    """An event by id, by name within `tour` if given, or as `Tour: Event`."""
    if isinstance(reference, int):
        record = await view.tour_events.get(reference)
        if record is None or (tour is not None and record.tour_id != tour.id):
            raise UserError(f"No event {reference} on this server.")
        return record
    text = clean_text(reference, "event", 2 * NAME_LIMIT + 2)
    found = await view.tour_events.by_name(text, None if tour is None else tour.id)
    if not found and ": " in text and tour is None:
        tour_name, _, event_name = text.rpartition(": ")
        owner = await view.tours.by_name(tour_name)
        if owner is not None:
            found = await view.tour_events.by_name(event_name, owner.id)
    if not found:
        raise UserError(f"No event {shown(text)} on this server.")
    if len(found) > 1:
        raise UserError(f"Several tours have an event {shown(text)}: write it as `Tour: Event`.")
    return found[0]


async def find_player(view: GuildView, tour: TourRecord, reference: str) -> TourPlayer:
    """A player of the tour by name."""
    name = clean_text(reference, "player", NAME_LIMIT)
    found = await view.tours.player_by_name(tour.id, name)
    if found is None:
        raise UserError(f"No player {shown(name)} in the tour {named(tour.name)}.")
    return found


async def find_appeal(view: GuildView, appeal_id: int) -> Appeal:
    """An appeal by its number."""
    found = await view.tour_rulings.appeal(appeal_id) if 0 < appeal_id < 2**63 else None
    if found is None:
        raise UserError(f"No appeal {appeal_id} on this server.")
    return found
