"""The `arbiter berger` (CORE-1) and `arbiter standings` (CORE-3, CCT-8b) commands, run
through `bot.cli.main` as a tournament director would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from core.berger import berger_table
from core.results import Result
from core.tiebreaks import Game
from core.trf_writer import dump_trf, round_robin_trf
from tests.support.paths import ROOT


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_core_1_cli_berger_json_is_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "berger", "7", "--json")
    assert code == 0
    document = json.loads(out)
    table = berger_table(7)
    assert document["rounds"] == [[[p.white, p.black] for p in r] for r in table.rounds]
    assert document["byes"] == list(table.byes) and len(document["byes"]) == 7


def test_core_1_cli_berger_double_has_both_cycles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "berger", "4", "--double", "--json")
    rounds = json.loads(out)["rounds"]
    assert code == 0 and len(rounds) == 6
    assert rounds[1] == [[p.white, p.black] for p in berger_table(4).rounds[2]]
    assert rounds[3] == [[b, w] for w, b in rounds[0]]
    _, plain, _ = _run(capsys, "berger", "4", "--double", "--no-swap", "--json")
    assert json.loads(plain)["rounds"][1] == [[p.white, p.black] for p in berger_table(4).rounds[1]]


def test_core_1_cli_berger_text_and_bad_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "berger", "3")
    assert code == 0
    assert out.splitlines()[0] == "Rd 1: 2-3  (no game: 1)"
    code, out, err = _run(capsys, "berger", "25")
    assert code == 2 and out == ""
    assert "3 to 24 players, not 25" in err


def test_cct_8b_cli_standings_json_reproduces_airthings(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path
) -> None:
    folder = fixtures_dir / "tiebreaks"
    expected = json.loads((folder / "airthings_masters_2020_prelim.expected.json").read_text())
    code, out, _ = _run(
        capsys, "standings", str(folder / "airthings_masters_2020_prelim.trf"), "--json"
    )
    assert code == 0
    rows = json.loads(out)["standings"]
    assert [row["name"] for row in rows] == expected["official_order"]
    carlsen = rows[0]
    assert carlsen == {
        "rank": 1,
        "start_no": 4,
        "name": "Carlsen",
        "points": 6.5,
        "tiebreaks": {"DE": 1.5, "WIN": 2, "SB": 35.5, "KS": 3},
    }
    assert rows[5]["tiebreaks"]["DE"] is None  # Aronian: alone on 5½
    for row in rows:
        published = expected["values_by_start_number"][str(row["start_no"])]
        assert (row["tiebreaks"]["WIN"], row["tiebreaks"]["SB"]) == (
            published["WIN"],
            published["SB"],
        )


def test_cct_8b_cli_standings_ties_share_a_rank_and_table_marks_them(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path
) -> None:
    path = str(fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf")
    code, out, _ = _run(capsys, "standings", path, "--json", "--tiebreaks", "fide2024")
    assert code == 0
    rows = json.loads(out)["standings"]
    assert [(r["rank"], r["start_no"]) for r in rows] == [
        (1, 1),
        (2, 2),
        (2, 3),
        (4, 6),
        (5, 5),
        (6, 4),
    ]
    code, out, _ = _run(capsys, "standings", path)
    lines = out.splitlines()
    assert lines[0] == "FIDE C.07 2023 Tie-Break Exercises"
    assert lines[1] == "Order: PTS, DE (cct), WIN, SB, KS"
    assert lines[4].split() == ["2=", "2", "Bruno", "3.5", "0.5", "3", "6.25", "0.5"]


def test_core_2_cli_standings_with_3_1_0_scoring(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path
) -> None:
    path = str(fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf")
    code, out, _ = _run(capsys, "standings", path, "--points", "3,1,0", "--json")
    rows = {r["start_no"]: r for r in json.loads(out)["standings"]}
    assert code == 0
    assert (rows[1]["points"], rows[6]["points"], rows[6]["tiebreaks"]["SB"]) == (10, 4, 16)


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        ("3,1", "three numbers"),
        ("3,x,0", "'x' is not a number"),
        ("0,1,3", "win >= draw"),
        # CORE-5: points are halves, so every printed value is exact.
        ("1,1/3,0", "not a multiple of ½"),
        ("1,0.25,0", "not a multiple of ½"),
    ],
)
def test_core_2_cli_standings_rejects_bad_points(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path, points: str, problem: str
) -> None:
    path = str(fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf")
    code, out, err = _run(capsys, "standings", path, "--points", points)
    assert code == 2 and out == "" and problem in err


def test_core_2_cli_standings_malformed_trf_names_line_and_problem(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path, tmp_path: Path
) -> None:
    text = (fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf").read_text()
    lines = text.splitlines()
    lines[6] = lines[6][:98] + "?" + lines[6][99:]  # Charline's round 1 result
    broken = tmp_path / "broken.trf"
    broken.write_text("\n".join(lines) + "\n")
    code, out, err = _run(capsys, "standings", str(broken))
    assert code == 2 and out == ""
    assert err.strip() == (
        f"arbiter standings: {broken}: line 7: round 1 (column 92): "
        "result '?' is not 1, =, 0, +, -, W, D or L"
    )
    code, _, err = _run(capsys, "standings", str(tmp_path / "missing.trf"))
    assert code == 2 and "cannot read" in err


def test_core_3_cli_lots_option_orders_remaining_ties_by_the_seed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    draws = [Game(1, 2, Result.DRAW, 1), Game(3, 1, Result.DRAW, 2), Game(2, 3, Result.DRAW, 3)]
    tournament = round_robin_trf(["Alpha", "Beta", "Gamma"], draws, rounds=3, name="All draws")
    trf = tmp_path / "all_draws.trf"
    trf.write_text(dump_trf(tournament))
    code, out, err = _run(capsys, "standings", str(trf), "--json")
    assert code == 0, err
    shared = json.loads(out)["standings"]
    assert {row["rank"] for row in shared} == {1} and "by_lot" not in shared[0]
    code, out, _ = _run(capsys, "standings", str(trf), "--json", "--lots", "seed-1")
    drawn = json.loads(out)["standings"]
    assert [row["rank"] for row in drawn] == [1, 2, 3]
    assert all(row["by_lot"] for row in drawn)
    _, again, _ = _run(capsys, "standings", str(trf), "--json", "--lots", "seed-1")
    assert json.loads(again) == json.loads(out)


DATA = ROOT / "tests" / "data" / "trf"


@pytest.mark.parametrize(
    ("points", "problem"),
    [
        ("1,0.5,-1", "points cannot be negative"),
        ("-1,-2,-3", "points cannot be negative"),
        ("1000,1,0", "a game is worth at most 100 points"),
        ("1e400,1,0", "a game is worth at most 100 points"),
    ],
)
def test_core_5_cli_standings_refuses_negative_or_absurd_points(
    capsys: pytest.CaptureFixture[str], points: str, problem: str
) -> None:
    path = str(DATA / "forfeit_dash.trf")
    code, out, err = _run(capsys, "standings", path, f"--points={points}")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and problem in err


@pytest.mark.parametrize("seed", ["", "   "])
def test_core_3_cli_standings_refuses_an_empty_lots_seed(
    capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    code, out, err = _run(capsys, "standings", str(DATA / "forfeit_dash.trf"), "--lots", seed)
    assert code == 2 and out == ""
    assert err == "arbiter standings: --lots needs a seed to record, not an empty string\n"


def test_core_2_cli_standings_notes_each_ignored_record_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(capsys, "standings", str(DATA / "trf2026_comments_teams.trf"))
    assert code == 0
    assert err.splitlines() == [
        "note: ignored record 202 (1 line)",
        "note: ignored record 310 (3 lines)",
        "note: ignored record 299 (1 line)",
    ]
    assert out.splitlines()[0] == "Three clubs, one round robin"
    _, _, quiet = _run(capsys, "standings", str(DATA / "trf2026_bonus_penalty.trf"))
    assert quiet == ""


def test_core_2_cli_standings_reads_a_windows_1252_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "standings", str(DATA / "cp1252_nel.trf"), "--json")
    rows = json.loads(out)["standings"]
    assert code == 0 and rows[0]["name"] == "Müller…, Jörg" and len(rows) == 4


def test_core_2_cli_points_option_and_record_162_cannot_both_set_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = DATA / "trf2026_pab_value.trf"
    code, out, err = _run(capsys, "standings", str(path), "--points", "3,1,0")
    assert code == 2 and out == ""
    assert "--points cannot be used with" in err and "line 4 sets the scoring" in err


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.trf")))
def test_core_2_cli_trf_out_round_trip_gives_the_same_standings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / "out.trf"
    code, first, _ = _run(
        capsys, "standings", str(DATA / name), "--json", "--trf-out", str(out_file)
    )
    assert code == 0
    code, again, _ = _run(capsys, "standings", str(out_file), "--json")
    assert code == 0 and json.loads(again) == json.loads(first)
    written = out_file.read_text(encoding="utf-8").splitlines()
    by_no = {row["start_no"]: row for row in json.loads(first)["standings"]}
    for line in written:
        if line.startswith("001"):
            row = by_no[int(line[4:8])]
            assert (float(line[80:84]), int(line[85:89])) == (row["points"], row["rank"])
    # TRF-2026 in, TRF-2026 out: the comments and 162/299 records are written back.
    source = (DATA / name).read_bytes().decode("cp1252")
    assert sum(line.startswith("###") for line in written) == source.count("###")


def test_core_2_cli_trf_out_writes_computed_points_over_forged_ones(
    capsys: pytest.CaptureFixture[str], fixtures_dir: Path, tmp_path: Path
) -> None:
    text = (fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf").read_text()
    forged = tmp_path / "forged.trf"
    forged.write_text(
        "\n".join(
            line[:80] + "99.5   99" + line[89:] if line.startswith("001") else line
            for line in text.splitlines()
        )
        + "\n"
    )
    out_file = tmp_path / "out.trf"
    code, _, _ = _run(capsys, "standings", str(forged), "--trf-out", str(out_file))
    assert code == 0
    # The computed points, and CCT-8b ranks (Bruno and Charline share 2nd).
    lines = [line for line in out_file.read_text().splitlines() if line.startswith("001")]
    assert [(line[80:84], line[85:89]) for line in lines] == [
        (" 3.5", "   1"),
        (" 3.5", "   2"),
        (" 3.5", "   2"),
        (" 1.5", "   6"),
        (" 1.5", "   5"),
        (" 1.5", "   4"),
    ]


def test_core_2_cli_trf_out_refused_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "missing-dir" / "out.trf"
    code, out, err = _run(
        capsys, "standings", str(DATA / "forfeit_dash.trf"), "--trf-out", str(out_file)
    )
    assert code == 1 and out == "" and f"cannot write {out_file}" in err
    broken = tmp_path / "broken.trf"
    broken.write_text((DATA / "forfeit_dash.trf").read_text().replace("   4 b 0", "   4 b *"))
    good_out = tmp_path / "out.trf"
    code, out, err = _run(capsys, "standings", str(broken), "--trf-out", str(good_out))
    assert code == 2 and out == "" and not good_out.exists()
    assert "line 5: round 2 (column 102): result '*' is not 1, =, 0" in err
