"""What the tour's job handlers need from the running bot.

That is the database and its clock, the bot's one chess.com client and one lichess client, the least
time between two polls of a session, and how soon a poll that met an outage tries again. A client is
None when no contact is configured, and that site is then not read.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.chesscom.client import ChessComClient
from bot.lichess.client import LichessClient
from storage.engine.database import Database
from storage.guild import GuildStore

RETRY_AFTER_OUTAGE = dt.timedelta(minutes=5)
"""How soon a poll that could not read a site looks again, at the latest at its session's close.

A site cannot be read in an outage or after a 5xx outlasting the client's retries.
"""


@dataclass(frozen=True)
class TourAutomation:
    """The running bot's parts the tour's jobs use."""

    database: Database
    chesscom: ChessComClient | None
    lichess: LichessClient | None
    poll_every: dt.timedelta = dt.timedelta(minutes=60)
    retry_after: dt.timedelta = RETRY_AFTER_OUTAGE

    def now(self) -> dt.datetime:
        """The database clock's instant, which is virtual in tests and replays."""
        return self.database.clock()

    def store(self, guild_id: int) -> GuildStore:
        """The repositories of a job's guild."""
        return GuildStore(self.database, guild_id)
