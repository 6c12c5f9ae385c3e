"""What the tour's job handlers need from the running bot: the database (and its clock), the
bot's one chess.com client and one lichess client (None when no contact is configured: then
those sites are not read), the least time between two polls of a session and how soon a poll
that met an outage tries again."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from bot.lichess.client import LichessClient
from storage.database import Database
from storage.guild import GuildStore

RETRY_AFTER_OUTAGE = dt.timedelta(minutes=5)
"""A poll that could not read a site (an outage, a 5xx after the client's retries) looks
again this soon (at the latest at its session's close)."""


@dataclass(frozen=True)
class TourAutomation:
    """The running bot's parts the tour's jobs use."""

    database: Database
    chesscom: ChessComClient | None
    lichess: LichessClient | None
    poll_every: dt.timedelta = dt.timedelta(minutes=60)
    retry_after: dt.timedelta = RETRY_AFTER_OUTAGE

    def now(self) -> dt.datetime:
        """The database clock's instant (virtual in tests and replays)."""
        return self.database.clock()

    def store(self, guild_id: int) -> GuildStore:
        """The repositories of a job's guild."""
        return GuildStore(self.database, guild_id)
