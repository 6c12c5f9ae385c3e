"""League demos played in the test process (`arbiter demo` through `bot.cli.main`), each seed
and size once per test process: tests that only read a demo's outputs share its run (the
`played` fixture of tests/conftest.py). A test that changes a demo's database works on a copy."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.cli import main
from bot.offline.demo.tour_run import TourDemoResult, play_tour

Played = dict[tuple[int, int], tuple[Path, str]]
"""The demos played so far by (seed, clubs): their output folder and what they printed."""


def play_demo(out: Path, seed: int, clubs: int, capsys: pytest.CaptureFixture[str]) -> str:
    """`arbiter demo --seed SEED --clubs CLUBS --out OUT`: what it printed, after checking it
    succeeded and showed its progress on stderr."""
    code = main(["demo", "--seed", str(seed), "--clubs", str(clubs), "--out", str(out)])
    printed, err = capsys.readouterr()
    assert code == 0, err
    assert f"round {clubs if clubs % 2 else clubs - 1}/" in err  # progress on stderr
    return printed


def demo_played(
    played: Played,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    seed: int,
    clubs: int,
) -> tuple[Path, str]:
    """The demo of `seed` with `clubs` clubs a division, played on first use (`play_demo`)."""
    if (seed, clubs) not in played:
        out = tmp_path_factory.mktemp(f"demo-{seed}-{clubs}") / "demo"
        played[seed, clubs] = (out, play_demo(out, seed, clubs, capsys))
    return played[seed, clubs]


_TOURS: dict[int, TourDemoResult] = {}


def tour_played(tmp_path_factory: pytest.TempPathFactory, seed: int = 1) -> TourDemoResult:
    """The tour demo of `seed` (`arbiter demo --tour`), played once per test process.

    The tests that read it share its folder. A test that changes its database works on a copy.
    """
    if seed not in _TOURS:
        out = tmp_path_factory.mktemp(f"demo-tour-{seed}") / "demo"
        _TOURS[seed] = play_tour(seed, out, progress=io.StringIO())
    return _TOURS[seed]
