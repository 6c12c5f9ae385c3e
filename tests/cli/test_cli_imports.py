"""Offline commands start fast: `arbiter --help`, `berger`, `standings`, `league` and `schema`
import neither discord.py nor aiohttp (issue 8, item 8); the commands that need them import
them when they run."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.paths import FIXTURES, ROOT

HEAVY = {"discord", "aiohttp", "aiosqlite", "apscheduler"}
"""Top-level packages an offline command must not load."""


def imported_packages(*args: str) -> set[str]:
    """Run `python -X importtime -m bot ARGS` from the repository root and return the
    top-level names of every module it imported (importtime writes them to stderr)."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    names = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "package":  # the header line
                names.add(name.split(".")[0])
    assert "bot" in names and "argparse" in names, "importtime output not understood"
    return names


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("berger", "4"),
        ("berger", "5", "--double", "--json"),
        ("standings", str(FIXTURES / "tiebreaks" / "fide_held_round_robin.trf")),
        ("league", "docs/examples/season.json"),
        ("league", "docs/examples/season.json", "--promotion", "--json"),
        ("schema", "season"),
        ("schema", "tour"),
        ("tour", "tests/data/tour_three_events.json"),
        ("season", "--help"),
        ("db", "--help"),
        ("chesscom", "match", "--help"),
    ],
    ids=" ".join,
)
def test_offline_commands_import_neither_discord_nor_aiohttp(args: tuple[str, ...]) -> None:
    loaded = imported_packages(*args) & HEAVY
    assert not loaded, f"`arbiter {' '.join(args)}` imported {sorted(loaded)}"


def test_the_measurement_sees_discord_where_it_is_imported() -> None:
    """The parser above is not blind: `arbiter commands` builds the tree, so it loads discord."""
    assert "discord" in imported_packages("commands")


@pytest.mark.parametrize("args", [("--help",), ("berger", "4")], ids=" ".join)
def test_commands_without_a_tour_do_not_load_the_tour_file_reader(args: tuple[str, ...]) -> None:
    """python-chess (under the tour file reader: PGN games) is loaded by `arbiter tour`, not by
    every command's start (it cost each one about a quarter of a second)."""
    assert "chess" not in imported_packages(*args)
    assert "chess" in imported_packages("tour", "tests/data/tour_three_events.json")
