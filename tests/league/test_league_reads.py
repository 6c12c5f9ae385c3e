"""`/standings`, `/crosstable` and `/club list` as services on a real SQLite file: every
division of a season or the one named, as at a date (CL-17); the clubs by status; reads write
nothing; a refusal comes before `ready` runs; another guild's season and clubs are not found."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.formats.boards_csv import parse_boards_csv
from bot.kernel.actor import Actor
from bot.kernel.config import ClDefaults
from bot.league.clubs.listing import club_list
from bot.league.matches import results
from bot.league.matches import service as matches
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.standings.views import standings_views
from bot.league.store import StandingsCache
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.services_world import ADMIN_A, ADMIN_B, ARBITER, HQ, dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11
DEFAULTS = ClDefaults(clubs_per_division=4, divisions=["Premier", "Second"], min_players=[1, 1])


async def _clubs(store: GuildStore) -> None:
    """Clubs A (ADMIN_A) and B (ADMIN_B) approved, C pending, D rejected."""
    async with store.change(None, "test.clubs", "clubs") as uow:
        for name, status, admins in (
            ("B", "approved", ADMIN_B),
            ("A", "approved", ADMIN_A),
            ("C", "pending", ()),
            ("D", "rejected", ()),
        ):
            club = await uow.clubs.register(name, name.lower(), status=status)
            for admin in admins:
                await uow.club_admins.add(club.id, admin)


async def _won_by_a(store: GuildStore, clock: VirtualClock) -> dt.datetime:
    """Spring with A and B in Premier, nobody in Second; A beats B; when the result came."""
    await seasons.create_season(store, HQ, DEFAULTS, "Spring", dt.date(2024, 3, 1))
    for name in ("A", "B"):
        await seasons.add_club(store, HQ, "Spring", "Premier", name)
    await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    async with store.read() as view:
        (match,) = await view.matches.of_season((await view.seasons.all())[0].id)
        club_a = await view.clubs.find("A")
    assert club_a is not None
    url = "https://www.chess.com/club/match/12803"
    await matches.record_challenge_issued(store, Actor(ADMIN_A[0]), match.id, url)
    await matches.record_challenge_accepted(store, Actor(ADMIN_B[0]), match.id)
    finished = match.start + dt.timedelta(hours=1)
    await clock.advance_to(finished)
    home_wins = "1,a1,b1,2,0" if match.home_club_id == club_a.id else "1,b1,a1,0,2"
    await results.enter_manual_result(
        store, ARBITER, match.id, parse_boards_csv(home_wins), finished
    )
    return finished


async def test_cl_17_standings_views_of_every_division_or_one_as_at_a_date(
    database: Database, clock: VirtualClock
) -> None:
    """CL-17: every division in the season's order, or the one named (any case); as at the
    day before the result nobody has played, as at now A has won; `ready` runs once per
    call; nothing written."""
    store = GuildStore(database, GUILD)
    await _clubs(store)
    finished = await _won_by_a(store, clock)
    standings = StandingsCache()
    calls: list[str] = []

    async def ready() -> None:
        calls.append("ready")

    before = await dump(database)
    every = await standings_views(store, standings, "spring", ready=ready)
    assert every.season == "Spring" and calls == ["ready"]
    assert [v.division for v in every.divisions] == ["Premier", "Second"]
    premier, second = every.divisions
    assert [(r.club, r.won, r.lost) for r in premier.rows] == [("A", 1, 0), ("B", 0, 1)]
    assert second.rows == () and premier.as_of is None

    (one,) = (await standings_views(store, standings, "Spring", "PREMIER")).divisions
    assert one.division == "Premier" and one.rows == premier.rows
    day_before = finished.date() - dt.timedelta(days=1)
    (earlier,) = (
        await standings_views(store, standings, "Spring", "Premier", day_before)
    ).divisions
    assert earlier.as_of == day_before
    assert {(r.club, r.played) for r in earlier.rows} == {("A", 0), ("B", 0)}
    assert await dump(database) == before


async def test_standings_views_refusals_come_before_ready_and_write_nothing(
    database: Database, clock: VirtualClock
) -> None:
    """An unknown division, an unknown season and another guild's season of the same name
    are refused before `ready` runs (so the refusal stays private)."""
    store = GuildStore(database, GUILD)
    await _clubs(store)
    await _won_by_a(store, clock)
    standings = StandingsCache()
    calls: list[str] = []

    async def ready() -> None:
        calls.append("ready")

    await refused(database, standings_views(store, standings, "Spring", "Third", ready=ready))
    await refused(database, standings_views(store, standings, "Autumn", ready=ready), "no season")
    other = GuildStore(database, OTHER_GUILD)
    await refused(database, standings_views(other, standings, "Spring", ready=ready), "no season")
    assert calls == []


async def test_club_list_by_name_and_status_of_this_guild_only(database: Database) -> None:
    """Every club by name, or those of one status; nothing written; another guild has none
    of them, and its own club is not listed here."""
    store = GuildStore(database, GUILD)
    await _clubs(store)
    other = GuildStore(database, OTHER_GUILD)
    async with other.change(None, "test.clubs", "clubs") as uow:
        await uow.clubs.register("E", "e", status="approved")
    before = await dump(database)
    assert [(c.name, c.status) for c in await club_list(store)] == [
        ("A", "approved"),
        ("B", "approved"),
        ("C", "pending"),
        ("D", "rejected"),
    ]
    assert [c.name for c in await club_list(store, "approved")] == ["A", "B"]
    assert [c.name for c in await club_list(store, "rejected")] == ["D"]
    assert await club_list(store, "withdrawn") == ()
    assert [c.name for c in await club_list(other)] == ["E"]
    assert await dump(database) == before
