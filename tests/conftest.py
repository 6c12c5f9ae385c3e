"""Shared test fixtures: the shared fixtures folder, a migrated database, the Discord harness."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage.database import Database

SHARED = Path(__file__).resolve().parents[2] / "shared"
FIXTURES = SHARED / "fixtures"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The read-only `../shared/fixtures` folder (regulation fixtures, chess.com payloads)."""
    assert FIXTURES.is_dir(), f"shared fixtures not found at {FIXTURES}"
    return FIXTURES


@pytest.fixture
async def database(tmp_path: Path) -> Database:
    """A migrated Arbiter database in a real SQLite file under `tmp_path`."""
    database = await Database.open(tmp_path / "arbiter.db")
    await database.migrate()
    yield database
    await database.close()
