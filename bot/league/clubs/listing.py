"""`/club list` as a read use case: the guild's clubs, of one status when asked, by name."""

from __future__ import annotations

from storage.guild import GuildStore
from storage.league.clubs import Club, ClubStatus


async def club_list(store: GuildStore, status: ClubStatus | None = None) -> tuple[Club, ...]:
    """The clubs of this guild only, ordered by name, only those of `status` when it is given."""
    async with store.read() as view:
        return tuple(await view.clubs.all(status))
