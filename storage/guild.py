"""The one door to a guild's data: every repository it hands out is bound to that guild."""

from __future__ import annotations

from storage.audit import AuditRepository
from storage.club_admins import ClubAdminRepository
from storage.database import Database
from storage.guild_settings import GuildSettingsRepository
from storage.jobs import JobRepository


class GuildStore:
    """The repositories of one Discord guild; none of them can read or change another's rows."""

    def __init__(self, database: Database, guild_id: int) -> None:
        if guild_id <= 0:
            raise ValueError("a guild id is a positive snowflake")
        self.guild_id = guild_id
        self.settings = GuildSettingsRepository(database, guild_id)
        self.club_admins = ClubAdminRepository(database, guild_id)
        self.jobs = JobRepository(database, guild_id)
        self.audit = AuditRepository(database, guild_id)
