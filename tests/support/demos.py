"""League demos played in the test process (`arbiter demo` through `bot.cli.main`), each seed
and size once per test process: tests that only read a demo's outputs share its run (the
`played` fixture of tests/conftest.py). A test that changes a demo's database works on a copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

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
