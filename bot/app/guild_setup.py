"""Guild set-up: which roles are league HQ, directors and arbiters, where announcements go."""

from __future__ import annotations

from bot.kernel.errors import UserError
from storage.guild import GuildStore
from storage.shared.guild_settings import SETTING_KEYS, GuildSettings
from storage.shared.outbox import OutboxMessage


class GuildSetup:
    """Reads and changes one guild's Arbiter settings, audited."""

    def __init__(self, store: GuildStore) -> None:
        self._store = store

    async def show(self) -> tuple[GuildSettings, list[OutboxMessage]]:
        """The guild's current settings, and the latest messages it could not deliver."""
        async with self._store.read() as view:
            return await view.settings.get(), await view.outbox.failures()

    async def configure(self, actor_id: int, changes: dict[str, int]) -> GuildSettings:
        """Applies `changes`, which map a setting to a Discord id. At least one is required."""
        if not changes:
            raise UserError(
                "Nothing to change: give at least one of the roles or the announcements channel."
            )
        unknown = sorted(set(changes) - set(SETTING_KEYS))
        if unknown:
            raise UserError(f"Unknown settings: {', '.join(unknown)}.")
        async with self._store.change(actor_id, "setup.set", "guild_settings") as uow:
            return await uow.settings.update(**changes)
