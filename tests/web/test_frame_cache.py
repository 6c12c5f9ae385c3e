"""The frame's page cache and conditional requests: a page is kept while its guild is unchanged
and the minute is the same, and `If-None-Match` is read as HTTP says (a list, `*`, weak tags)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.site import SITE, make_app, published
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.web_sites import published_site
from tests.support.demos import Played
from tests.support.web_demo import GUILD_ID, open_copy, published_demo

Client = TestClient[web.Request, web.Application]


class Clock:
    """The database's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = dt.datetime(2030, 1, 1, 12, 0, 5, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


@pytest.fixture(scope="module")
def published_file(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return published_demo(played, tmp_path_factory)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def database(published_file: Path, tmp_path: Path, clock: Clock) -> AsyncIterator[Database]:
    database = await open_copy(published_file, tmp_path, clock)
    yield database
    await database.close()


@pytest.fixture
async def client(database: Database) -> AsyncIterator[Client]:
    async with TestClient(TestServer(make_app(database))) as client:
        yield client


async def etag_of(client: Client, path: str = "/g/demo/") -> str:
    reply = await client.get(path)
    assert reply.status == 200
    return reply.headers["ETag"]


@pytest.mark.parametrize(
    "header",
    [
        "{tag}",
        "W/{tag}",
        '"0000", {tag}',
        '"0000",{tag} , W/"1111"',
        "*",
    ],
)
async def test_if_none_match_naming_the_page_is_304(client: Client, header: str) -> None:
    tag = await etag_of(client)
    reply = await client.get("/g/demo/", headers={"If-None-Match": header.format(tag=tag)})
    assert reply.status == 304, header
    assert reply.headers["ETag"] == tag
    assert await reply.read() == b""
    assert reply.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "header", ['"0000"', 'W/"0000", "1111"', "{bare}", "garbage {tag}", "", '""']
)
async def test_if_none_match_naming_another_page_is_200(client: Client, header: str) -> None:
    tag = await etag_of(client)
    sent = header.format(tag=tag, bare=tag.strip('"'))
    reply = await client.get("/g/demo/", headers={"If-None-Match": sent})
    assert reply.status == 200, sent
    assert reply.headers["ETag"] == tag


async def test_head_answers_304_too(client: Client) -> None:
    tag = await etag_of(client)
    assert (await client.head("/g/demo/", headers={"If-None-Match": tag})).status == 304


async def test_the_page_is_kept_until_the_guild_changes(client: Client, database: Database) -> None:
    pages = client.app[SITE].pages
    tag = await etag_of(client)
    assert await etag_of(client) == tag
    assert len(pages) == 1
    before = await published_site(database, "demo")
    assert before is not None and before[0] == GUILD_ID
    async with GuildStore(database, GUILD_ID).change(None, "setup.web", "web") as uow:
        await uow.web_sites.publish("demo")
    after = await published_site(database, "demo")
    assert after is not None and after[1] > before[1]
    assert await etag_of(client) == tag  # the same body: the same tag
    assert len(pages) == 2  # but drawn again, under the guild's new last change


async def test_the_page_is_drawn_again_each_minute(client: Client, clock: Clock) -> None:
    pages = client.app[SITE].pages
    await etag_of(client)
    clock.now += dt.timedelta(seconds=50)
    await etag_of(client)
    assert len(pages) == 1
    clock.now += dt.timedelta(seconds=10)
    await etag_of(client)
    assert len(pages) == 2


async def test_a_query_is_a_page_of_its_own(client: Client) -> None:
    await etag_of(client, "/g/demo/")
    await etag_of(client, "/g/demo/?as_of=2018-01-01")
    assert len(client.app[SITE].pages) == 2


async def test_an_unpublished_slug_reads_nothing(database: Database) -> None:
    assert await published_site(database, "nobody") is None


async def test_a_304_costs_one_trip_to_the_database(client: Client, database: Database) -> None:
    tag = await etag_of(client)
    before = database.trips
    reply = await client.get("/g/demo/", headers={"If-None-Match": tag})
    assert reply.status == 304
    assert database.trips - before == 1


async def test_requests_meanwhile_share_one_read_and_a_later_one_reads_again(
    database: Database,
) -> None:
    site = make_app(database)[SITE]
    before = database.trips
    first, second = await asyncio.gather(published(site, "demo"), published(site, "demo"))
    assert first == second and first is not None and first[0] == GUILD_ID
    assert database.trips - before == 1
    assert site.reading == {}
    async with GuildStore(database, GUILD_ID).change(None, "setup.web", "web") as uow:
        assert await uow.web_sites.withdraw()
    before = database.trips
    assert await published(site, "demo") is None
    assert database.trips - before == 1


async def test_a_failed_shared_read_fails_each_request_and_is_not_kept(
    database: Database,
) -> None:
    site = make_app(database)[SITE]
    await database.close()
    failures = await asyncio.gather(
        published(site, "demo"), published(site, "demo"), return_exceptions=True
    )
    assert [type(failure) for failure in failures] == [ValueError, ValueError]
    assert site.reading == {}


async def test_a_parameter_no_page_reads_makes_no_new_page(client: Client) -> None:
    first = await etag_of(client, "/g/demo/")
    assert await etag_of(client, "/g/demo/?junk=1") == first
    assert await etag_of(client, "/g/demo/?junk=2&other=3") == first
    assert len(client.app[SITE].pages) == 1
