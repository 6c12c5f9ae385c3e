"""Autocomplete of the tour's options from the guild's own data.

The options are `tour`, `event`, `player`, `game`, `round` and `appeal`. Choices are ranked for the
member typing, with their own events and open games first, and cut to Discord's 25 choices of at
most 100 characters.
"""

from __future__ import annotations

from discord import app_commands

from bot.app.autocomplete.common import (
    MAX_CHOICES,
    NAME_LIMIT,
    choice_name,
    looked_up,
    name_choices,
    other_option,
    store_of,
)
from bot.app.interaction import Interaction
from bot.kernel.errors import UserError
from bot.tour.game_names import ROUND_NAMES, normal
from bot.tour.game_targets import finals_states, knockout_ties
from bot.tour.games.reads import game_choices
from bot.tour.references import find_event
from bot.tour.store import read_loaded
from core.tour.ranking import EventType


async def tours(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `tour` option."""
    found = await looked_up(interaction, lambda view: view.tour_lookups.tours(current))
    return [] if found is None else name_choices(found, current)


async def events(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for an `event` option, with the member's events first.

    The value is the event's name, or `Tour: Event` when another tour has an event of that name.
    """
    user, tour = interaction.user.id, other_option(interaction, "tour")
    found = await looked_up(interaction, lambda view: view.tour_lookups.events(current, user, tour))
    if found is None:
        return []
    counts: dict[str, int] = {}
    for event in found:
        counts[event.name.casefold()] = counts.get(event.name.casefold(), 0) + 1
    choices = []
    for event in found[:MAX_CHOICES]:
        value = event.name if counts[event.name.casefold()] == 1 else f"{event.tour}: {event.name}"
        label = f"{event.tour} · {event.name} ({event.type})" + (" · yours" if event.mine else "")
        if len(value) <= NAME_LIMIT:
            choices.append(app_commands.Choice(name=choice_name(label), value=value))
    return choices


async def players(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `player` option: of the event typed if any, else of the tour."""
    store = store_of(interaction)
    if store is None:
        return []
    event = other_option(interaction, "event")
    async with store.read() as view:
        if event:
            try:
                record = await find_event(view, event)
            except UserError:
                return []
            found = await view.tour_lookups.event_players(current, record.id)
        else:
            found = await view.tour_lookups.players(current, other_option(interaction, "tour"))
    return name_choices(found, current)


async def games(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `game` option: the event's games, the member's open ones first."""
    store = store_of(interaction)
    if store is None:
        return []
    found = await game_choices(
        store, other_option(interaction, "event"), str(current), interaction.user.id
    )
    return [
        app_commands.Choice(
            name=choice_name(
                choice.name + (" · yours" if choice.mine else "") + ("" if choice.open else " ✓")
            ),
            value=choice.name,
        )
        for choice in found
        if len(choice.name) <= NAME_LIMIT
    ]


async def rounds(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `round` option: the event's known knock-out rounds or Finals matches."""
    store = store_of(interaction)
    event = other_option(interaction, "event")
    if store is None or not event:
        return []
    async with store.read() as view:
        try:
            record = await find_event(view, event)
        except UserError:
            return []
        loaded = await read_loaded(store, view, record)
    try:
        if record.type is EventType.FINALS:
            names = [
                loaded.contest_name(f"R{m.pairing.round}B{m.pairing.board}")
                for m in finals_states(loaded)
            ]
        else:
            names = [ROUND_NAMES[tie] for tie in knockout_ties(loaded)]
    except UserError:
        return []
    wanted = normal(current)
    return name_choices([n for n in names if wanted in normal(n)], current)


async def appeals(interaction: Interaction, current: str | int) -> list[app_commands.Choice[int]]:
    """Autocomplete for an `appeal` option: open appeals first, newest first."""
    found = await looked_up(
        interaction, lambda view: view.tour_rulings.recent_appeals(str(current))
    )
    if found is None:
        return []
    return [
        app_commands.Choice(name=choice_name(f"{a.id} · {a.game} · {a.status}"), value=a.id)
        for a in found[:MAX_CHOICES]
    ]
