"""Hostile season files and `arbiter league` options (issue 8, item 10): each is refused
with one clear line on stderr and exit 2, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.formats.season_file import SeasonFileError, load_season
from tests.support.cl_seasons import match, season


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, *options: str) -> str:
    """Run `arbiter league` on `data`; assert exit 2, one stderr line, no output, no file
    written; return the line."""
    path = tmp_path / "season.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    before = sorted(tmp_path.iterdir())
    assert main(["league", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert sorted(tmp_path.iterdir()) == before
    return lines[0]


def test_cl_12_two_clubs_meeting_twice_in_a_division_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = season([match("1", "A", "B"), match("2", "B", "A", round=2)])
    line = _refused(tmp_path, capsys, data)
    assert "matches[1]: 'B' and 'A' already meet in matches[0]" in line
    assert "CL-12" in line


def test_cl_7_a_season_without_divisions_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = season([])
    data["divisions"] = []
    line = _refused(tmp_path, capsys, data)
    assert "divisions: a season needs at least one division" in line


def test_cl_12_a_division_without_clubs_is_an_empty_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CL-7, CL-12 (issue 19): a season's configured divisions exist before clubs join, so
    the bot's own export of such a season is a valid file: an empty division is read and
    shown as an empty table (decided; docs/season-file.md: a division's clubs may be empty)."""
    data = season([match("1", "A", "B")], divisions={"P": ["A", "B"], "One": []})
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["league", str(path), "--json"]) == 0
    divisions = json.loads(capsys.readouterr().out)["divisions"]
    assert [(d["name"], len(d["standings"])) for d in divisions] == [("P", 2), ("One", 0)]


@pytest.mark.parametrize(
    ("round_", "shown"),
    [(4, "round 4 is beyond the 3 rounds"), (10**30, "too large: at most 2⁵³")],
)
def test_cl_12_a_round_beyond_the_round_robin_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], round_: int, shown: str
) -> None:
    """CL-12: four clubs play three rounds; `round: 4` is a typo, refused with its path
    instead of being stored; `1e30` too, as any whole number of a file past 2⁵³ (issue 20)."""
    data = season([match("1", "A", "B", round=1)])
    data["matches"][0]["round"] = round_
    line = _refused(tmp_path, capsys, data)
    assert "matches[0].round:" in line and shown in line


@pytest.mark.parametrize("start", [1506880800, "1506880800", True])
def test_start_as_a_unix_integer_is_refused_as_the_schema_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], start: object
) -> None:
    data = season([match("1", "A", "B", finished=False, challenge=None)])
    data["matches"][0]["start"] = start
    line = _refused(tmp_path, capsys, data)
    assert "matches[0].start: must be ISO 8601 text" in line


@pytest.mark.parametrize("as_of", ["20171030", "2017-1-3", "30/10/2017"])
def test_as_of_must_be_written_yyyy_mm_dd(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], as_of: str
) -> None:
    line = _refused(tmp_path, capsys, season([match("1", "A", "B")]), "--as-of", as_of)
    assert f"{as_of!r} is not a date (YYYY-MM-DD)" in line


@pytest.mark.parametrize(
    ("where", "name"),
    [("club", "\x1b[31mRed\x1b[0m"), ("player", "bob\rALICE"), ("season", "CL\x07")],
)
def test_control_characters_and_ansi_escapes_in_names_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, name: str
) -> None:
    if where == "club":
        data = season([], divisions={"P": ["A", name]})
        path = "divisions[0].clubs[1]"
    elif where == "player":
        data = season([match("1", "A", "B", [(name, "b1", 1)])])
        path = "matches[0].boards[0].home_player"
    else:
        data = season([])
        data["name"] = name
        path = "name"
    line = _refused(tmp_path, capsys, data)
    assert f"{path}: contains the control character U+00" in line
    assert "\x1b" not in line and "\r" not in line and "\x07" not in line


def test_clubs_differing_only_in_case_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = season([], divisions={"P": ["Arsenal Fans", "B"], "One": ["ARSENAL fans", "C"]})
    line = _refused(tmp_path, capsys, data)
    assert (
        "divisions[1].clubs[0]: club 'ARSENAL fans' differs from 'Arsenal Fans' only in case"
        in line
    )


@pytest.mark.parametrize("hours", ["1e9", "1000000000", "99999999999999"])
def test_cl_15_absurd_challenge_deadline_names_the_setting_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hours: str
) -> None:
    data = season([match("1", "A", "B"), match("2", "C", "D")])
    text = json.dumps(data).replace(
        '"name": "Test season"', f'"name": "S", "rules": {{"challenge_deadline_hours": {hours}}}'
    )
    line = _refused(tmp_path, capsys, text)
    assert "rules.challenge_deadline_hours: " in line and "8784" in line
    assert "too early" not in line


@pytest.mark.parametrize(
    ("value", "message"), [("NaN", "not a number (NaN)"), ("Infinity", "must be a finite number")]
)
def test_nan_and_infinity_say_what_they_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    data = season([match("1", "A", "B")])
    text = json.dumps(data).replace(
        '"name": "Test season"', f'"name": "S", "rules": {{"max_avg_rating": {value}}}'
    )
    line = _refused(tmp_path, capsys, text)
    assert f"rules.max_avg_rating: {message}" in line
    assert "greater than" not in line


def test_a_huge_unknown_name_is_not_echoed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "Z" * 1_000_000
    data = season([match("1", "A", huge, [("a1", "z1", 1)])])
    line = _refused(tmp_path, capsys, data)
    assert "matches[0].away: unknown club 'ZZZZ" in line and "…" in line
    assert len(line) < 300


def test_a_huge_withdrawn_club_on_the_command_line_is_not_echoed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _refused(
        tmp_path, capsys, season([match("1", "A", "B")]), "--promotion", "--withdraw", "Q" * 10_000
    )
    assert "--withdraw: unknown club 'QQQ" in line and len(line) < 200


def test_a_huge_at_start_key_is_cut_in_the_path() -> None:
    data = season([match("1", "A", "B", at_start={"\x1b" + "K" * 5000: {"members": 1}})])
    with pytest.raises(SeasonFileError) as caught:
        load_season(data)
    [(path, problem)] = caught.value.problems
    assert len(path) < 120 and "\x1b" not in path and "…" in path
    assert "is not a club of this match" in problem


def test_a_file_with_several_problems_is_one_line_first_problem_and_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not one line per problem: the first, with its path, then `(and N more)`."""
    data = season([match("1", "A", "B")])
    data["matches"][0]["start"] = 1506880800
    data["divisions"][0]["clubs"] = "A"
    with pytest.raises(SeasonFileError) as caught:
        load_season(json.dumps(data))
    problems = caught.value.problems
    assert len(problems) >= 2
    where, problem = problems[0]
    line = _refused(tmp_path, capsys, data)
    assert line.endswith(f": {where}: {problem} (and {len(problems) - 1} more)"), line


def test_a_file_with_one_problem_has_no_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = season([])
    data["divisions"] = []
    line = _refused(tmp_path, capsys, data)
    assert line.endswith("divisions: a season needs at least one division (CL-7)")
    assert "(and " not in line


def test_a_file_level_problem_names_the_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not JSON: no `(file):` path, the file named once, in front."""
    line = _refused(tmp_path, capsys, "{")
    assert line.startswith(f"arbiter league: {tmp_path / 'season.json'} is not a valid season file")
    assert "(file)" not in line and ": not JSON: " in line
