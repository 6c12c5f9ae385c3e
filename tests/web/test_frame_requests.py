"""The frame of the site against odd requests: only GET and HEAD, and a hostile address is a
plain 404 or 400 page, never a server error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.web.pages import Guild, Page
from bot.web.site import add_guild_page, make_app
from tests.support.demos import Played
from tests.support.web_demo import open_copy, published_demo

Client = TestClient[web.Request, web.Application]


@pytest.fixture(scope="module")
def published(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return published_demo(played, tmp_path_factory)


async def broken(guild: Guild, request: web.Request) -> Page:
    """A page whose handler fails, as a bug would."""
    raise RuntimeError("a bug")


@pytest.fixture
async def client(published: Path, tmp_path: Path) -> AsyncIterator[Client]:
    database = await open_copy(published, tmp_path)
    app = make_app(database)
    add_guild_page(app, "/g/{slug}/broken", broken)
    async with TestClient(TestServer(app)) as client:
        yield client
    await database.close()


async def raw(client: Client, target: str, method: str = "GET") -> tuple[str, dict[str, str]]:
    """The status line and headers of `method target` sent byte for byte, unnormalised."""
    assert client.port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    writer.write(f"{method} {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    reply = await reader.read()
    writer.close()
    await writer.wait_closed()
    head = reply.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in head[1:])
    return head[0], {name.lower(): value for name, value in fields.items()}


async def test_only_get_and_head_are_served(client: Client) -> None:
    home = await client.head("/g/demo/")
    assert home.status == 200
    assert await home.read() == b""
    assert home.headers["ETag"] == (await client.get("/g/demo/")).headers["ETag"]
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        reply = await client.request(method, "/g/demo/", data=b"x=1")
        assert reply.status == 405, method
        assert reply.headers["Allow"] == "GET, HEAD"
        assert "it changes nothing" in await reply.text()
        assert reply.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    "target",
    [
        "/g/demo/../",
        "/g/demo/%2e%2e/seasons/1",
        "/g/../g/demo/x",
        "/g/de%00mo/",
        "/g/demo/seasons/1%00",
        "/g/%FF%FE/",
        "/g/demo/seasons/%FF",
        "/g/%C3%A9t%C3%A9/",
        "/g/" + "a" * 7000 + "/",
        "/g/demo/seasons/" + "9" * 40,
        "//g/demo/",
        "/g/demo/seasons/01",
        "/g/demo/seasons/0",
    ],
)
async def test_a_hostile_path_is_the_plain_404(client: Client, target: str) -> None:
    status, headers = await raw(client, target)
    assert status == "HTTP/1.1 404 Not Found", target
    assert "default-src 'none'" in headers["content-security-policy"]


async def test_a_long_query_is_refused_not_cached(client: Client) -> None:
    reply = await client.get("/g/demo/", params={"q": "x" * 1000})
    assert reply.status == 400
    assert "query is too long" in await reply.text()
    status, _ = await raw(client, "/g/demo/?q=" + "x" * 10_000)
    assert status.split()[1] == "400"  # aiohttp's reader refuses a request line past 8 kB
    assert (await client.get("/g/demo/", params={"q": "x" * 100})).status == 200


async def test_a_failing_page_is_the_plain_500_with_the_headers(client: Client) -> None:
    reply = await client.get("/g/demo/broken")
    assert reply.status == 500
    assert "could not be shown" in await reply.text()
    assert "a bug" not in await reply.text()
    assert reply.headers["X-Frame-Options"] == "DENY"


async def test_a_home_without_its_slash_is_sent_to_it(client: Client) -> None:
    reply = await client.get("/g/demo", allow_redirects=False)
    assert reply.status == 301
    assert reply.headers["Location"] == "/g/demo/"
    assert "default-src 'none'" in reply.headers["Content-Security-Policy"]
    for odd in ("/g/de%22mo", "/g/Demo", "/g/demo?x=1"):
        assert (await client.get(odd, allow_redirects=False)).status == 404, odd
