"""The tests import the chess.com fake as `tests.chesscom_fake` only: a bare
`import chesscom_fake` works only when pytest put tests/ on sys.path, and loads a second copy
of the module whose classes are not the first copy's."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
HELPERS = frozenset({"chesscom_fake"})


def test_the_chesscom_fake_is_imported_through_the_tests_package() -> None:
    bare = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            bare += [f"{path.name}: {n}" for n in names if n.split(".")[0] in HELPERS]
    assert bare == []
