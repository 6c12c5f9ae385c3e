"""The 4-club league demo's database published as the site `demo` (and the tour demo's as
`tour`), for the web site's tests.

A module builds the published file once (`published_demo`) and each test opens its own copy
(`open_copy`), so a test that changes the database changes nobody else's.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import shutil
from pathlib import Path

import pytest

from bot.cli import main
from bot.offline.demo.season_script import GUILD
from bot.offline.demo.tour_script import GUILD as TOUR_GUILD
from bot.offline.discord_messages import stable_id
from storage.engine.database import Clock, Database, utc_now
from storage.guild import GuildStore
from tests.support.demos import Played, tour_played

GUILD_ID = stable_id("guild", GUILD)
SLUG = "demo"
SEED, CLUBS = 2, 4


def demo_database(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of the 4-club demo of seed 2, played on first use and shared through
    `played` with the tests that read it (`tests.support.demos.demo_played`)."""
    if (SEED, CLUBS) not in played:
        out = tmp_path_factory.mktemp(f"demo-{SEED}-{CLUBS}") / "demo"
        args = ["demo", "--seed", str(SEED), "--clubs", str(CLUBS), "--out", str(out)]
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            assert main(args) == 0
        played[SEED, CLUBS] = (out, printed.getvalue())
    return played[SEED, CLUBS][0] / "arbiter.db"


def published_demo(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the demo's database, migrated, its guild published as `demo`."""
    path = tmp_path_factory.mktemp("web") / "arbiter.db"
    shutil.copy(demo_database(played, tmp_path_factory), path)
    asyncio.run(_publish(path))
    return path


async def _publish(path: Path, guild_id: int = GUILD_ID, slug: str = SLUG) -> None:
    database = await Database.open(path)
    try:
        await database.migrate()
        async with GuildStore(database, guild_id).change(None, "setup.web", "web") as uow:
            await uow.web_sites.publish(slug)
    finally:
        await database.close()


async def open_copy(published: Path, folder: Path, clock: Clock = utc_now) -> Database:
    """This test's own copy of the published database, open."""
    return await Database.open(shutil.copy(published, folder / "arbiter.db"), clock=clock)


TOUR_GUILD_ID = stable_id("guild", TOUR_GUILD)
TOUR_SLUG = "tour"


def published_tour(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the tour demo's database (`tests.support.demos.tour_played`), its guild
    published as `tour`."""
    path = tmp_path_factory.mktemp("web-tour") / "arbiter.db"
    shutil.copy(tour_played(tmp_path_factory).out / "arbiter.db", path)
    asyncio.run(_publish(path, TOUR_GUILD_ID, TOUR_SLUG))
    return path
