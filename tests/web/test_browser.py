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
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.demos import Played
from tests.support.web_demo import GUILD_ID, published_demo

WINDOW = (1000, 800)
COLOURS = 20
"""A page with text and tables shows more distinct colours than this; a blank one shows one."""
SECONDS = 30

Texts = Callable[[GuildStore, list[int]], Awaitable[list[str]]]


@dataclass(frozen=True)
class Shown:
    """A page the browser opens: its address (a pattern of the links of the pages before it,
    whose numbers are the ids it names) and the texts the services say it shows."""

    name: str
    address: str
    texts: Texts


async def guild_texts(store: GuildStore, ids: list[int]) -> list[str]:
    """The guild's home names its seasons."""
    async with store.read() as view:
        return [season.name for season in await view.seasons.all()]


async def season_texts(store: GuildStore, ids: list[int]) -> list[str]:
    """A season's page shows each division's name, its leader and its table's club column."""
    found = await standings_views(store, StandingsCache(), ids[0])
    texts = [found.season]
    for view in found.divisions:
        texts += [view.division, view.caption("Standings"), view.rows[0].club, "Club"]
    return texts


PAGES = [
    Shown("guild", "/g/demo/", guild_texts),
    Shown("season", r"/g/demo/seasons/(\d+)", season_texts),
]
"""The pages opened, in order: each is found among the links of the pages before it."""


def chromium() -> str:
    """Chromium's path; a missing one fails the test under `ARBITER_BROWSER=1`, else skips it."""
    found = shutil.which("chromium")
    if found is not None:
        return found
    if os.environ.get("ARBITER_BROWSER") == "1":
        pytest.fail("ARBITER_BROWSER=1 but chromium is not on PATH (apt-get install chromium)")
    pytest.skip("chromium is not on PATH; ARBITER_BROWSER=1 makes its absence a failure")


@pytest.fixture(scope="module")
def published(played: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return published_demo(played, tmp_path_factory)


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
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode == 0, err.decode(errors="replace")[-2000:]
    return dom.decode()


def shown_text(dom: str) -> str:
    """The text of a DOM as a reader sees it: no tags, entities read, spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def address_of(page: Shown, doms: list[str]) -> tuple[str, list[int]]:
    """The first link of the pages opened so far that matches `page`, and the ids it names."""
    if not doms:
        return page.address, []
    for dom in doms:
        for link in re.findall(r'href="([^"]+)"', dom):
            match = re.fullmatch(page.address, html.unescape(link))
            if match is not None:
                return match.group(0), [int(part) for part in match.groups()]
    raise AssertionError(f"no link to a {page.name} page on the pages before it")


def check_screenshot(shot: Path, name: str) -> None:
    """A PNG of the window's size that shows something."""
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.size == WINDOW, name
        colours = image.convert("RGB").getcolors(maxcolors=WINDOW[0] * WINDOW[1])
    assert colours is not None and len(colours) > COLOURS, (name, colours and len(colours))


async def test_chromium_renders_the_main_pages(published: Path, tmp_path: Path) -> None:
    browser = chromium()
    database = await Database.open(shutil.copy(published, tmp_path / "arbiter.db"))
    runner = web.AppRunner(make_app(database))
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        store = GuildStore(database, GUILD_ID)
        doms: list[str] = []
        keep = os.environ.get("ARBITER_SCREENSHOTS")
        for page in PAGES:
            path, ids = address_of(page, doms)
            shot = tmp_path / f"{page.name}.png"
            dom = await browse(browser, f"http://127.0.0.1:{port}{path}", shot, tmp_path / "p")
            text = shown_text(dom)
            for expected in await page.texts(store, ids):
                assert " ".join(expected.split()) in text, (page.name, expected)
            check_screenshot(shot, page.name)
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(keep) / shot.name)
            doms.append(dom)
    finally:
        await runner.cleanup()
        await database.close()
