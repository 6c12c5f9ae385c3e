"""`/standings-pin` as a service on a real SQLite file: the division's standings posted
through the outbox and the pin stored in one audited unit of work; pinning again replaces the
pin; an unknown division or another guild's season writes nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.kernel.config import ClDefaults
from bot.league.seasons import service as seasons
from bot.league.standings.pin import pin_standings
from bot.league.store import StandingsCache
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.services_world import HQ, HQ_USER, audited, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11
DEFAULTS = ClDefaults(clubs_per_division=4, divisions=["Premier", "Second"], min_players=[1, 1])
CHANNEL, OTHER_CHANNEL = 500, 501


async def test_pin_posts_through_the_outbox_and_records_the_pin(database: Database) -> None:
    """One audit row; one outbox message in the channel; the pin shows the season's version;
    pinning the division again elsewhere replaces the pin."""
    store = GuildStore(database, GUILD)
    created = await seasons.create_season(store, HQ, DEFAULTS, "Spring", dt.date(2024, 3, 1))
    standings = StandingsCache()
    view = await audited(
        database,
        pin_standings(store, standings, HQ_USER, "spring", "second", CHANNEL),
        HQ_USER,
        "standings.pin",
    )
    assert (view.season, view.division) == ("Spring", "Second")
    async with store.read() as read:
        (pin,) = await read.pins.of_season(created.season.id)
        messages = await read.outbox.pending()
        version = await read.seasons.version(created.season.id)
    assert [m.channel_id for m in messages] == [CHANNEL] and pin.outbox_id == messages[0].id
    assert (pin.channel_id, pin.rendered_version) == (CHANNEL, version)
    assert pin.division_id == created.divisions[1].id

    await pin_standings(store, standings, HQ_USER, "Spring", "Second", OTHER_CHANNEL)
    async with store.read() as read:
        pins = await read.pins.of_season(created.season.id)
    assert [p.channel_id for p in pins] == [OTHER_CHANNEL]


async def test_pin_refusals_write_nothing(database: Database) -> None:
    """An unknown division, an unknown season, another guild's season of the same name."""
    store = GuildStore(database, GUILD)
    await seasons.create_season(store, HQ, DEFAULTS, "Spring", dt.date(2024, 3, 1))
    standings = StandingsCache()
    await refused(
        database, pin_standings(store, standings, HQ_USER, "Spring", "Third", CHANNEL), "third"
    )
    await refused(
        database,
        pin_standings(store, standings, HQ_USER, "Autumn", "Premier", CHANNEL),
        "no season",
    )
    other = GuildStore(database, OTHER_GUILD)
    await refused(
        database,
        pin_standings(other, standings, HQ_USER, "Spring", "Premier", CHANNEL),
        "no season",
    )
