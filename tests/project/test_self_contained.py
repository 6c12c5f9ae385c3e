"""The clone alone is the project (issue 32): a copy of the repository's files, with nothing
beside it, holds the test fixtures, every link of the README and of docs/ leads to one of its
files, no file of the project names a path outside it, and the tests run there."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import FIXTURES, ROOT

CHECKED = ("bot", "cogs", "core", "storage", "docs", "benchmarks", "tests")
"""The folders whose files may not point outside the repository, with the top-level files."""

TOP_LEVEL = ("README.md", "config.example.toml", "pyproject.toml")

OUTSIDE = re.compile(r"\.\./shared|(?<!storage/)\bshared/|\b(?:RULES|SURFACE|DESIGN)\.md\b")
"""What named the reference folder once kept beside the clone: `../shared/…`, its rule list,
its command surface and its design notes."""

DOCUMENT = re.compile(r"[\w./-]*\b(?:formats/[\w.-]+|(?:season-file|tour-file|replay|rules)\.md)")
"""A mention of a format or rules document, which must name a file of the repository."""

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
"""A Markdown link's target."""

THIS_FILE = Path(__file__).relative_to(ROOT).as_posix()
"""This test spells the forbidden names in its patterns, so it is the one file not scanned."""


CACHES = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis"}
"""Folders a run leaves in a checkout that is not a git repository (an unpacked archive)."""


def _tracked(root: Path) -> list[str]:
    """The repository's files as a clone has them: tracked, plus new ones not ignored; in a
    copy that is no git repository, every file but the caches a run leaves."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0 or not (root / ".git").exists():
        return sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not CACHES & set(p.relative_to(root).parts)
        )
    names = listed.stdout.decode().split("\0")
    return [name for name in names if name and (root / name).is_file()]


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's files copied to `<tmp>/alone/repo`, nothing else in `<tmp>/alone`."""
    into = tmp_path_factory.mktemp("alone") / "repo"
    for name in _tracked(ROOT):
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, into / name)
    assert [p.name for p in into.parent.iterdir()] == ["repo"]
    return into


def _texts(root: Path) -> dict[str, str]:
    """Every checked file of the copy `root` that is UTF-8 text, by its path in the
    repository."""
    texts = {}
    for name in _tracked(root):
        if name == THIS_FILE or not (name in TOP_LEVEL or name.split("/")[0] in CHECKED):
            continue
        try:
            texts[name] = (root / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # an image or a database: no path to read in it
    return texts


def _resolves(root: Path, name: str, target: str) -> bool:
    """Whether `target`, as written in file `name`, is a file or folder of the repository:
    relative to that file's folder or to the repository root (`bot/formats/tour_file` names a
    module, so `.py` is tried too)."""
    for base in (root / name).parent, root:
        for candidate in (base / target, base / f"{target}.py"):
            path = candidate.resolve()
            if path.is_relative_to(root.resolve()) and path.exists():
                return True
    return False


def test_the_copy_holds_every_fixture_the_tests_read(copy: Path) -> None:
    """Every file of tests/fixtures is part of the repository (none ignored or left
    untracked), so a clone has the FIDE tables, the TRF files and the chess.com answers."""
    here = sorted(p.relative_to(ROOT).as_posix() for p in FIXTURES.rglob("*") if p.is_file())
    there = sorted(p.relative_to(copy).as_posix() for p in (copy / "tests" / "fixtures").rglob("*"))
    assert here == [name for name in there if (copy / name).is_file()]
    for name in (
        "tests/fixtures/README.md",
        "tests/fixtures/tiebreaks/berger_published.txt",
        "tests/fixtures/tiebreaks/fide_held_round_robin.trf",
        "tests/fixtures/tiebreaks/airthings_masters_2020_prelim.trf",
        "tests/fixtures/chesscom/team_match_daily_finished_12803.json",
        "docs/rules.md",
        "docs/season-file.md",
        "docs/tour-file.md",
        "docs/replay.md",
    ):
        assert (copy / name).is_file(), name


def test_every_link_of_the_readme_and_docs_leads_to_a_file_of_the_repository(
    copy: Path,
) -> None:
    pages = ["README.md", *sorted(f"docs/{p.name}" for p in (copy / "docs").glob("*.md"))]
    broken = []
    links = 0
    for page in pages:
        for target in LINK.findall((copy / page).read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or a heading of the same page
            links += 1
            path = ((copy / page).parent / target.split("#")[0]).resolve()
            if not (path.is_relative_to(copy.resolve()) and path.is_file()):
                broken.append(f"{page}: {target}")
    assert broken == []
    assert links > 20  # the README's guides and the docs' cross-links were all read


def test_no_file_of_the_project_names_a_path_outside_it(copy: Path) -> None:
    """Docstrings, `--help` texts, replies, docs and tests name docs/rules.md and the
    formats of docs/, never the shared folder that once sat beside the clone."""
    texts = _texts(copy)
    assert {"README.md", "bot/cli/league.py", "docs/rules.md", "tests/conftest.py"} <= set(texts)
    outside = [
        f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
        for name, text in texts.items()
        for m in OUTSIDE.finditer(text)
    ]
    unresolved = [
        f"{name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group()}"
        for name, text in texts.items()
        for m in DOCUMENT.finditer(text)
        if not _resolves(copy, name, m.group().rstrip("."))
    ]
    assert outside == []
    assert unresolved == []


def test_the_patterns_catch_what_they_are_for(tmp_path: Path) -> None:
    """The checks above would see an outside path: each pattern matches the old spellings."""
    for old in ("../shared/RULES.md", "see SURFACE.md", "DESIGN.md's layers", "shared/fixtures"):
        assert OUTSIDE.search(old), old
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("")
    assert _resolves(tmp_path, "README.md", "docs/rules.md")
    assert _resolves(tmp_path, "docs/tour.md", "rules.md")
    for old in ("season-file.md", "formats/tour-file.md", "formats/replay.md"):
        [found] = DOCUMENT.findall(f"the file ({old})")
        assert not _resolves(tmp_path, "bot/cli/league.py", found), old


def test_the_tests_find_their_fixtures_and_rules_in_the_copy(copy: Path) -> None:
    """Tests that read the Berger tables, the TRF exercises and docs/rules.md pass when run
    in the copy, with the copy first on the import path."""
    environ = {**os.environ, "PYTHONPATH": str(copy)}
    environ.pop("PYTEST_XDIST_WORKER", None)
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import core, tests.support.paths as p; print(p.ROOT, core.__file__)",
        ],
        cwd=copy,
        env=environ,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert found == [str(copy), str(copy / "core" / "__init__.py")]  # the copy's code, not ours
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "tests/project/test_rules_coverage.py",
            "tests/core/test_berger.py",
            "tests/core/test_trf.py",
        ],
        cwd=copy,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert re.search(r"\b\d+ passed\b", run.stdout) and " failed" not in run.stdout


def test_both_demos_run_in_the_copy_in_the_readmes_order(copy: Path) -> None:
    """`arbiter demo` then `arbiter demo --tour`, as the README gives them, in the copy with
    nothing beside it: each writes its own default folder (the league at 4 clubs a division,
    to keep the suite short; the full league is the same script at 13)."""
    readme = (copy / "README.md").read_text(encoding="utf-8")
    assert readme.index("&& arbiter demo\n") < readme.index("arbiter demo --tour\n")
    environ = {**os.environ, "PYTHONPATH": str(copy)}
    environ.pop("PYTEST_XDIST_WORKER", None)
    for argv in (["demo", "--clubs", "4"], ["demo", "--tour"]):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *argv],
            cwd=copy,
            env=environ,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
    assert (copy / "demo-out" / "arbiter.db").is_file()
    assert (copy / "demo-tour-out" / "tour.json").is_file()
