"""`arbiter league` through `bot.cli.main`: tables, JSON, --as-of, --promotion, bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.support.cl_seasons import match, season


def _write(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


SEASON = season(
    [
        match("1", "A", "B", [("a1", "b1", 2), ("a2", "b2", 1.5)], round=1),
        match("2", "C", "D", [("c1", "d1", 1)], round=1),
        match("3", "A", "C", round=2, finished=False, challenge="issued"),
    ],
    closed_accounts=["Zed"],
)


def test_league_json_is_the_season_file_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["league", _write(tmp_path, SEASON), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "season",
        "as_of",
        "divisions",
        "forfeits",
        "disqualified",
        "multi_team_players",
        "adjusted_players",
    }
    assert out["as_of"] is None
    first = out["divisions"][0]["standings"][0]
    assert first == {
        "rank": 1,
        "club": "A",
        "played": 2,
        "won": 2,
        "drawn": 0,
        "lost": 0,
        "match_points": 2,
        "game_points": 3.5,
        "sb": 0.5,
        "de": None,
        "tied": False,
        "disqualified": False,
    }
    assert out["forfeits"] == [{"match": "3", "club": "C", "rule": "CL-15"}]
    assert out["adjusted_players"] == [{"player": "zed", "rule": "CL-19"}]


def test_league_as_of_before_the_challenge_deadline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["league", _write(tmp_path, SEASON), "--json", "--as-of", "2017-10-02"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["as_of"] == "2017-10-02"
    assert out["forfeits"] == []
    assert all(s["played"] == 0 for s in out["divisions"][0]["standings"])


def test_league_table_marks_ties(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", _write(tmp_path, SEASON)]) == 0
    text = capsys.readouterr().out
    assert "Rk  Club" in text
    assert "2=  C" in text and "2=  D" in text and " 4  B" in text
    assert "3: C (CL-15)" in text


def test_league_promotion_with_a_withdrawal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = season(
        [
            match("1", "A", "B", [("a", "b", 2)]),
            match("2", "C", "D", [("c", "d", 2)], division="One"),
        ],
        divisions={"P": ["A", "B"], "One": ["C", "D"]},
    )
    data["rules"] = {"promotion_places": 1}
    path = _write(tmp_path, data)
    assert main(["league", path, "--promotion", "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves == [
        {"club": "C", "from": "One", "to": "P"},
        {"club": "B", "from": "P", "to": "One"},
    ]
    assert main(["league", path, "--promotion", "--json", "--withdraw", "A"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["divisions"] == [{"name": "P", "clubs": ["C", "B"]}, {"name": "One", "clubs": ["D"]}]
    assert out["withdrawn"] == ["A"]
    assert main(["league", path, "--promotion"]) == 0
    assert "C: One → P" in capsys.readouterr().out


def test_league_promotion_that_moves_nobody_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CL-8 with one division: no club moves, and the text says `Moves: none` rather than
    printing an empty `Moves:` heading."""
    data = season([match("1", "A", "B", [("a", "b", 2)])], divisions={"P": ["A", "B"]})
    assert main(["league", _write(tmp_path, data), "--promotion"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "Moves: none" in lines and "Moves:" not in lines
    assert lines[lines.index("Moves: none") - 2 :] == ["  B", "", "Moves: none"]


def test_league_bad_file_names_the_path_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(SEASON))
    data["matches"][0]["boards"][1]["home_points"] = 1.0
    assert main(["league", _write(tmp_path, data)]) == 2
    err = capsys.readouterr().err
    assert "matches[0].boards[1].home_points" in err
    assert "not games_per_board 2" in err


def test_league_unreadable_or_not_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["league", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["league", str(broken)]) == 2
    assert "not a valid season file" in capsys.readouterr().err
    assert main(["league", _write(tmp_path, SEASON), "--promotion", "--withdraw", "Q"]) == 2
    assert "unknown club 'Q'" in capsys.readouterr().err


def test_league_deadline_overflow_exits_2_with_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(json.dumps(SEASON))
    data["rules"] = {"challenge_deadline_hours": 10**12}
    assert main(["league", _write(tmp_path, data)]) == 2
    assert "rules.challenge_deadline_hours" in capsys.readouterr().err


def test_league_reads_a_file_saved_with_a_utf8_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Editors on Windows save UTF-8 with a BOM; it is not part of the JSON text (RFC 8259
    # lets a parser ignore it), so the file reads as without one.
    path = tmp_path / "bom.json"
    path.write_text(json.dumps(SEASON), encoding="utf-8-sig")
    assert main(["league", str(path), "--json", "--as-of", "2017-12-31"]) == 0
    assert json.loads(capsys.readouterr().out)["season"] == "Test season"
