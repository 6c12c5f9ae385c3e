"""Hostile TRF files found in review: digits that are not ASCII, control characters in names,
record 162 values no scoring has (CORE-2)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from bot.cli import main
from core.trf import TrfError, parse_trf
from core.trf2026 import trf_scores


def _player(no: int, name: str, rounds: list[tuple[int, str, str]], rating: str = "2000") -> str:
    head = f"001 {no:>4} m    {name:<33} {rating:>4} NOR {'':>11} {'1990/01/01':>10}" + " " * 12
    return head + "  ".join(f"{opp:>4} {colour} {code}" for opp, colour, code in rounds)


TWO = [_player(1, "Alpha", [(2, "w", "1")]), _player(2, "Bravo", [(1, "b", "0")])]


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        ([TWO[0].replace("001    1", "001    \u00b2"), TWO[1]], 1, "start number '²'"),
        ([_player(1, "Alpha", [(2, "w", "1")], rating="2\u00b200"), TWO[1]], 1, "rating '2²00'"),
        ([TWO[0], TWO[1].replace("   1 b 0", "   \u00b9 b 0")], 2, "opponent '¹'"),
        ([*TWO, "299           1.0  000 000\u00b9"], 3, "'000¹' .from column 24."),
        ([*TWO, "299 W         2.0  00\u00b9"], 3, "round '00¹'"),
    ],
)
def test_core_2_digits_other_than_ascii_are_refused_naming_the_line(
    lines: list[str], line: int, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`²` and `¹` are digits to str.isdigit() but not to int(): they used to end in a
    ValueError traceback (exit 1) instead of a refusal naming the line."""
    text = "\n".join(lines) + "\n"
    with pytest.raises(TrfError, match=rf"^line {line}: .*{problem}"):
        trf_scores(parse_trf(text))
    path = tmp_path / "digits.trf"
    path.write_bytes(text.encode("cp1252"))
    assert main(["standings", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"line {line}:" in captured.err
    assert "Traceback" not in captured.err


def test_core_2_control_characters_of_a_trf_are_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name or title from another program's file may hold anything; printed raw, ESC/BEL
    sequences would clear the terminal or retitle it. The text table shows them escaped
    (the file is still read: the names are data); JSON escapes them anyway."""
    text = "\n".join(
        [
            "012 Title\x1b]0;pwned\x07",
            _player(1, "Evil\x1b[2J\x1b[31mRed", [(2, "w", "1")]),
            _player(2, "M\xfcller\x85", [(1, "b", "0")]),
        ]
    )
    path = tmp_path / "control.trf"
    path.write_text(text, encoding="utf-8")
    assert main(["standings", str(path)]) == 0
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x85")
    assert "Title\\x1b]0;pwned\\x07" in out
    assert "Evil\\x1b[2J\\x1b[31mRed" in out and "Müller\\x85" in out
    assert main(["standings", str(path), "--json"]) == 0
    assert "Evil\\u001b[2J" in capsys.readouterr().out


EVIL = "Bravo\x1b]0;pwned\x07\x9b2J"
"""A name whose raw printing would retitle and clear the terminal."""


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        (  # 1 meets Evil, whose record names nobody in round 1: the message names them both.
            [_player(1, "Alpha", [(2, "w", "1")]), _player(2, EVIL, [(0, "-", "Z")])],
            "line 1: round 1: Alpha (1) meets " + repr(EVIL)[1:-1],
        ),
        (  # Evil is paired with themselves.
            [_player(1, EVIL, [(1, "w", "1")]), _player(2, "Alpha", [(0, "-", "Z")])],
            repr(EVIL)[1:-1] + " is paired with themselves",
        ),
    ],
)
def test_core_2_trf_error_messages_show_control_characters_escaped(
    lines: list[str], problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A TRF message quotes names from the file: the CLI prints it with its control
    characters escaped (bot.formats.terminal.shown_text), as the table does, both in
    `arbiter standings` and in a tour's TRF preliminary."""
    path = tmp_path / "evil\x1b.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["standings", str(path)]) == 2
    err = capsys.readouterr().err
    assert problem in err and "evil\\x1b.trf" in err
    assert not any(c in err for c in "\x1b\x07\x9b")
    tour = {
        "name": "T",
        "events": [
            {"name": "One", "type": "regular", "preliminary": {"trf": "p.trf"}, "knockout": []}
        ],
    }
    (tmp_path / "p.trf").write_bytes(path.read_bytes())  # a tour refuses the name `evil\x1b`
    (tmp_path / "tour.json").write_text(json.dumps(tour), encoding="utf-8")
    assert main(["tour", str(tmp_path / "tour.json")]) == 2
    err = capsys.readouterr().err
    assert problem in err and not any(c in err for c in "\x1b\x07\x9b")


@pytest.mark.parametrize("points", ["100.5", "1000", "99999999999999999999.0"])
def test_core_2_record_162_points_beyond_any_scoring_are_refused(points: str) -> None:
    """--points allows 0..100 a game; record 162 (format `11.5`) gets the same bound
    instead of a 23-digit score that --trf-out could not even write."""
    text = "\n".join([*TWO, f"162  W {points}"]) + "\n"
    with pytest.raises(TrfError, match=r"^line 3: record 162 \(W\): .* at most 100"):
        trf_scores(parse_trf(text))


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ("001    1      Ann    1800", "the name 'Ann    1800' .columns 15-47. ends in a number"),
        ("001    1 m    Ann Example" + " " * 22 + "x1800", "column 48 should be a space"),
        ("001 12345     Ann", "column 9 should be a space"),
    ],
)
def test_core_2_a_player_record_without_the_fixed_columns_is_refused(
    record: str, problem: str
) -> None:
    """Issue 20: a `001` line written with a few spaces between its fields (not TRF's fixed
    columns) was read as a player named `Ann    1800` with no rating; now refused, naming the
    columns."""
    with pytest.raises(TrfError, match=rf"^line 1: {problem}"):
        parse_trf("\n".join([record, TWO[1]]) + "\n")


SHIFTED = Path(__file__).parents[1] / "data" / "trf" / "trf2026_team_shifted_columns.trf"


def test_core_2_a_birth_date_and_points_one_column_off_are_read_by_their_shape() -> None:
    """Issue 32: programs write TRF-2026 files whose birth date (71-80) and points (83-85)
    sit one column right of TRF's; each field is read where its shape is, not refused."""
    tournament = parse_trf(SHIFTED.read_text(encoding="utf-8"))
    read = [(p.start_no, p.birth_date, p.file_points, p.fide_id) for p in tournament.players]
    assert read == [
        (1, "1988/04/12", Fraction(5, 2), "1503014"),
        (2, "1995/11/30", Fraction(2), "1510231"),
        (3, "2001/02/07", Fraction(3, 2), "1522108"),
        (4, "1979/09/23", Fraction(0), "1530712"),
    ]
    assert [r.opponent for r in tournament.players[0].rounds] == [4, 2, 3]


def test_core_2_the_shifted_team_file_reads_at_the_cli_door(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`arbiter standings` reads the shifted file and ranks it from its games."""
    assert main(["standings", str(SHIFTED), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert [(r["start_no"], r["points"]) for r in rows] == [(1, 2.5), (2, 2), (3, 1.5), (4, 0)]


@pytest.mark.parametrize(
    ("tail", "problem"),
    [
        (  # a bare 2 in column 85: points one column right, or the rank one column left
            " 1990/01/01     2",
            "'2' at column 85 is one column off both the points columns 81-84 and rank"
            " columns 86-89: it reads points '2' and no rank, or no points and rank '2'",
        ),
        ("  1990/01/01  12.5    1", "'12.5' (columns 83-86) is not a birth date"),
        ("  1990/01/0112.5    1", "'1990/01/0112.5' (columns 71-84) is not a birth date"),
    ],
)
def test_core_2_a_record_that_reads_two_ways_or_none_is_refused(
    tail: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record whose tail has two readings with different values is refused naming the
    line, the fields and both readings; one two columns off, or glued, is refused too."""
    head = f"001    1 m    {'Alpha':<33} 2000 NOR {'':>11}"
    record = (head + tail).ljust(91) + "   2 w 1"
    text = "\n".join([record, TWO[1]]) + "\n"
    with pytest.raises(TrfError, match="^line 1: " + re.escape(problem)):
        parse_trf(text)
    path = tmp_path / "two_ways.trf"
    path.write_text(text, encoding="utf-8")
    assert main(["standings", str(path)]) == 2
    assert "line 1: " in capsys.readouterr().err
