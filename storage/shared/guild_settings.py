"""A guild's Arbiter settings: its roles and channels.

The roles are HQ, director and arbiter. The channels are the announcements channel, the directors'
channel for motions and the arbiters' channel for disputed tour results.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

from storage.engine.codecs import to_text
from storage.engine.scope import ReadScope, WriteScope

ROLE_KEYS = ("hq_role_id", "director_role_id", "arbiter_role_id")
SETTING_KEYS = (
    *ROLE_KEYS,
    "announcements_channel_id",
    "directors_channel_id",
    "arbiters_channel_id",
)


@dataclass(frozen=True)
class GuildSettings:
    """The settings of one guild. `None` means not configured yet."""

    guild_id: int
    hq_role_id: int | None = None
    director_role_id: int | None = None
    arbiter_role_id: int | None = None
    announcements_channel_id: int | None = None
    directors_channel_id: int | None = None
    arbiters_channel_id: int | None = None

    @property
    def motions_channel_id(self) -> int | None:
        """Where motion messages go: the directors' channel, else the announcements channel."""
        return self.directors_channel_id or self.announcements_channel_id

    @property
    def arbiters_channel(self) -> int | None:
        """Where disputed tour results and CCT-7 flags go: the arbiters' channel, else the
        announcements channel."""
        return self.arbiters_channel_id or self.announcements_channel_id


class GuildSettingsReader:
    """Reads the settings row of exactly one guild."""

    def __init__(self, scope: ReadScope) -> None:
        self._scope = scope

    async def get(self) -> GuildSettings:
        """This guild's settings. All are `None` before the first `/setup set`."""
        guild_id = self._scope.guild_id
        row = await self._scope.fetchone(
            f"SELECT {', '.join(SETTING_KEYS)} FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id)
        return GuildSettings(guild_id, **{key: row[key] for key in SETTING_KEYS})


class GuildSettingsRepository(GuildSettingsReader):
    """Reads and writes the settings row of one guild inside a unit of work."""

    def __init__(self, scope: WriteScope) -> None:
        super().__init__(scope)
        self._write = scope

    async def update(self, **changes: int | None) -> GuildSettings:
        """Sets the given settings and leaves the others unchanged, then returns the result.

        The audit details note the values before and after.
        """
        unknown = set(changes) - set(SETTING_KEYS)
        if unknown:
            raise ValueError(f"unknown guild settings: {sorted(unknown)}")
        scope = self._write
        current = await self.get()
        updated = replace(current, **cast(dict[str, Any], changes))
        scope.details["before"] = {key: getattr(current, key) for key in changes}
        scope.details["after"] = changes
        await scope.execute(
            f"INSERT INTO guild_settings (guild_id, {', '.join(SETTING_KEYS)}, updated_at)"
            f" VALUES (?, {', '.join('?' for _ in SETTING_KEYS)}, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET "
            + ", ".join(f"{key} = excluded.{key}" for key in SETTING_KEYS)
            + ", updated_at = excluded.updated_at",
            (scope.guild_id, *(getattr(updated, key) for key in SETTING_KEYS), to_text(scope.now)),
        )
        return updated
