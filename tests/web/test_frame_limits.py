"""The frame's rate limit per address, and the security headers on every kind of reply."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.site import ADDRESSES_KEPT, HEADERS, SITE, make_app
from storage.engine.database import Database
from tests.support.demos import Played
from tests.support.web_demo import open_copy, published_demo

Client = TestClient[web.Request, web.Application]


class Monotonic:
    """The site's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def published(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return published_demo(played, tmp_path_factory)


@pytest.fixture
async def database(published: Path, tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_copy(published, tmp_path)
    yield database
    await database.close()


@pytest.fixture
def monotonic() -> Monotonic:
    return Monotonic()


@pytest.fixture
async def client(database: Database, monotonic: Monotonic) -> AsyncIterator[Client]:
    app = make_app(database, requests_per_minute=60)  # one a second, a burst of 6
    app[SITE].monotonic = monotonic
    async with TestClient(TestServer(app)) as client:
        yield client


async def test_an_address_past_its_rate_is_429_with_retry_after(
    client: Client, monotonic: Monotonic
) -> None:
    for _ in range(6):
        assert (await client.get("/g/demo/")).status == 200
    refused = await client.get("/g/demo/")
    assert refused.status == 429
    assert refused.headers["Retry-After"] == "1"
    assert "Too many requests" in await refused.text()
    monotonic.now += 0.5
    again = await client.get("/g/demo/")
    assert (again.status, again.headers["Retry-After"]) == (429, "1")
    monotonic.now += 0.5
    assert (await client.get("/g/demo/")).status == 200
    assert (await client.get("/g/demo/")).status == 429
    monotonic.now += 60
    for _ in range(6):
        assert (await client.get("/g/demo/")).status == 200


async def test_a_slower_rate_says_to_wait_longer(database: Database, monotonic: Monotonic) -> None:
    app = make_app(database, requests_per_minute=6)  # one each 10 s, a burst of 1
    app[SITE].monotonic = monotonic
    async with TestClient(TestServer(app)) as client:
        assert (await client.get("/")).status == 200
        monotonic.now += 2.5
        refused = await client.get("/")
        assert (refused.status, refused.headers["Retry-After"]) == (429, "8")


async def test_each_address_has_its_own_rate(client: Client, monotonic: Monotonic) -> None:
    buckets = client.app[SITE].buckets
    for _ in range(6):
        await client.get("/")
    assert (await client.get("/")).status == 429
    assert list(buckets) == ["127.0.0.1"]
    buckets["192.0.2.1"] = (0.0, monotonic.now)  # another address spent its burst
    assert (await client.get("/")).status == 429
    assert buckets["192.0.2.1"] == (0.0, monotonic.now)


async def test_every_reply_carries_the_security_headers(client: Client) -> None:
    page = await client.get("/g/demo/")
    replies = {
        "page": page,
        "front": await client.get("/"),
        "stylesheet": await client.get("/static/site.css"),
        "304": await client.get("/g/demo/", headers={"If-None-Match": page.headers["ETag"]}),
        "404": await client.get("/g/nobody/"),
        "405": await client.post("/g/demo/"),
    }
    replies["429"] = await client.get("/")
    expected = {"page": 200, "front": 200, "stylesheet": 200, "304": 304, "404": 404}
    expected |= {"405": 405, "429": 429}
    for name, reply in replies.items():
        assert reply.status == expected[name], name
        for header, value in HEADERS.items():
            assert reply.headers[header] == value, (name, header)
    assert "script-src" not in HEADERS["Content-Security-Policy"]
    assert replies["stylesheet"].headers["Content-Type"].startswith("text/css")


async def test_past_ten_thousand_addresses_those_at_rest_are_forgotten(
    client: Client, monotonic: Monotonic
) -> None:
    buckets = client.app[SITE].buckets
    for n in range(ADDRESSES_KEPT):
        buckets[f"rest-{n}"] = (6.0, monotonic.now - 100)
    buckets["busy"] = (0.0, monotonic.now)
    assert (await client.get("/")).status == 200
    assert sorted(client.app[SITE].buckets) == ["127.0.0.1", "busy"]


async def test_past_ten_thousand_busy_addresses_all_are_forgotten(
    client: Client, monotonic: Monotonic
) -> None:
    buckets = client.app[SITE].buckets
    for n in range(ADDRESSES_KEPT + 1):
        buckets[f"busy-{n}"] = (0.0, monotonic.now)
    assert (await client.get("/")).status == 200
    assert list(client.app[SITE].buckets) == ["127.0.0.1"]
