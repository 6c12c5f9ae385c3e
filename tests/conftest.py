"""Shared test fixtures: where the project's shared fixtures live."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
FIXTURES = SHARED / "fixtures"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The read-only `../shared/fixtures` folder (regulation fixtures, chess.com payloads)."""
    assert FIXTURES.is_dir(), f"shared fixtures not found at {FIXTURES}"
    return FIXTURES
