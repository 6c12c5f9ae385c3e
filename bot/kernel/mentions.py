"""Who a bot message may ping: nobody unless the message names them.

Discord enforces this through `allowed_mentions`, so a `<@id>` or `@everyone` in text a user typed
never pings.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

NO_PINGS = discord.AllowedMentions.none()
"""The default of every bot message: no user, role, @everyone or reply pings."""


def pinging(users: Iterable[int]) -> discord.AllowedMentions:
    """Allows exactly `users` to be pinged, with no roles and no @everyone. Nobody when empty."""
    ids = list(dict.fromkeys(users))
    if not ids:
        return NO_PINGS
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(id=user) for user in ids],
        replied_user=False,
    )
