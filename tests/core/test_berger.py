"""CORE-1: generated Berger tables equal FIDE's published tables exactly."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from core.berger import (
    berger_round,
    berger_table,
    double_berger_table,
    draw_lots,
    pairing_table,
)


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


def _colour_runs(table_rounds, player: int) -> int:
    """The longest run of one colour for `player` over the rounds they play."""
    colours = [
        "w" if p.white == player else "b"
        for boards in table_rounds
        for p in boards
        if player in (p.white, p.black)
    ]
    longest = run = 1
    for before, after in itertools.pairwise(colours):
        run = run + 1 if before == after else 1
        longest = max(longest, run)
    return longest


def test_core_1_double_round_robin_repeats_first_cycle_with_colours_reversed() -> None:
    for players in range(3, 25):
        single = berger_table(players)
        for swap in (True, False):
            table = double_berger_table(players, swap_last_two=swap)
            half = len(table.rounds) // 2
            assert len(table.rounds) == 2 * len(single.rounds)
            # The second cycle is the table in its own order, colours reversed.
            for first, second in zip(single.rounds, table.rounds[half:], strict=True):
                assert [(p.black, p.white) for p in first] == [(p.white, p.black) for p in second]
            assert table.byes[half:] == single.byes
        games = [(p.white, p.black) for boards in table.rounds for p in boards]
        assert len(games) == len(set(games)) == players * (players - 1)


def test_core_1_double_round_robin_swaps_last_two_rounds_of_first_cycle_by_default() -> None:
    single = berger_table(8).rounds
    swapped = double_berger_table(8).rounds
    plain = double_berger_table(8, swap_last_two=False).rounds
    assert swapped[:5] == single[:5]
    assert swapped[5] == single[6] and swapped[6] == single[5]
    assert plain[:7] == single
    # The swap is what FIDE recommends it for: no three same colours in a row.
    assert max(_colour_runs(swapped, p) for p in range(1, 9)) == 2
    assert max(_colour_runs(plain, p) for p in range(1, 9)) == 3


def test_core_1_double_round_robin_never_gives_three_same_colours_in_a_row() -> None:
    """CORE-1: FIDE swaps the first cycle's last two rounds so that no one has one colour
    three times running; the second cycle keeps the table order (the swap is not repeated),
    else with 4 players no. 4 has White in rounds 3, 4 and 5."""
    for players in range(3, 25):
        rounds = double_berger_table(players).rounds
        assert max(_colour_runs(rounds, p) for p in range(1, players + 1)) == 2, players
    assert [(p.white, p.black) for p in double_berger_table(4).rounds[4]] == [(3, 4), (2, 1)]


def test_core_1_pairing_table_accepts_3_to_24_players_only() -> None:
    assert len(pairing_table(24).rounds) == 23
    assert len(pairing_table(3, double=True).rounds) == 6
    for players in (2, 25):
        with pytest.raises(ValueError, match="3 to 24 players"):
            pairing_table(players)


def test_cct_8a_drawing_of_lots_is_replayed_by_its_seed() -> None:
    entrants = [f"player{i}" for i in range(16)]
    first = draw_lots(entrants, seed=20201122)
    assert draw_lots(entrants, seed=20201122) == first
    assert sorted(first) == sorted(entrants)
    assert draw_lots(entrants, seed="airthings") == draw_lots(entrants, seed="airthings")
    draws = {draw_lots(entrants, seed=s) for s in range(20)}
    assert len(draws) == 20, "different seeds should give different draws"
    assert entrants == [f"player{i}" for i in range(16)], "the input must not be shuffled"


def test_cct_8a_drawing_of_lots_rejects_duplicates_and_bad_seeds() -> None:
    with pytest.raises(ValueError, match="once"):
        draw_lots(["a", "b", "a"], seed=1)
    with pytest.raises(ValueError, match="seed"):
        draw_lots(["a", "b"], seed=1.5)  # type: ignore[arg-type]
