"""CORE-2, CORE-3, CCT-8b: standings and tie-breaks on FIDE's worked exercise, a real
Champions Chess Tour preliminary and hand-made cases."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from core.results import Outcome, Result, Scoring
from core.standings import standings
from core.tiebreaks import Bye, Criterion, DeReading, Game, player_values
from core.trf import games_and_byes, parse_trf

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def _load(fixtures_dir: Path, stem: str) -> tuple[dict[int, str], tuple, tuple, dict]:
    folder = fixtures_dir / "tiebreaks"
    tournament = parse_trf((folder / f"{stem}.trf").read_text())
    games, byes = games_and_byes(tournament)
    expected = json.loads((folder / f"{stem}.expected.json").read_text())
    return {p.start_no: p.name for p in tournament.players}, games, byes, expected


def test_core_3_fide_worked_exercise_sb_sb_c1_and_ks(fixtures_dir: Path) -> None:
    names, games, byes, expected = _load(fixtures_dir, "fide_held_round_robin")
    values = player_values(list(names), games, byes)
    published = expected["by_start_number"]
    assert {str(p): float(v) for p, v in values.sb.items()} == published["SB"]
    assert {str(p): float(v) for p, v in values.sb_c1.items()} == published["SB-C1"]
    assert {str(p): float(v) for p, v in values.ks.items()} == published["KS"]


def test_core_3_fide_worked_exercise_ranks_by_points_then_de(fixtures_dir: Path) -> None:
    names, games, byes, expected = _load(fixtures_dir, "fide_held_round_robin")
    for reading in DeReading:
        rows = standings(
            list(names), games, byes, criteria=(Criterion.PTS, Criterion.DE), reading=reading
        )
        ranks = {str(row.player): row.rank for row in rows}
        assert ranks == expected["by_start_number"]["rank_by_PTS_then_DE"]


def test_core_2_forfeit_win_counts_as_win_and_as_game_for_sb_and_de(
    fixtures_dir: Path,
) -> None:
    names, games, byes, _ = _load(fixtures_dir, "fide_held_round_robin")
    assert Game(5, 6, Result.BLACK_FORFEIT_WIN, 4) in games
    rows = {row.player: row for row in standings(list(names), games, byes)}
    helene, franck = rows[6], rows[5]
    assert helene.wins == 1 and franck.wins == 1
    # Helene's SB: ½ × David's 1½ plus 1 × Franck's 1½ for the forfeit.
    assert helene.sb == F(9, 4)
    # DE over the 1½ group {David, Franck, Helene} counts the forfeit: Helene 1½.
    assert (helene.de, franck.de, rows[4].de) == (F(3, 2), F(1), F(1, 2))


def test_cct_8b_airthings_masters_preliminary_reproduces_official_order(
    fixtures_dir: Path,
) -> None:
    names, games, byes, expected = _load(fixtures_dir, "airthings_masters_2020_prelim")
    assert len(games) == 66
    for reading in DeReading:
        rows = standings(list(names), games, byes, reading=reading)
        assert [names[row.player] for row in rows] == expected["official_order"]
        assert [row.rank for row in rows] == list(range(1, 13))
        for row in rows:
            published = expected["values_by_start_number"][str(row.player)]
            assert float(row.points) == published["PTS"]
            assert row.wins == published["WIN"]
            assert float(row.sb) == published["SB"]
            assert float(row.ks) == published["KS"]


# Seed-62 random 6-player round robin: 2 and 3 tie on points and on DE over their
# points group {1, 2, 3}, and 2 beat 3.
_READINGS_DIFFER = [
    Game(1, 6, B), Game(2, 5, W), Game(3, 4, W), Game(6, 4, W), Game(5, 3, D),
    Game(1, 2, D), Game(2, 6, B), Game(3, 1, D), Game(4, 5, W), Game(6, 5, B),
    Game(1, 4, W), Game(2, 3, W), Game(3, 6, W), Game(4, 2, D), Game(5, 1, B),
]  # fmt: skip


def test_cct_8b_de_once_over_points_group_versus_fide2024_reapplied() -> None:
    players = range(1, 7)
    criteria = (Criterion.PTS, Criterion.DE)
    cct = standings(players, _READINGS_DIFFER, criteria=criteria)
    fide = standings(players, _READINGS_DIFFER, criteria=criteria, reading=DeReading.FIDE2024)
    assert [(r.rank, r.player) for r in cct] == [(1, 6), (2, 2), (2, 3), (4, 1), (5, 4), (6, 5)]
    assert [(r.rank, r.player) for r in fide] == [(1, 6), (2, 2), (3, 3), (4, 1), (5, 4), (6, 5)]
    points = {r.player: r.points for r in cct}
    assert points[2] == points[3] == points[1]
    # The DE shown is the one over the whole points group, in both readings.
    assert {r.player: r.de for r in cct} == {r.player: r.de for r in fide}
    assert cct[1].de == cct[2].de


def test_core_2_scoring_3_1_0_changes_points_and_sb() -> None:
    games = [Game("a", "b", W), Game("b", "c", D), Game("c", "a", D)]
    rows = {r.player: r for r in standings("abc", games, scoring=Scoring(F(3), F(1), F(0)))}
    assert (rows["a"].points, rows["b"].points, rows["c"].points) == (4, 1, 2)
    assert rows["a"].sb == 3 * 1 + 1 * 2
    assert [r.player for r in standings("abc", games, scoring=Scoring(F(3), F(1), F(0)))] == [
        "a",
        "c",
        "b",
    ]


def test_core_2_double_forfeit_gives_nobody_points_but_the_pair_met() -> None:
    games = [Game("a", "b", Result.DOUBLE_FORFEIT), Game("b", "c", D), Game("c", "a", D)]
    rows = {r.player: r for r in standings("abc", games)}
    assert (rows["a"].points, rows["b"].points, rows["c"].points) == (F(1, 2), F(1, 2), 1)
    assert (rows["a"].wins, rows["b"].wins) == (0, 0)
    # a and b met (the double forfeit counts as their game), so DE applies: 0 each.
    assert (rows["a"].de, rows["b"].de) == (0, 0)
    assert rows["a"].rank == rows["b"].rank == 2


def test_core_3_remaining_ties_share_the_rank() -> None:
    games = [Game("a", "b", D), Game("b", "c", D), Game("c", "a", D), Game("d", "a", B)]
    games += [Game("d", "b", B), Game("c", "d", W)]
    rows = standings("abcd", games)
    assert [(r.rank, r.player, r.tied) for r in rows] == [
        (1, "a", True),
        (1, "b", True),
        (1, "c", True),
        (4, "d", False),
    ]
    assert rows[3].de is None


def test_core_3_de_needs_every_tied_pair_to_have_met() -> None:
    # Half-way through: a and b are tied but have not met yet.
    games = [Game("a", "c", W), Game("b", "d", W)]
    rows = standings("abcd", games)
    assert rows[0].de is None and rows[0].rank == rows[1].rank == 1


def test_core_3_ks_threshold_is_half_the_maximum_possible_score() -> None:
    # a 2, b 1, c 0 of a possible 2: KS counts points against a and b (≥ 1).
    games = [Game("a", "b", W), Game("b", "c", W), Game("c", "a", B)]
    values = player_values("abc", games)
    assert values.ks == {"a": 1, "b": 0, "c": 0}
    assert player_values("abc", games, max_score=F(4)).ks == {"a": 0, "b": 0, "c": 0}
    assert player_values("abc", games, max_score=F(1)).ks == {"a": 1, "b": 0, "c": 0}
    assert player_values("abc", games, max_score=F(0)).ks == {"a": 2, "b": 1, "c": 0}


def test_core_2_scored_byes_add_points_but_no_sb() -> None:
    games = [Game("a", "b", W)]
    values = player_values("abc", games, [Bye("c", Outcome.DRAW, 1)])
    assert values.points == {"a": 1, "b": 0, "c": F(1, 2)}
    assert values.sb["c"] == 0 and values.wins["c"] == 0


def test_core_3_bad_criteria_and_unknown_players_are_rejected() -> None:
    games = [Game("a", "b", W)]
    with pytest.raises(ValueError, match="starts with PTS"):
        standings("ab", games, criteria=(Criterion.SB,))
    with pytest.raises(ValueError, match="twice"):
        standings("ab", games, criteria=(Criterion.PTS, Criterion.SB, Criterion.SB))
    with pytest.raises(ValueError, match="not a player"):
        standings("ab", [Game("a", "z", W)])
    with pytest.raises(ValueError, match="themselves"):
        standings("ab", [Game("a", "a", W)])


def test_core_3_event_ordered_drawing_of_lots_breaks_remaining_ties_reproducibly() -> None:
    games = [Game("a", "b", D), Game("b", "c", D), Game("c", "a", D), Game("d", "a", B)]
    games += [Game("d", "b", B), Game("c", "d", W)]
    rows = standings("abcd", games, lots_seed="event-2026")
    drawn = [r.player for r in rows[:3]]
    assert sorted(drawn) == ["a", "b", "c"]
    assert [(r.rank, r.tied, r.by_lot) for r in rows] == [
        (1, False, True),
        (2, False, True),
        (3, False, True),
        (4, False, False),
    ]
    assert [r.player for r in standings("abcd", list(reversed(games)), lots_seed="event-2026")][
        :3
    ] == drawn
    orders = {tuple(r.player for r in standings("abcd", games, lots_seed=s)[:3]) for s in range(40)}
    assert len(orders) > 1  # the seed, not the input order, decides
