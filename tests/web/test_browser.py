"""The site in a real browser: Debian's headless Chromium opens the main pages served on
127.0.0.1, and the test reads the text it rendered and looks at its screenshots.

The test runs where `chromium` is on PATH. With `ARBITER_BROWSER=1` (CI sets it) a missing
Chromium fails the test, so CI never skips it silently. `ARBITER_SCREENSHOTS=DIR` keeps the
screenshots there.
"""

from __future__ import annotations

import asyncio
import html
import io
import os
import re
import shutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp import web
from PIL import Image

from bot.league.standings.views import standings_views
from bot.league.store import StandingsCache
from bot.web.site import make_app
from core.tour.ranking import EventType
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.demos import Played
from tests.support.web_demo import (
    GUILD_ID,
    SLUG,
    TOUR_GUILD_ID,
    TOUR_SLUG,
    published_demo,
    published_tour,
)

WINDOW = (1000, 800)
COLOURS = 20
"""A page with text and tables shows more distinct colours than this; a blank one shows one."""
SECONDS = 30
BROWSERS = 2
"""Browsers open at once: the pages are independent."""

Read = Callable[[GuildStore], Awaitable[tuple[str, list[str]]]]


@dataclass(frozen=True)
class Shown:
    """A page the browser opens: the demo site it is on, and how to read from the services its
    address and the texts it shows."""

    name: str
    slug: str
    read: Read


async def guild_page(store: GuildStore) -> tuple[str, list[str]]:
    """The guild's home names its seasons."""
    async with store.read() as view:
        return f"/g/{SLUG}/", [season.name for season in await view.seasons.all()]


async def season_page(store: GuildStore) -> tuple[str, list[str]]:
    """A season's page shows each division's name, its caption, its leader and its table."""
    async with store.read() as view:
        season = (await view.seasons.all())[0]
    found = await standings_views(store, StandingsCache(), season.id)
    texts = [found.season]
    for view in found.divisions:
        texts += [view.division, view.caption("Standings"), view.rows[0].club, "Club"]
    return f"/g/{SLUG}/seasons/{season.id}", texts


async def division_page(store: GuildStore) -> tuple[str, list[str]]:
    """A division's page: its table's clubs."""
    async with store.read() as view:
        season = (await view.seasons.all())[0]
        division_id = (await view.seasons.divisions(season.id))[0].id
    found = await standings_views(store, StandingsCache(), season.id, division_id)
    division = found.divisions[0]
    texts = [division.division, *(row.club for row in division.rows)]
    return f"/g/{SLUG}/seasons/{season.id}/divisions/{division_id}", texts


async def event_page(store: GuildStore, type: EventType) -> tuple[str, list[str]]:
    """The first event of `type`: its name and its players."""
    async with store.read() as view:
        tour = (await view.tours.all())[0]
        event = (await view.tour_events.of_tour(tour.id, type))[0]
        players = await view.tour_events.players(event.id)
    return f"/g/{TOUR_SLUG}/events/{event.id}", [event.name, *(p.name for p in players)]


async def bracket_page(store: GuildStore) -> tuple[str, list[str]]:
    """A Regular's page, with its bracket."""
    return await event_page(store, EventType.REGULAR)


async def finals_page(store: GuildStore) -> tuple[str, list[str]]:
    """The Finals' page."""
    return await event_page(store, EventType.FINALS)


PAGES = [
    Shown("guild", SLUG, guild_page),
    Shown("season", SLUG, season_page),
    Shown("division", SLUG, division_page),
    Shown("bracket", TOUR_SLUG, bracket_page),
    Shown("finals", TOUR_SLUG, finals_page),
]
"""The pages opened, each on the 4-club league demo's site (`SLUG`) or the tour demo's
(`TOUR_SLUG`)."""


def chromium() -> str:
    """Chromium's path; a missing one fails the test under `ARBITER_BROWSER=1`, else skips it."""
    found = shutil.which("chromium")
    if found is not None:
        return found
    if os.environ.get("ARBITER_BROWSER") == "1":
        pytest.fail("ARBITER_BROWSER=1 but chromium is not on PATH (apt-get install chromium)")
    pytest.skip("chromium is not on PATH; ARBITER_BROWSER=1 makes its absence a failure")


async def browse(browser: str, url: str, shot: Path, profile: Path) -> str:
    """The DOM Chromium rendered at `url`, after writing its screenshot to `shot`."""
    process = await asyncio.create_subprocess_exec(
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--screenshot={shot}",
        "--dump-dom",
        url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        dom, err = await asyncio.wait_for(process.communicate(), SECONDS)
    finally:
        if process.returncode is None:  # timed out, or the test failed meanwhile
            process.kill()
    assert process.returncode == 0, err.decode(errors="replace")[-2000:]
    return dom.decode()


def shown_text(dom: str) -> str:
    """The text of a DOM as a reader sees it: no tags, entities read, spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def check_screenshot(shot: Path, name: str) -> None:
    """A PNG of the window's size that shows something."""
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.size == WINDOW, name
        colours = image.convert("RGB").getcolors(maxcolors=WINDOW[0] * WINDOW[1])
    assert colours is not None and len(colours) > COLOURS, (name, colours and len(colours))


@dataclass
class Served:
    """A demo's database served on 127.0.0.1."""

    database: Database
    store: GuildStore
    runner: web.AppRunner
    port: int


async def serve(published: Path, guild_id: int) -> Served:
    """The site over `published`, on a free port of 127.0.0.1."""
    database = await Database.open(published)
    runner = web.AppRunner(make_app(database))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    return Served(database, GuildStore(database, guild_id), runner, port)


@pytest.fixture(scope="module")
def published(
    played: Played, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[Path, int]]:
    """The demos' databases the pages need, by slug: a database and its guild's id."""
    slugs = {page.slug for page in PAGES}
    found = {}
    if SLUG in slugs:
        found[SLUG] = (published_demo(played, tmp_path_factory), GUILD_ID)
    if TOUR_SLUG in slugs:
        found[TOUR_SLUG] = (published_tour(tmp_path_factory), TOUR_GUILD_ID)
    return found


async def test_chromium_renders_the_main_pages(
    published: dict[str, tuple[Path, int]], tmp_path: Path
) -> None:
    browser = chromium()
    sites: dict[str, Served] = {}
    try:
        for slug, (path, guild_id) in published.items():
            sites[slug] = await serve(path, guild_id)
        turns = asyncio.Semaphore(BROWSERS)

        async def check(page: Shown) -> None:
            served = sites[page.slug]
            path, texts = await page.read(served.store)
            shot = tmp_path / f"{page.name}.png"
            url = f"http://127.0.0.1:{served.port}{path}"
            async with turns:
                dom = await browse(browser, url, shot, tmp_path / f"profile-{page.name}")
            text = shown_text(dom)
            for expected in texts:
                assert " ".join(expected.split()) in text, (page.name, expected)
            check_screenshot(shot, page.name)

        await asyncio.gather(*(check(page) for page in PAGES))
        keep = os.environ.get("ARBITER_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            for page in PAGES:
                shutil.copy(tmp_path / f"{page.name}.png", Path(keep) / f"{page.name}.png")
    finally:
        for served in sites.values():
            await served.runner.cleanup()
            await served.database.close()


def test_a_missing_chromium_fails_under_arbiter_browser_else_skips(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("ARBITER_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="ARBITER_BROWSER=1 but chromium"):
        chromium()
    monkeypatch.delenv("ARBITER_BROWSER")
    with pytest.raises(pytest.skip.Exception, match="ARBITER_BROWSER=1 makes"):
        chromium()
    (tmp_path / "chromium").write_text("#!/bin/sh\n")
    (tmp_path / "chromium").chmod(0o755)
    assert chromium() == str(tmp_path / "chromium")
