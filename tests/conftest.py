"""Shared test fixtures: the shared fixtures folder, a migrated database, the Discord harness,
the chess.com fake and a client on it, the populated league of the command-surface tests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bot.app.arbiter import ArbiterBot
from bot.app.config import Config, DatabaseConfig
from bot.chesscom.client import ChessComClient, ClientSettings
from storage.database import Database
from tests.support.chesscom_fake import FakeChessCom, running_fake
from tests.support.command_world import World, build_world
from tests.support.discord_harness import DiscordHarness
from tests.support.paths import SHARED

# Property tests judge results, never speed: no per-example deadline, so a loaded CI machine
# cannot fail a correct example for being slow (benchmarks/ measures speed instead).
settings.register_profile("arbiter", deadline=None)
settings.load_profile("arbiter")

FIXTURES = SHARED / "fixtures"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop at once, with one clear line, when the shared reference folder is missing: the
    regulation fixtures are inputs of many tests, which would otherwise fail one by one."""
    if not FIXTURES.is_dir():
        pytest.exit(
            f"the shared folder is missing: expected {SHARED} beside this checkout "
            "(regulations, RULES.md and fixtures; see README.md)",
            returncode=4,
        )


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The read-only `../shared/fixtures` folder (regulation fixtures, chess.com payloads)."""
    assert FIXTURES.is_dir(), f"shared fixtures not found at {FIXTURES}"
    return FIXTURES


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated Arbiter database in a real SQLite file under `tmp_path`."""
    database = await Database.open(tmp_path / "arbiter.db")
    await database.migrate()
    yield database
    await database.close()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Default configuration with the database in `tmp_path` and no token."""
    return Config(database=DatabaseConfig(path=tmp_path / "bot.db"))


@pytest.fixture
async def bot(config: Config) -> AsyncIterator[ArbiterBot]:
    """An Arbiter bot after its real `setup_hook` (storage, every cog, scheduler), offline."""
    bot = ArbiterBot(config)
    async with bot:
        await bot.setup_hook()
        yield bot


@pytest.fixture
def harness(bot: ArbiterBot) -> Iterator[DiscordHarness]:
    """The Discord harness on `bot`: `await harness.command("setup show", user=...)`. The test
    fails if any REST call got no recorded answer."""
    harness = DiscordHarness(bot)
    yield harness
    harness.check()


@pytest.fixture
def fake(fixtures_dir: Path) -> Iterator[FakeChessCom]:
    """The 127.0.0.1 chess.com fake serving the shared payloads (a module may serve more)."""
    with running_fake(fixtures_dir) as server:
        yield server


@pytest.fixture
async def client(fake: FakeChessCom) -> AsyncIterator[ChessComClient]:
    """A chess.com client on `fake`, no retries."""
    settings = ClientSettings(contact="tests@example.org", base_url=fake.base_url, max_retries=0)
    async with ChessComClient(settings) as chesscom:
        yield chesscom


@pytest.fixture(scope="module")
def world_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, World]:
    """The populated league of `tests.support.command_world`, built once per module (copy it with
    `copy_world` before a test changes it)."""
    path = tmp_path_factory.mktemp("world") / "league.db"
    return path, asyncio.run(build_world(path))
