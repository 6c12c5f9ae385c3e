"""Hostile tour files found in review (CCT-2, CCT-3, CCT-6, CCT-8b, CCT-8f): names that
would rewrite the terminal, a finalist the events never saw, absurd table values, devices
instead of files, and a TRF preliminary read otherwise than `arbiter standings` reads it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from core.berger import berger_table
from core.results import Result
from core.tiebreaks import Game
from core.trf_writer import dump_trf, round_robin_trf
from tests.support.paths import ROOT

THREE_EVENTS = ROOT / "tests" / "data" / "tour_three_events.json"


def _refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], object],
) -> str:
    data = copy.deepcopy(json.loads(THREE_EVENTS.read_text(encoding="utf-8")))
    change(data)
    path = tmp_path / "tour.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["tour", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert len(captured.err.splitlines()) == 1, captured.err  # one line, however many problems
    return captured.err


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(name="Tour\x1b]0;pwned\x07"), "name"),
        (lambda d: d["events"][1]["preliminary"]["order"].__setitem__(9, "H\x1b[2J"), "events[1]"),
        (lambda d: d["events"][0].update(name="One\x9b31m"), "events[0].name"),
    ],
)
def test_cct_2_control_characters_in_tour_names_are_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Callable[[dict[str, Any]], object],
    where: str,
) -> None:
    """Names are printed to the terminal: an ESC/CSI sequence would clear or retitle it, so a
    tour file is refused like a season file (bot.formats.numbers.printable)."""
    err = _refused(tmp_path, capsys, change)
    assert where in err and "control character" in err
    assert not any(c in err for c in "\x1b\x07\x9b")


def test_cct_8f_a_finalist_who_played_no_event_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-8f bonus is ½ per full 10 tour points above the lowest finalist. A finalist the
    events never saw (a typo: 'h' for 'H') had 0 points and silently moved that baseline,
    changing every finalist's bonus; it is refused naming finals.players[7]."""
    err = _refused(tmp_path, capsys, lambda d: d["finals"]["players"].__setitem__(7, "h"))
    assert "finals.players[7]: 'h' played no event of the tour" in err


def test_cct_6_table_values_beyond_any_tour_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-6 tables are tens of points (Major winner 80): 10**30 is a typo, not a table."""
    table = {
        "preliminary": [10, 8],
        "knockout": {"winner": 10**30, "runner-up": 25, "semi-final": 10},
    }
    err = _refused(tmp_path, capsys, lambda d: d.update(rules={"points": {"regular": table}}))
    assert "rules.points.regular.knockout.winner" in err


def test_cct_2_a_device_is_refused_not_read_into_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """/dev/zero as the tour file, or as a preliminary's TRF, used to fill memory (every other
    input goes through the 16 MiB cap of bot/cli/input_file.py)."""
    assert main(["tour", "/dev/zero"]) == 2
    assert "/dev/zero" in capsys.readouterr().err
    trf = {"trf": "/dev/zero"}
    err = _refused(tmp_path, capsys, lambda d: d["events"][0].update(preliminary=trf))
    assert "events[0].preliminary.trf" in err and "16 MiB" in err


def test_cct_8b_trf_preliminary_is_read_as_arbiter_standings_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same TRF must give the same order in `arbiter tour` as in `arbiter standings`:
    Windows-1252 names ('…' is byte 0x85) and TRF-2026 records 162/299 included.

    8 players, the lower start number wins every game: 1 has 7, 2 has 6 … 8 has 0. A 299
    bonus of 6.5 for player 8 makes 6.5: order 1 (Müller…), 8, 2, 3, 4, 5, 6, 7. Bracket
    (CCT-8c): QF1 Müller…-P7, QF2 P8-P6, QF3 P2-P5, QF4 P3-P4, all won by the first;
    SF1 Müller…-P3 → Müller…, SF2 P8-P2 → P8; final Müller… ; 3rd P3-P2 → P2.
    Tour points (CCT-6 Regular): Müller… 10+40=50, P8 8+25=33, P2 6+15=21, P3 5+10=15."""
    names = ["Müller…", *(f"P{n}" for n in range(2, 9))]
    games = [
        Game(p.white, p.black, Result.WHITE_WIN if p.white < p.black else Result.BLACK_WIN, r)
        for r, boards in enumerate(berger_table(8).rounds, start=1)
        for p in boards
    ]
    text = dump_trf(round_robin_trf(names, games, rounds=7, name="Prelim"))
    text += "299           6.5  000 0008\n"
    (tmp_path / "prelim.trf").write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    m = "Müller…"
    knockout = [
        ("QF1", m, "P7", m),
        ("QF2", "P8", "P6", "P8"),
        ("QF3", "P2", "P5", "P2"),
        ("QF4", "P3", "P4", "P3"),
        ("SF1", m, "P3", m),
        ("SF2", "P8", "P2", "P8"),
        ("F", m, "P8", m),
        ("3rd", "P3", "P2", "P2"),
    ]
    tour = {
        "name": "TRF preliminary",
        "events": [
            {
                "name": "One",
                "type": "regular",
                "preliminary": {"trf": "prelim.trf"},
                "knockout": [{"round": r, "a": a, "b": b, "winner": w} for r, a, b, w in knockout],
            }
        ],
    }
    path = tmp_path / "tour.json"
    path.write_text(json.dumps(tour), encoding="utf-8")
    assert main(["tour", str(path), "--json"]) == 0
    points = json.loads(capsys.readouterr().out)["events"][0]["tour_points"]
    assert {p["player"]: p["points"] for p in points[:4]} == {m: 50, "P8": 33, "P2": 21, "P3": 15}


def test_cct_6_cct_3_five_tie_criteria_and_a_place_left_to_a_play_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tests/data/tour_tie_criteria.json: a table of zeros, so the five criteria decide alone.

    E1 (9 players A..H, N): QF A-H → A, B-G → B, C-F → C, D-E → D; SF A-D → A, B-C → B;
    final A; 3rd D-C → C (N 9th). E2 (9 players, places E F G H B C N M K): QF1 E-M → E,
    QF2 F-N → F, QF3 G-C → G, QF4 H-B → H; SF E-H → E, F-G → F; final E; 3rd H-G → G.
    Records (wins, events, finals, semis, quarters): A 1,1,1,1,1; E 1,2,1,1,2;
    D 0,1,0,1,1; M 0,1,0,0,1; K 0,1,0,0,0; B and F 0,2,1,1,2; C, G, H 0,2,0,1,2;
    N 0,2,0,0,1. Ranking: 1 A (wins, then fewer events than E), 2 E (more wins than D),
    3 D (semi-final more than M), 4 M (quarter-final more than K), 5 K (fewer events than
    B), 6= B F (a final more than C), 8= C G H, 11 N (semi-final).
    Finals (no Major): the 8 standings places are A E D M K B F and one of C G H, whose tie
    decides it: play-off required, and the 8th line says so; 2 places left."""
    path = ROOT / "tests" / "data" / "tour_tie_criteria.json"
    assert main(["tour", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ranks = [(r["rank"], r["player"], r["tied"]) for r in data["standings"]]
    assert ranks == [
        (1, "A", False),
        (2, "E", False),
        (3, "D", False),
        (4, "M", False),
        (5, "K", False),
        (6, "B", True),
        (6, "F", True),
        (8, "C", True),
        (8, "G", True),
        (8, "H", True),
        (11, "N", False),
    ]
    qualification = data["qualification"]
    assert [q["player"] for q in qualification["finals"]][:7] == list("AEDMKBF")
    assert qualification["playoffs_required"] == [["C", "G", "H"]]
    assert qualification["places_left"] == 2
    assert main(["tour", str(path)]) == 0
    eighth = [line for line in capsys.readouterr().out.splitlines() if line.startswith("   8.")]
    assert eighth == ["   8. C — tour standings (tour rank 8 (shared)) — play-off with G, H"]
