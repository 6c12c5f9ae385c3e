"""Which season `/roster remove` and `/roster removals` mean, worked out in the roster service
(CL-21) on a real SQLite file: the season named, else the club's latest season not finished;
a refusal writes nothing; another guild's season of the same name is "not found"."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.kernel.actor import Actor
from bot.kernel.config import ClDefaults
from bot.league.rosters import service as rosters
from bot.league.seasons import service as seasons
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.services_world import ADMIN_A, HQ, audited, dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11
ADMIN = Actor(ADMIN_A[0])
DEFAULTS = ClDefaults(clubs_per_division=4)
TOP = DEFAULTS.divisions[0]


async def _league(store: GuildStore, plays: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """Clubs A and B (A administered by ADMIN_A) and seasons, created in the order given,
    each holding its clubs in the top division; season name → id."""
    async with store.change(None, "test.clubs", "clubs") as uow:
        for name in ("A", "B"):
            club = await uow.clubs.register(name, name.lower(), status="approved")
            if name == "A":
                for admin in ADMIN_A:
                    await uow.club_admins.add(club.id, admin)
    ids = {}
    for title, clubs in plays.items():
        created = await seasons.create_season(store, HQ, DEFAULTS, title, dt.date(2024, 3, 1))
        ids[title] = created.season.id
        for club in clubs:
            await seasons.add_club(store, HQ, title, TOP, club)
    return ids


async def _finish(store: GuildStore, season_id: int) -> None:
    async with store.change(None, "test.finish", f"season:{season_id}") as uow:
        await uow.seasons.set_status(season_id, "finished")


async def test_removal_without_a_season_goes_to_the_clubs_latest_running_season(
    database: Database,
) -> None:
    """CL-21: with no season named, the removal is recorded in the club's latest season not
    finished (not a later season the club is not in, nor a finished one); a named season is
    used as named."""
    store = GuildStore(database, GUILD)
    ids = await _league(store, {"Old": ("A",), "Spring": ("A", "B"), "Later": ("B",)})
    await _finish(store, ids["Old"])
    current = await audited(
        database,
        rosters.record_removal(store, ADMIN, None, "A", "a1", "other", "left"),
        ADMIN_A[0],
        "roster.remove",
    )
    assert (current.season_id, current.username, current.verification) == (
        ids["Spring"],
        "a1",
        "pending",
    )
    named = await rosters.record_removal(store, ADMIN, "Old", "A", "a2", "timeouts")
    assert named.season_id == ids["Old"]

    listed = await rosters.club_removals(store, "A", None)
    assert (listed.club.name, listed.season.name) == ("A", "Spring")
    assert [(r.username, r.reason, r.note) for r in listed.removals] == [("a1", "other", "left")]
    old = await rosters.club_removals(store, "a", "Old")
    assert [r.username for r in old.removals] == ["a2"]
    assert (await rosters.club_removals(store, "B", None)).removals == ()


async def test_removal_refusals_write_nothing(database: Database) -> None:
    """No running season of the club, an unknown club (named before a bad username, as the
    command did), a season the club does not play in: refused, nothing written."""
    store = GuildStore(database, GUILD)
    ids = await _league(store, {"Spring": ("A",), "Autumn": ("B",)})
    await refused(
        database, rosters.record_removal(store, ADMIN, "Autumn", "A", "a1", "other"), "not play"
    )
    await refused(
        database,
        rosters.record_removal(store, ADMIN, None, "Nobody", "not a name!", "other"),
        "no club",
    )
    await _finish(store, ids["Spring"])
    await refused(
        database,
        rosters.record_removal(store, ADMIN, None, "A", "a1", "other"),
        "no running season",
    )
    await refused(database, rosters.club_removals(store, "A", None), "no running season")


async def test_another_guilds_season_is_not_found(database: Database) -> None:
    """Guild isolation: a season of the same name in another guild is "not found", for
    recording and for listing, and nothing is written."""
    store = GuildStore(database, GUILD)
    await _league(store, {"Spring": ("A",)})
    other = GuildStore(database, OTHER_GUILD)
    await _league(other, {"Autumn": ("A",)})
    await refused(
        database, rosters.record_removal(other, ADMIN, "Spring", "A", "a1", "other"), "no season"
    )
    await refused(database, rosters.club_removals(other, "A", "Spring"), "no season")
    before = await dump(database)
    theirs = await rosters.record_removal(other, ADMIN, None, "A", "a1", "other")
    assert await dump(database) != before
    async with other.read() as view:
        autumn = await view.seasons.by_name("Autumn")
    assert autumn is not None and theirs.season_id == autumn.id
    assert (await rosters.club_removals(store, "A", "Spring")).removals == ()
