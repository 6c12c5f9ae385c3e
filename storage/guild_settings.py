"""A guild's Arbiter settings: its HQ, director and arbiter roles and announcements channel."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

import aiosqlite

from storage.database import Database, to_text

ROLE_KEYS = ("hq_role_id", "director_role_id", "arbiter_role_id")
SETTING_KEYS = (*ROLE_KEYS, "announcements_channel_id")


@dataclass(frozen=True)
class GuildSettings:
    """The settings of one guild; `None` means not configured yet."""

    guild_id: int
    hq_role_id: int | None = None
    director_role_id: int | None = None
    arbiter_role_id: int | None = None
    announcements_channel_id: int | None = None


class GuildSettingsRepository:
    """Reads and writes the settings row of exactly one guild."""

    def __init__(self, database: Database, guild_id: int) -> None:
        self._database = database
        self.guild_id = guild_id

    async def get(self) -> GuildSettings:
        """This guild's settings (all `None` before the first `/setup set`)."""
        async with self._database.read() as connection:
            return await self._fetch(connection)

    async def _fetch(self, connection: aiosqlite.Connection) -> GuildSettings:
        cursor = await connection.execute(
            f"SELECT {', '.join(SETTING_KEYS)} FROM guild_settings WHERE guild_id = ?",
            (self.guild_id,),
        )
        row = await cursor.fetchone()
        if row is None:
            return GuildSettings(self.guild_id)
        return GuildSettings(self.guild_id, **{key: row[key] for key in SETTING_KEYS})

    async def update(self, actor_id: int | None, **changes: int | None) -> GuildSettings:
        """Set the given settings (others unchanged), audited as `setup.set`; returns the result."""
        unknown = set(changes) - set(SETTING_KEYS)
        if unknown:
            raise ValueError(f"unknown guild settings: {sorted(unknown)}")
        async with self._database.change(
            guild_id=self.guild_id, actor_id=actor_id, action="setup.set", subject="guild_settings"
        ) as transaction:
            current = await self._fetch(transaction.connection)
            updated = replace(current, **cast(dict[str, Any], changes))
            transaction.details["before"] = {key: getattr(current, key) for key in changes}
            transaction.details["after"] = changes
            await transaction.execute(
                f"INSERT INTO guild_settings (guild_id, {', '.join(SETTING_KEYS)}, updated_at)"
                f" VALUES (?, {', '.join('?' for _ in SETTING_KEYS)}, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET "
                + ", ".join(f"{key} = excluded.{key}" for key in SETTING_KEYS)
                + ", updated_at = excluded.updated_at",
                (
                    self.guild_id,
                    *(getattr(updated, key) for key in SETTING_KEYS),
                    to_text(transaction.now),
                ),
            )
        return updated
