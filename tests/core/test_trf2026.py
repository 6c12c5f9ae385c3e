"""TRF files as real tournament software writes them (issue 14): forfeits with colour `-`,
lower-case codes, line ends, Windows-1252 names, TRF-2026 comments, records 162 and 299.

The files in tests/data/trf were written by hand from the TRF-16 and TRF-2026 texts; each
carries its author's points in columns 81-84, which the computed points must equal."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest
from gacrux.tiebreak import tiebreak
from gacrux.trf2json import trf2json

from core.results import Result
from core.standings import PlayerStanding
from core.tiebreaks import Game
from core.trf import TrfError, games_and_byes, parse_trf, trf_lines
from core.trf2026 import ignored_records, scored_standings, trf_scores
from core.trf_writer import dump_trf
from tests.support.paths import ROOT

DATA = ROOT / "tests" / "data" / "trf"
FILES = sorted(path.name for path in DATA.glob("*.trf"))


def _text(name: str) -> str:
    data = (DATA / name).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def _author_points(text: str) -> dict[int, F]:
    """The points (81-84, or one column off) of every player record, as its author wrote them."""
    points = {p.start_no: p.file_points for p in parse_trf(text).players}
    assert None not in points.values()
    return {number: F(value or 0) for number, value in points.items()}


def _standings(text: str) -> tuple[PlayerStanding, ...]:
    tournament = parse_trf(text)
    return scored_standings(tournament, trf_scores(tournament))


@pytest.mark.parametrize("name", FILES)
def test_core_2_points_equal_what_the_files_author_wrote(name: str) -> None:
    text = _text(name)
    computed = {row.player: row.points for row in _standings(text)}
    assert computed == _author_points(text)


@pytest.mark.parametrize("name", FILES)
def test_core_2_written_back_the_file_gives_the_same_standings(name: str) -> None:
    text = _text(name)
    tournament = parse_trf(text)
    rows = _standings(text)
    again = dump_trf(
        tournament, {r.player: r.points for r in rows}, {r.player: r.rank for r in rows}
    )
    assert _standings(again) == rows
    assert _author_points(again) == _author_points(text)
    # Comments and TRF-2026 records stay, in the order of the file read.
    codes = [line[:3] for line in trf_lines(text) if line.strip()]
    assert [line[:3] for line in trf_lines(again) if line.strip()] == codes


@pytest.mark.parametrize(
    "name",
    [
        "cp1252_nel.trf",
        "lower_case_codes.trf",
        "trf2026_bonus_penalty.trf",
        "trf2026_pab_value.trf",
    ],
)
def test_core_3_points_and_sb_equal_fide_reference_program(name: str) -> None:
    """gacrux reads these files too (not the `-`-colour forfeits, nor our team file)."""
    text = _text(name)
    assert _gacrux(text) == {row.player: [row.points, row.sb] for row in _standings(text)}


def _gacrux(text: str) -> dict[int, list[F]]:
    """PTS and SB by start number as FIDE's reference program gacrux computes them."""
    reader = trf2json()
    reader.parse_file(text, 0)
    assert reader.chessjson["status"]["code"] == 0
    tournament = reader.get_tournament(1)
    params = {"pre_determined": True, "tiebreak": ["PTS", "SB"], "check": 0, "unrated": None}
    result = tiebreak(tournament, -1, params).compute_tiebreaks(tournament, params)
    return {c["cid"]: [F(v) for v in c["tiebreakScore"]] for c in result["competitors"]}


def test_core_2_record_240_byes_fill_empty_cells_and_agree_with_filled_ones() -> None:
    """TRF-2026 record 240: a full, half or zero-point bye for a round and named players; it
    fills a player's empty cell (1, 2, 5; 3's line ends before round 5) and agrees with a
    filled one (4's `0000 - H`)."""
    tournament = parse_trf(_text("trf2026_byes_240.trf"))
    scores = trf_scores(tournament)
    assert scores.byes == {(1, 1): "F", (2, 3): "H", (5, 4): "Z", (3, 5): "F"}
    assert ignored_records(tournament) == ()
    points = {row.player: row.points for row in _standings(_text("trf2026_byes_240.trf"))}
    assert points == {1: F(7, 2), 2: F(3), 3: F(7, 2), 4: F(3), 5: F(0)}


def test_core_3_record_240_byes_equal_fide_reference_program() -> None:
    """gacrux applies record 240 the same way, for PTS and SB. (It checks the file's own
    points column against the cells before adding 240's byes, so it is given the file with
    that column at zero: it then computes the points itself.)"""
    text = _text("trf2026_byes_240.trf")
    zeroed = "\n".join(
        line[:80] + " 0.0" + line[84:] if line.startswith("001") else line
        for line in trf_lines(text)
    )
    assert _gacrux(zeroed) == {row.player: [row.points, row.sb] for row in _standings(text)}


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "240 H 002  004",
            "240 F 002  004",
            "a full-point bye for player 4 in round 2, but line 8 has '0000 - H'",
        ),
        (
            "240 F 001  001",
            "240 F 002  001",
            "a full-point bye for player 1 in round 2, but line 5 has '   2 w 1'",
        ),
        (
            "240 Z 004  005",
            "240 Z 004  005\n240 H 004  005",
            "a half-point bye for player 5 in round 4, but line 14 gives a zero-point",
        ),
        ("240 F 001  001", "240 P 001  001", "record 240: type 'P' .column 5. is not F, H or Z"),
        (
            "240 F 001  001",
            "240 F 0x1  001",
            "record 240: round '0x1' .columns 7-9. is not a round number",
        ),
        ("240 F 001  001", "240 F 000  001", "record 240: round '000'"),
        ("240 F 001  001", "240 F 001  009", "record 240: player 9 has no 001 record"),
        ("240 F 001  001", "240 F 001", "record 240: the bye names no player"),
    ],
)
def test_core_2_contradicted_or_malformed_record_240_names_the_line(
    old: str, new: str, problem: str
) -> None:
    text = _text("trf2026_byes_240.trf")
    assert text.count(old) == 1
    changed = text.replace(old, new)
    with pytest.raises(TrfError, match=problem) as caught:
        trf_scores(parse_trf(changed))
    assert trf_lines(changed)[caught.value.line - 1].startswith(new.split("\n")[-1])


def test_core_2_a_team_events_record_240_is_ignored() -> None:
    """In a team event record 240 names teams: it is listed as ignored, not applied."""
    text = _text("trf2026_comments_teams.trf") + "240 F 001  001\n"
    tournament = parse_trf(text)
    assert trf_scores(tournament).byes == {}
    assert ("240", 1) in ignored_records(tournament)


def test_core_2_forfeit_written_with_colour_dash_is_a_forfeit_game() -> None:
    """FIDE's example1.txt writes `  3 - +` / `  1 - -`: a forfeit between 1 and 3."""
    tournament = parse_trf(_text("forfeit_dash.trf"))
    anand = tournament.players[0]
    assert (anand.rounds[1].opponent, anand.rounds[1].colour, anand.rounds[1].code) == (
        3,
        None,
        "+",
    )
    games, byes = games_and_byes(tournament)
    assert Game(1, 3, Result.WHITE_FORFEIT_WIN, 2) in games and byes == ()
    rows = {row.player: row for row in _standings(_text("forfeit_dash.trf"))}
    # Played for SB in a round robin (CORE-2): Anand scores Caruana's ½ for the forfeit.
    assert rows[1].wins == 2 and rows[1].sb == F(1) * 1 + F(1, 2) * 1 + F(2) * F(1, 2)


def test_core_2_forfeits_both_written_with_dash_are_a_double_forfeit() -> None:
    text = _text("forfeit_dash.trf").replace("   3 - +", "   3 - -")
    games, _ = games_and_byes(parse_trf(text))
    assert Game(1, 3, Result.DOUBLE_FORFEIT, 2) in games


def test_core_2_letter_codes_are_case_insensitive() -> None:
    tournament = parse_trf(_text("lower_case_codes.trf"))
    codes = {rnd.code for p in tournament.players for rnd in p.rounds}
    assert codes == {"W", "L", "D", "H", "F", "U", "Z", "1", "0", "="}
    assert tournament.players[2].rounds[1].colour == "b"  # written `B`


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c"])
def test_core_2_lines_end_only_at_lf_crlf_or_cr(separator: str) -> None:
    text = _text("forfeit_dash.trf").replace("Anand    ", f"Anand{separator}   ")
    tournament = parse_trf(text)
    assert tournament.players[0].name == f"Anand{separator}"
    for ending in ("\r\n", "\r"):
        assert parse_trf(text.replace("\n", ending)) == tournament


def test_core_2_windows_1252_name_with_0x85_is_one_record() -> None:
    data = (DATA / "cp1252_nel.trf").read_bytes()
    assert b"\x85" in data and b"\r\n" in data
    tournament = parse_trf(data.decode("latin-1"))  # the old fallback: 0x85 is U+0085
    assert tournament.players[0].name == "M\xfcller\x85, J\xf6rg"
    assert parse_trf(data.decode("cp1252")).players[0].name == "Müller…, Jörg"


def test_core_2_trf2026_comments_and_team_records_are_kept_and_listed() -> None:
    tournament = parse_trf(_text("trf2026_comments_teams.trf"))
    assert tournament.name == "Three clubs, one round robin"
    assert [code for code, _ in tournament.records].count("###") == 4
    assert ignored_records(tournament) == (("202", 1), ("310", 3), ("299", 1))
    # A team event's 299 concerns a team: player 2 keeps the 1.5 the games give.
    assert trf_scores(tournament).adjustments == {}


def test_core_2_record_162_prices_the_pairing_allocated_bye() -> None:
    tournament = parse_trf(_text("trf2026_pab_value.trf"))
    scores = trf_scores(tournament)
    assert scores.bye_points["U"] == F(1, 2) and scores.scoring_line == 4
    _, byes = games_and_byes(tournament, scores.bye_points)
    assert sorted((b.player, b.points) for b in byes) == [(1, F(1, 2)), (2, F(1, 2)), (3, F(1, 2))]
    assert ignored_records(tournament) == ()


def test_core_2_record_299_bonus_and_penalty_change_the_points() -> None:
    tournament = parse_trf(_text("trf2026_bonus_penalty.trf"))
    assert trf_scores(tournament).adjustments == {4: F(1), 1: F(-1), 2: F(-1)}
    assert ignored_records(tournament) == ()


def test_core_2_record_162_prices_forfeits_apart_from_games() -> None:
    """`A` is the absence: a forfeit loss scores it, not `L` (here 3/1/1 with A = 0)."""
    text = _text("forfeit_dash.trf").replace(
        "XXR 3", "XXR 3\n162  W 3.0    D 1.0    L 1.0    A 0.0"
    )
    points = {row.player: row.points for row in _standings(text)}
    assert points == {1: F(7), 2: F(5), 3: F(2), 4: F(5)}


def test_core_2_tournament_wide_299_prices_one_result_kind() -> None:
    text = _text("lower_case_codes.trf") + "299 F         0.5\n"
    points = {row.player: row.points for row in _standings(text)}
    assert points[2] == F(3, 2)  # Bravo's full-point bye is worth ½ here


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("162  W 1.0    Q 0.5", "record 162: result code 'Q' is not W, D, L, A, P or X"),
        ("162  W 1.0    D 0.3", r"record 162 \(D\): 0.3 is not a multiple of ½"),
        ("162 wins count double", "record 162: 'wins count double' is not result codes"),
        ("299           1.0  000", "record 299: a bonus or penalty names no player"),
        ("299           1.0  000 0009", "record 299: player 9 has no 001 record"),
        ("299           x.0  000 0001", r"record 299 \(columns 14-17\): 'x.0' is not a number"),
        ("299 W         2.0  001 0001", "record 299: points for the W results of one round"),
        ("299 Q         2.0", "record 299: type 'Q' .column 5. is not"),
    ],
)
def test_core_2_malformed_trf2026_records_name_the_line(extra: str, problem: str) -> None:
    text = _text("forfeit_dash.trf") + extra + "\n"
    with pytest.raises(TrfError, match=problem) as caught:
        trf_scores(parse_trf(text))
    assert caught.value.line == len(trf_lines(text)) - 1


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("   2 b 0", "   2 w 0", "round 3: both 2 and 3 have w"),
        ("   1 b 0", "   1 w 0", "round 1: both 1 and 2 have w"),
        ("   4 b 0", "   4 b *", r"round 2 \(column 102\): result '\*' is not 1, =, 0"),
        ("   4 w =", "   4 - =", "a game against 4 needs colour w or b"),
    ],
)
def test_core_2_defective_files_are_still_refused_naming_the_line(
    old: str, new: str, problem: str
) -> None:
    text = _text("forfeit_dash.trf")
    assert text.count(old) == 1
    with pytest.raises(TrfError, match=problem) as caught:
        parse_trf(text.replace(old, new))
    assert caught.value.line in (4, 5, 6)


def test_core_2_ruler_line_without_hashes_is_refused() -> None:
    text = _text("trf2026_pab_value.trf").replace("###  SSSS", "     SSSS")
    with pytest.raises(TrfError, match=r"line 5: '' is not a TRF record code \(a comment or ruler"):
        parse_trf(text)


def test_core_2_dump_keeps_file_order_of_records_and_players(tmp_path: Path) -> None:
    text = _text("trf2026_bonus_penalty.trf")
    tournament = parse_trf(text)
    again = dump_trf(tournament)
    assert [line[:3] for line in again.splitlines()] == [
        line[:3] for line in trf_lines(text) if line
    ]
    assert again.splitlines()[-1] == "299          -1.0  002 0001 0002"
