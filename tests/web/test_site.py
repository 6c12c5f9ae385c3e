"""The public site's frame on the demo's league: publishing, 404s, headers, ETag and 304."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.offline.demo.season_script import GUILD
from bot.offline.discord_messages import stable_id
from bot.web.site import make_app
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.demos import Played, demo_played

GUILD_ID = stable_id("guild", GUILD)


@pytest.fixture
def league_file(
    played: Played,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> Path:
    """A copy of the 4-club demo's database."""
    out, _ = demo_played(played, tmp_path_factory, capsys, 2, 4)
    return Path(shutil.copy(out / "arbiter.db", tmp_path / "arbiter.db"))


@pytest.fixture
async def league_db(league_file: Path) -> AsyncIterator[Database]:
    """The demo's database, its guild published as `demo`."""
    database = await Database.open(league_file)
    await database.migrate()
    async with GuildStore(database, GUILD_ID).change(None, "setup.web", "web") as uow:
        await uow.web_sites.publish("demo")
    yield database
    await database.close()


@pytest.fixture
async def client(league_db: Database) -> AsyncIterator[TestClient[object, object]]:
    async with TestClient(TestServer(make_app(league_db))) as client:
        yield client


async def test_a_published_guild_lists_its_seasons(client: TestClient[object, object]) -> None:
    front = await client.get("/")
    assert front.status == 200
    assert 'href="/g/demo/"' in await front.text()
    home = await client.get("/g/demo/")
    text = await home.text()
    assert home.status == 200
    assert "/g/demo/seasons/" in text


async def test_an_unknown_slug_or_season_is_a_plain_404(client: TestClient[object, object]) -> None:
    for path in ("/g/nobody/", "/g/demo/seasons/999", "/g/demo/seasons/x", "/nothing"):
        reply = await client.get(path)
        assert reply.status == 404, path
        assert "There is no page at this address." in await reply.text()
        assert reply.headers["X-Content-Type-Options"] == "nosniff"


async def test_an_unchanged_page_is_answered_304(client: TestClient[object, object]) -> None:
    home = await client.get("/g/demo/")
    etag = home.headers["ETag"]
    again = await client.get("/g/demo/", headers={"If-None-Match": etag})
    assert again.status == 304
    assert "default-src 'none'" in again.headers["Content-Security-Policy"]


async def test_withdrawing_hides_the_guild_at_once(
    client: TestClient[object, object], league_db: Database
) -> None:
    assert (await client.get("/g/demo/")).status == 200
    async with GuildStore(league_db, GUILD_ID).change(None, "setup.web", "web") as uow:
        assert await uow.web_sites.withdraw()
    assert (await client.get("/g/demo/")).status == 404


async def test_a_season_page_shows_every_division_table(client: TestClient[object, object]) -> None:
    home = await (await client.get("/g/demo/")).text()
    start = home.index("/g/demo/seasons/")
    path = home[start : home.index('"', start)]
    page = await client.get(path)
    text = await page.text()
    assert page.status == 200, text
    assert text.count('<table class="standings">') == 3
    assert "<th>SB</th>" in text


async def test_the_stylesheet_fits_a_standings_table_on_a_phone(
    client: TestClient[object, object],
) -> None:
    """CL-17's eleven columns, CL-8's last, fit a 390-pixel phone: under 30rem the page's margin
    and the table's cells are narrower, so the zone column is seen without scrolling."""
    css = await (await client.get("/static/site.css")).text()
    [narrow] = [line for line in css.splitlines() if "max-width: 30rem" in line]
    assert "body { padding: 0 0.5rem; }" in narrow
    assert "table.standings th, table.standings td {" in narrow
