"""The layering rule of README.md, For developers (imports only point down) and the style
checks (ruff)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

FORBIDDEN = {
    "core": {"discord", "aiosqlite", "apscheduler", "aiohttp", "asyncio", "sqlite3"}
    | {"storage", "bot", "cogs"},
    "storage": {"discord", "bot", "cogs", "apscheduler", "aiohttp"},
    "bot": {"cogs"},
    "cogs": {"storage"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_point_down(layer: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(_imports(path) & FORBIDDEN[layer])
        for path in sorted((ROOT / layer).rglob("*.py"))
        if _imports(path) & FORBIDDEN[layer]
    }
    assert offenders == {}


def test_nothing_imports_cogs() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for layer in ("core", "storage", "bot")
        for path in (ROOT / layer).rglob("*.py")
        if "cogs" in _imports(path)
    ]
    assert offenders == []


@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff_is_clean(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    """mypy, configured in pyproject.toml: strict on core/, storage/, bot/ and cogs/."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


UNIT_OF_WORK = {
    "bot/league": ("league_change(", ("tour_change(", ".change(", "GuildUnit", "TourUnit")),
    "bot/tour": ("tour_change(", ("league_change(", ".change(", "GuildUnit", "LeagueUnit")),
}
"""What each competition's use cases open, and what they must not: `store.change` builds every
repository, for the scheduler and the pin refresher only."""


@pytest.mark.parametrize("folder", sorted(UNIT_OF_WORK))
def test_use_cases_open_their_competitions_unit_of_work(folder: str) -> None:
    used, forbidden = UNIT_OF_WORK[folder]
    texts = {path: path.read_text(encoding="utf-8") for path in (ROOT / folder).rglob("*.py")}
    assert any(used in text for text in texts.values())
    offenders = {
        str(path.relative_to(ROOT)): [word for word in forbidden if word in text]
        for path, text in texts.items()
        if any(word in text for word in forbidden)
    }
    assert offenders == {}
