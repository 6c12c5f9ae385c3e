"""TRF-16 for round robins: parsing, writing and the errors a malformed file gives."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from core.berger import berger_table
from core.results import Outcome, Result
from core.standings import standings
from core.tiebreaks import Bye, Game
from core.trf import TrfError, games_and_byes, parse_trf
from core.trf_writer import dump_trf, round_robin_trf


def _fixture(fixtures_dir: Path, stem: str) -> str:
    return (fixtures_dir / "tiebreaks" / f"{stem}.trf").read_text()


def _player_line(text: str, start_no: int) -> tuple[int, str]:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("001") and int(line[4:8]) == start_no:
            return number, line
    raise AssertionError(start_no)


def test_core_2_trf_player_records_and_forfeits_are_read(fixtures_dir: Path) -> None:
    tournament = parse_trf(_fixture(fixtures_dir, "fide_held_round_robin"))
    assert tournament.name == "FIDE C.07 2023 Tie-Break Exercises"
    alyx = tournament.players[0]
    assert (alyx.start_no, alyx.name, alyx.rating, alyx.federation) == (1, "Alyx", 2200, "NOR")
    assert (alyx.sex, alyx.fide_id, alyx.birth_date, alyx.line) == ("m", "0", "1990/01/01", 5)
    assert [(r.opponent, r.colour, r.code) for r in alyx.rounds][:2] == [
        (5, "w", "="),
        (2, "w", "1"),
    ]
    games, byes = games_and_byes(tournament)
    assert len(games) == 15 and byes == ()
    assert Game(5, 6, Result.BLACK_FORFEIT_WIN, 4) in games


def test_core_2_trf_points_and_rank_columns_are_never_trusted(fixtures_dir: Path) -> None:
    text = _fixture(fixtures_dir, "airthings_masters_2020_prelim")
    lines = text.splitlines()
    forged = [
        line[:80] + "99.5   99" + line[89:] if line.startswith("001") else line for line in lines
    ]
    names = {p.start_no: p.name for p in parse_trf(text).players}
    original = standings(list(names), *games_and_byes(parse_trf(text)))
    assert standings(list(names), *games_and_byes(parse_trf("\n".join(forged)))) == original
    assert original[0].player == 4 and original[0].points == F(13, 2)


@pytest.mark.parametrize("stem", ["fide_held_round_robin", "airthings_masters_2020_prelim"])
def test_core_2_trf_written_back_is_byte_identical(fixtures_dir: Path, stem: str) -> None:
    text = _fixture(fixtures_dir, stem)
    records = [line for line in text.splitlines() if line.startswith("001")]
    points = {int(line[4:8]): F(line[80:84].strip()) for line in records}
    ranks = {int(line[4:8]): int(line[85:89]) for line in records}
    assert dump_trf(parse_trf(text), points, ranks) == text


def test_core_1_trf_export_of_an_odd_round_robin_marks_the_phantom_round() -> None:
    table = berger_table(5)
    games = [
        Game(p.white, p.black, Result.DRAW, number)
        for number, boards in enumerate(table.rounds, start=1)
        for p in boards
    ]
    tournament = round_robin_trf(list("ABCDE"), games, rounds=5, name="Five")
    text = dump_trf(tournament)
    again = parse_trf(text)
    assert again.name == "Five" and [p.name for p in again.players] == list("ABCDE")
    assert games_and_byes(again) == (tuple(sorted(games, key=lambda g: (g.white, g.round))), ())
    byes = [r for p in again.players for r in p.rounds if r.opponent is None]
    assert len(byes) == 5 and {r.code for r in byes} == {"Z"}


def test_core_2_trf_scored_byes_round_trip() -> None:
    games = [Game(1, 2, Result.WHITE_WIN, 1)]
    byes = [Bye(3, Outcome.DRAW, 1), Bye(3, Outcome.WIN, 2)]
    tournament = round_robin_trf(["A", "B", "C"], games, byes, rounds=2)
    parsed = parse_trf(dump_trf(tournament))
    assert games_and_byes(parsed) == (tuple(games), tuple(byes))


def _broken(fixtures_dir: Path, start_no: int, column: int, new: str) -> tuple[str, int]:
    text = _fixture(fixtures_dir, "fide_held_round_robin")
    number, line = _player_line(text, start_no)
    assert line[column : column + len(new)] != new
    changed = line[:column] + new + line[column + len(new) :]
    return text.replace(line, changed), number


@pytest.mark.parametrize(
    ("start_no", "column", "new", "problem", "reported"),
    [
        (1, 91, "   9", "round 1: opponent 9 has no 001 record", 1),
        (1, 91, "  x5", r"round 1 \(column 92\): opponent 'x5' is not a start number", 1),
        (1, 96, "r", "colour 'r' is not w, b or -", 1),
        (1, 98, "7", "result '7' is not 1, =, 0", 1),
        (1, 98, "1", "round 1: result '1' of 1 does not match '=' of 5 on line 9", 1),
        (2, 96, "b", "round 1: both 2 and 6 have b", 2),
        (3, 91, "   3", "round 1: Charline is paired with themselves", 3),
        (4, 4, "  ab", "start number 'ab' .columns 5-8. is not a number", 4),
        (4, 4, "   5", "start number 5 is also on line 8", 5),
        (5, 91, "   3", "round 1: Alyx .1. meets Franck .5., whose record on line 9", 1),
        (5, 48, "2x00", "rating '2x00' .columns 49-52. is not a number", 5),
        (5, 80, " 3,5", "points '3,5' .columns 81-84. is not a number: are the columns", 5),
        (5, 85, "   x", "rank 'x' .columns 86-89. is not a number", 5),
        (5, 57, "   1 w =", "FIDE id '1 w =.*' .columns 58-68. is not a number", 5),
    ],
)
def test_core_2_trf_errors_name_the_line_and_the_problem(
    fixtures_dir: Path, start_no: int, column: int, new: str, problem: str, reported: int
) -> None:
    text, _ = _broken(fixtures_dir, start_no, column, new)
    with pytest.raises(TrfError, match=problem) as caught:
        parse_trf(text)
    expected_line = _player_line(_fixture(fixtures_dir, "fide_held_round_robin"), reported)[0]
    assert caught.value.line == expected_line
    assert str(caught.value).startswith(f"line {expected_line}: ")


def test_core_2_trf_rejects_junk_lines_and_files_without_players() -> None:
    with pytest.raises(TrfError, match=r"line 2: '\?\?' is not a TRF record code"):
        parse_trf("012 x\n?? nothing\n")
    with pytest.raises(TrfError, match="no player records"):
        parse_trf("012 Empty\n")
    # A UTF-16 file read as Latin-1 starts 'ÿþ0': letters, but not a record code.
    with pytest.raises(TrfError, match=r"line 1: 'ÿþ0' is not a TRF record code"):
        parse_trf("ÿþ0\x001\x002\x00\n")


def test_core_2_trf_points_field_takes_halves_that_fit() -> None:
    tournament = round_robin_trf(["A", "B"], [Game(1, 2, Result.DRAW, 1)], rounds=1)
    text = dump_trf(tournament, {1: F(-1, 2), 2: F(99, 2)}, {1: 2, 2: 1})
    assert [line[80:84] for line in text.splitlines() if line.startswith("001")] == [
        "-0.5",
        "49.5",
    ]
    with pytest.raises(ValueError, match="halves"):
        dump_trf(tournament, {1: F(1, 3), 2: F(0)})
    with pytest.raises(ValueError, match="does not fit"):
        dump_trf(tournament, {1: F(100), 2: F(0)})
