"""CORE-1: generated Berger tables equal FIDE's published tables exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.berger import berger_round, berger_table


def _published(path: Path) -> dict[int, list[list[tuple[int, int]]]]:
    """Parse berger_published.txt into {even size: [[(white, black), ...] per round]}."""
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    size = 0
    for line in path.read_text().splitlines():
        if header := re.match(r"(\d+) or (\d+) players:", line):
            size = int(header.group(2))
            tables[size] = []
        elif line.startswith("Rd"):
            # The published text once separates games by ". " instead of ", ".
            games = re.findall(r"(\d+)-(\d+)", line.split(":", 1)[1])
            tables[size].append([(int(w), int(b)) for w, b in games])
    return tables


def test_core_1_every_published_table_is_reproduced(fixtures_dir: Path) -> None:
    published = _published(fixtures_dir / "tiebreaks" / "berger_published.txt")
    assert sorted(published) == list(range(4, 17, 2))
    for size, rounds in published.items():
        table = berger_table(size)
        generated = [[(p.white, p.black) for p in r] for r in table.rounds]
        assert generated == rounds, f"table for {size} players differs"


def test_core_1_odd_count_gives_one_bye_per_round_and_no_phantom_game() -> None:
    table = berger_table(13)
    assert len(table.rounds) == 13
    assert sorted(table.byes) == list(range(1, 14))
    for boards in table.rounds:
        assert len(boards) == 6
        assert all(14 not in (p.white, p.black) for p in boards)


def test_core_1_everyone_meets_everyone_once() -> None:
    for players in range(3, 25):
        table = berger_table(players)
        met = [frozenset((p.white, p.black)) for r in table.rounds for p in r]
        assert len(met) == len(set(met)) == players * (players - 1) // 2


def test_core_1_round_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="outside"):
        berger_round(6, 6)
    with pytest.raises(ValueError, match="at least 2"):
        berger_table(1)
