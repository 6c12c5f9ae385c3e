"""What every league job handler needs.

That is the database and its clock, the bot's one chess.com client, and how often open matches are
polled. The client is None when no contact is configured.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from storage.engine.database import Database
from storage.guild import GuildStore


@dataclass(frozen=True)
class AutomationContext:
    """The running bot's parts the league jobs use."""

    database: Database
    chesscom: ChessComClient | None
    poll_every: dt.timedelta = dt.timedelta(minutes=60)

    def now(self) -> dt.datetime:
        """The database clock's instant, which is virtual in tests."""
        return self.database.clock()

    def store(self, guild_id: int) -> GuildStore:
        """The repositories of the job's guild."""
        return GuildStore(self.database, guild_id)
