"""The tour service tests' fixtures: the clock on the eve of their events, and a guild whose
announcements and arbiters' channels are set up."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.tour_units import EVE, GUILD, channels


@pytest.fixture
def clock() -> VirtualClock:
    """The clock of the tests marked `on_clock`: the day before the events start."""
    return VirtualClock(EVE)


@pytest.fixture
async def store(database: Database) -> GuildStore:
    """The tests' guild on the `database` fixture, its channels set up."""
    guild = GuildStore(database, GUILD)
    await channels(guild)
    return guild
