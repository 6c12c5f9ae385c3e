"""`/season show` as a service on a real SQLite file: division sizes, finished matches and
the champion (CL-16) come from the season's facts; it writes nothing; another guild's season
of the same name is not found."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.formats.boards_csv import parse_boards_csv
from bot.kernel.actor import Actor
from bot.kernel.config import ClDefaults
from bot.league.matches import results
from bot.league.matches import service as matches
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.seasons.card import season_card
from bot.league.store import StandingsCache
from bot.rendering.league.embeds import DivisionSize
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore
from tests.support.services_world import ADMIN_A, ADMIN_B, ARBITER, HQ, NOW, dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11
DEFAULTS = ClDefaults(
    clubs_per_division=4, divisions=["Premier", "Second", "Third"], min_players=[1, 3, 2]
)
"""One board is enough in Premier (CL-9..11 minimum 1): a single result decides the season."""


async def _season(store: GuildStore, clubs: tuple[str, ...], name: str = "Spring") -> None:
    """A season whose top division holds `clubs` (registered approved here; the first two
    with the admins ADMIN_A and ADMIN_B)."""
    async with store.change(None, "test.clubs", "clubs") as uow:
        for club, admins in zip(clubs, (ADMIN_A, ADMIN_B, (), ()), strict=False):
            found = await uow.clubs.register(club, club.lower(), status="approved")
            for admin in admins:
                await uow.club_admins.add(found.id, admin)
    await seasons.create_season(store, HQ, DEFAULTS, name, dt.date(2024, 3, 1))
    for club in clubs:
        await seasons.add_club(store, HQ, name, DEFAULTS.divisions[0], club)


async def test_season_card_counts_division_sizes_and_finished_matches(
    database_location: Path | str,
) -> None:
    """Each division with its clubs and minimum players (CL-9..11), in the season's order;
    matches finished out of all; the champion (CL-16) only once every match is decided."""
    clock = VirtualClock(NOW)
    database = await open_database(database_location, clock=clock)
    await database.migrate()
    try:
        await _card_follows_the_season(GuildStore(database, GUILD), clock)
    finally:
        await database.close()


async def _card_follows_the_season(store: GuildStore, clock: VirtualClock) -> None:
    await _season(store, ("A", "B"))
    standings = StandingsCache()

    card = await season_card(store, standings, "Spring")
    assert card.name == "Spring" and card.status == "setup"
    assert card.first_round == dt.date(2024, 3, 1) and card.round_days == 7
    assert card.divisions == (
        DivisionSize("Premier", 2, 1),
        DivisionSize("Second", 0, 3),
        DivisionSize("Third", 0, 2),
    )
    assert (card.matches, card.finished, card.champion) == (0, 0, None)

    scheduled = await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    async with store.read() as view:
        (match,) = await view.matches.of_season(scheduled.season.id)
    card = await season_card(store, standings, "Spring")
    assert (card.status, card.matches, card.finished, card.champion) == ("scheduled", 1, 0, None)

    url = "https://www.chess.com/club/match/12803"
    await matches.record_challenge_issued(store, Actor(ADMIN_A[0]), match.id, url)
    await matches.record_challenge_accepted(store, Actor(ADMIN_B[0]), match.id)  # CL-15
    games = scheduled.season.rules.games_per_board
    finished = dt.datetime(2024, 3, 5, tzinfo=dt.UTC)
    await clock.advance_to(finished)
    boards = parse_boards_csv(f"1,a1,b1,{games},0")
    await results.enter_manual_result(store, ARBITER, match.id, boards, finished)
    card = await season_card(store, standings, "Spring")
    assert (card.matches, card.finished, card.champion) == (1, 1, "A")


async def test_season_card_writes_nothing_and_sees_only_its_guild(database: Database) -> None:
    """A read: no row changes. Another guild's season of the same name is "not found", and a
    guild's own season of that name shows its own clubs."""
    store = GuildStore(database, GUILD)
    await _season(store, ("A", "B", "C"))
    before = await dump(database)
    card = await season_card(store, StandingsCache(), "spring")
    assert card.divisions[0].clubs == 3
    assert await dump(database) == before

    other = GuildStore(database, OTHER_GUILD)
    await refused(database, season_card(other, StandingsCache(), "Spring"), "no season")
    await _season(other, ("X",))
    theirs = await season_card(other, StandingsCache(), "Spring")
    assert theirs.divisions[0].clubs == 1
    await refused(database, season_card(store, StandingsCache(), "Nothing"), "no season")
