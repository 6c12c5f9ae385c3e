"""The tests import their helper modules (tests/support/*.py) as `tests.support.x` only: a
bare `import chesscom_fake` works only when pytest put that folder on sys.path, and loads a
second copy of the module whose classes are not the first copy's."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parents[1]
HELPERS = frozenset(
    path.stem for path in (TESTS / "support").glob("*.py") if path.name != "__init__.py"
)


def test_helpers_are_imported_through_the_tests_package() -> None:
    assert {"chesscom_fake", "cl_seasons", "round_robins", "rendering_season"} <= HELPERS
    bare = []
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            bare += [f"{path.name}: {n}" for n in names if n.split(".")[0] in HELPERS]
    assert bare == []


def test_no_test_file_is_left_at_the_top_of_tests() -> None:
    """Tests live in one folder per package or story: core, storage, league, tour, stories …"""
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
