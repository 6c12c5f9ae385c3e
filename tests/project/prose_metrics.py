"""Measures how dense the docstrings are: parentheses and semicolons per 100 words.

Issue 33 asks for python-chess's tone, which has about 1.5 parentheses and no
semicolons per 100 words of docstring. Run `python3 -m tests.project.prose_metrics`
to print the figures per folder.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.support.paths import ROOT

PACKAGES = ("core", "storage", "bot", "cogs")
"""The production packages whose docstrings are measured."""


@dataclass(frozen=True)
class Prose:
    """The words, opening parentheses and semicolons of some docstrings."""

    words: int = 0
    parentheses: int = 0
    semicolons: int = 0

    def __add__(self, other: Prose) -> Prose:
        return Prose(
            self.words + other.words,
            self.parentheses + other.parentheses,
            self.semicolons + other.semicolons,
        )

    def per_100_words(self) -> tuple[float, float]:
        """Returns parentheses and semicolons per 100 words."""
        if self.words == 0:
            return 0.0, 0.0
        return 100 * self.parentheses / self.words, 100 * self.semicolons / self.words


def docstrings(source: str) -> Iterator[str]:
    """Yields every docstring of a module: module, class, function and attribute ones.

    A docstring here is any string literal that stands alone as a statement.
    """
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.value.value


def measure(text: str) -> Prose:
    """Counts the words, opening parentheses and semicolons of one text."""
    return Prose(len(text.split()), text.count("("), text.count(";"))


def measure_file(path: Path) -> Prose:
    """Adds up the prose of every docstring in one Python file."""
    total = Prose()
    for text in docstrings(path.read_text(encoding="utf-8")):
        total += measure(text)
    return total


def folder_of(path: Path) -> str:
    """Names the folder a file is counted under: `bot/<sub>` in bot/, else the package."""
    parts = path.relative_to(ROOT).parts
    if parts[0] == "bot" and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0]


def by_folder() -> dict[str, Prose]:
    """Measures the docstrings of every production package, folder by folder."""
    folders: dict[str, Prose] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            folder = folder_of(path)
            folders[folder] = folders.get(folder, Prose()) + measure_file(path)
    return folders


def report() -> str:
    """Formats the figures per folder and in total as a small table."""
    folders = by_folder()
    lines = [f"{'folder':<16}{'words':>8}{'( /100':>9}{'; /100':>9}"]
    total = Prose()
    for folder, prose in sorted(folders.items()):
        total += prose
        parens, semis = prose.per_100_words()
        lines.append(f"{folder:<16}{prose.words:>8}{parens:>9.2f}{semis:>9.2f}")
    parens, semis = total.per_100_words()
    lines.append(f"{'all':<16}{total.words:>8}{parens:>9.2f}{semis:>9.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
