"""What the league's and the tour's autocomplete share: the guild's data read once per
keystroke, what the member typed in another option, and choices cut to Discord's 25 of at
most 100 characters, prefix matches first."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from discord import app_commands

from bot.app.interaction import Interaction
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import plain
from storage.guild import GuildStore, GuildView

MAX_CHOICES = limits.CHOICES
NAME_LIMIT = limits.CHOICE_NAME

Found = TypeVar("Found")


def choice_name(text: str) -> str:
    """A choice's name as plain text, since a choice shows no markdown, cut to 100 characters."""
    return cut(plain(text), NAME_LIMIT)


def starts(name: str, typed: str) -> bool:
    """Whether `name` starts with what the member typed, case aside."""
    return name.casefold().startswith(typed.strip().casefold())


def name_choices(names: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Plain names of divisions, players or tours: prefix matches first, order kept otherwise."""
    ranked = sorted(enumerate(names), key=lambda p: (not starts(p[1], typed), p[0]))
    return [
        app_commands.Choice(name=choice_name(n), value=n[:NAME_LIMIT])
        for _, n in ranked[:MAX_CHOICES]
    ]


def store_of(interaction: Interaction) -> GuildStore | None:
    """The guild's store, or None outside a guild."""
    if interaction.guild_id is None:
        return None
    return interaction.client.guild_store(interaction.guild_id)


def other_option(interaction: Interaction, option: str) -> str | None:
    """What the member typed so far in another option of the command, or None."""
    value = getattr(interaction.namespace, option, None)
    return str(value) if value else None


async def looked_up(
    interaction: Interaction, lookup: Callable[[GuildView], Awaitable[Found]]
) -> Found | None:
    """What `lookup` finds in the guild's data, or None outside a guild."""
    store = store_of(interaction)
    if store is None:
        return None
    async with store.read() as view:
        return await lookup(view)
