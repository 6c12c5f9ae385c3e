"""Guild set-up: which roles are league HQ, directors and arbiters, where announcements go."""

from __future__ import annotations

from bot.errors import UserError
from storage.database import Database
from storage.guild import GuildStore
from storage.guild_settings import SETTING_KEYS, GuildSettings


class GuildSetup:
    """Reads and changes a guild's Arbiter settings (audited)."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def show(self, guild_id: int) -> GuildSettings:
        """The guild's current settings."""
        return await GuildStore(self._database, guild_id).settings.get()

    async def configure(
        self, guild_id: int, actor_id: int, changes: dict[str, int]
    ) -> GuildSettings:
        """Apply `changes` (setting → Discord id); at least one is required."""
        if not changes:
            raise UserError(
                "Nothing to change: give at least one of the roles or the announcements channel."
            )
        unknown = sorted(set(changes) - set(SETTING_KEYS))
        if unknown:
            raise UserError(f"Unknown settings: {', '.join(unknown)}.")
        return await GuildStore(self._database, guild_id).settings.update(actor_id, **changes)
