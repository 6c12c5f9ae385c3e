"""`arbiter tour`: a whole CCT tour from a tour file, worked out by hand from docs/rules.md
(CCT-2, CCT-3, CCT-6, CCT-8b, CCT-8c, CCT-8d, CCT-8f)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.formats.tour_file import games_order
from bot.formats.tour_models import PreliminaryModel
from core.results import STANDARD, THREE_ONE_ZERO
from tests.support.paths import FIXTURES, ROOT

THREE_EVENTS = ROOT / "tests" / "data" / "tour_three_events.json"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["tour", *argv, "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_cct_6_cct_8c_cct_8f_cct_3_three_events_and_the_finals_worked_by_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tests/data/tour_three_events.json, CCT-6 default tables.

    Regular One (8 players A..H, 3rd-place match, by walkover). QF1 A-H → A, QF2 B-G → G,
    QF3 C-F → C, QF4 D-E → E; SF1 (QF1 v QF4) A-E → A, SF2 (QF2 v QF3) G-C → C; final A-C
    drawn 2-2 then C won 2½-1½ (won one, drew one) → C; 3rd E-G → G (walkover).
    Placings 1 C, 2 A, 3 G, 4 E, 5= B D F H. Points (prelim + knock-out): C 6+40=46,
    A 10+25=35, G 2+15=17, E 4+10=14, B 8, D 5, F 3, H 1.

    Regular Two (10 players B D A I C J E F G H, no 3rd-place match). QF1 B-F → B,
    QF2 D-E → D, QF3 A-J → J, QF4 I-C: 2-2, 2-2, blitz 1-1, Armageddon won by a → I;
    SF1 B-I → I, SF2 D-J → D; final I-D → D. Placings 1 D, 2 I, 3= B J (no 3rd-place match),
    5= A C E F, 9 G, 10 H. Points: D 8+40=48, I 5+25=30, B 10+10=20, J 3+10=13, A 6, C 4,
    E 2, F 1, G 0, H 0.

    Major (8 players A C D B I J E G; table doubled). QF1 A-G → A, QF2 C-E → C, QF3 D-J → D,
    QF4 B-I → B; SF1 A-B → B, SF2 C-D → D; final B-D → B; 3rd A-C: A won 2½-½, drew 2-2 → A.
    Placings 1 B, 2 D, 3 A, 4 C, 5= I J E G. Points: B 10+80=90, D 12+50=62, A 20+30=50,
    C 16+20=36, I 8, J 6, E 4, G 2.

    Tour (points, events, wins, finals, semis, quarters): B 8+20+90=118 (3,1,1,2,3),
    D 5+48+62=115 (3,1,2,2,3), A 35+6+50=91 (3,0,1,2,3), C 46+4+36=86 (3,1,1,2,3),
    I 30+8=38 (2,0,1,1,2), E 14+2+4=20 (3,0,0,1,3), J 13+6=19 (2,0,0,1,2),
    G 17+0+2=19 (3,0,0,1,2), F 3+1=4 (2,0,0,0,2), H 1+0=1 (2,0,0,0,1).
    Ranks 1 B, 2 D, 3 A, 4 C, 5 I, 6 E, 7 J, 8 G (J and G tie on 19 points and 0 wins;
    J played fewer events), 9 F, 10 H; no rank shared, no play-off.

    Finals qualification: B (Major winner), then the standings D A C I E J G (8 places);
    2 places left (Ambassadors). Finals bonus: lowest finalist H 1 point; ½ per full 10
    above: B 117→5½, D 114→5½, A 90→4½, C 85→4, I 37→1½, E 19→½, J 18→½, G 18→½, F 3→0,
    H 0. Matches: D beat B rapid (3/0), A beat C tie-break (2/1), E beat I rapid (3/0),
    A beat H tie-break (2/1). Totals A 4½+4=8½, D 5½+3=8½ (tie for first), B 5½, C 5,
    E 3½, I 1½, H 1, G ½, J ½, F 0.
    """
    out = run_json(capsys, str(THREE_EVENTS))
    events = {e["name"]: e for e in out["events"]}

    def placings(name: str) -> list[tuple[int, str]]:
        return [(p["place"], p["player"]) for p in events[name]["placings"]]

    def points(name: str) -> dict[str, tuple[int, int, str | None]]:
        return {
            t["player"]: (t["points"], t["preliminary_place"], t["knockout"])
            for t in events[name]["tour_points"]
        }

    assert placings("Regular One") == [
        (1, "C"), (2, "A"), (3, "G"), (4, "E"), (5, "B"), (5, "D"), (5, "F"), (5, "H")
    ]  # fmt: skip
    assert points("Regular One") == {
        "C": (46, 3, "winner"),
        "A": (35, 1, "runner-up"),
        "G": (17, 7, "3rd"),
        "E": (14, 5, "4th"),
        "B": (8, 2, "quarter-final"),
        "D": (5, 4, "quarter-final"),
        "F": (3, 6, "quarter-final"),
        "H": (1, 8, "quarter-final"),
    }
    assert placings("Regular Two") == [
        (1, "D"), (2, "I"), (3, "B"), (3, "J"), (5, "A"), (5, "C"), (5, "E"), (5, "F"),
        (9, "G"), (10, "H"),
    ]  # fmt: skip
    assert points("Regular Two") == {
        "D": (48, 2, "winner"),
        "I": (30, 4, "runner-up"),
        "B": (20, 1, "semi-final"),
        "J": (13, 6, "semi-final"),
        "A": (6, 3, "quarter-final"),
        "C": (4, 5, "quarter-final"),
        "E": (2, 7, "quarter-final"),
        "F": (1, 8, "quarter-final"),
        "G": (0, 9, None),
        "H": (0, 10, None),
    }
    assert placings("Major") == [
        (1, "B"), (2, "D"), (3, "A"), (4, "C"), (5, "I"), (5, "J"), (5, "E"), (5, "G")
    ]  # fmt: skip
    assert {p: v[0] for p, v in points("Major").items()} == {
        "B": 90, "D": 62, "A": 50, "C": 36, "I": 8, "J": 6, "E": 4, "G": 2
    }  # fmt: skip

    rows = [
        (
            r["rank"], r["player"], r["points"], r["events"], r["wins"],
            r["finals"], r["semi_finals"], r["quarter_finals"], r["tied"], r["playoff_required"],
        )
        for r in out["standings"]
    ]  # fmt: skip
    assert rows == [
        (1, "B", 118, 3, 1, 1, 2, 3, False, False),
        (2, "D", 115, 3, 1, 2, 2, 3, False, False),
        (3, "A", 91, 3, 0, 1, 2, 3, False, False),
        (4, "C", 86, 3, 1, 1, 2, 3, False, False),
        (5, "I", 38, 2, 0, 1, 1, 2, False, False),
        (6, "E", 20, 3, 0, 0, 1, 3, False, False),
        (7, "J", 19, 2, 0, 0, 1, 2, False, False),
        (8, "G", 19, 3, 0, 0, 1, 2, False, False),
        (9, "F", 4, 2, 0, 0, 0, 2, False, False),
        (10, "H", 1, 2, 0, 0, 0, 1, False, False),
    ]

    qual = out["qualification"]
    assert [(q["player"], q["why"]) for q in qual["finals"]] == [
        ("B", "Major winner"),
        *((p, "tour standings") for p in "DACIEJG"),
    ]
    assert qual["finals"][0]["detail"] == "won Major"
    assert qual["places_left"] == 2 and qual["playoffs_required"] == []

    finals = [
        (r["rank"], r["player"], r["bonus"], r["match_points"], r["total"])
        for r in out["finals"]["standings"]
    ]
    assert finals == [
        (1, "A", 4.5, 4, 8.5),
        (1, "D", 5.5, 3, 8.5),
        (3, "B", 5.5, 0, 5.5),
        (4, "C", 4, 1, 5),
        (5, "E", 0.5, 3, 3.5),
        (6, "I", 1.5, 0, 1.5),
        (7, "H", 0, 1, 1),
        (8, "G", 0.5, 0, 0.5),
        (8, "J", 0.5, 0, 0.5),
        (10, "F", 0, 0, 0),
    ]
    assert out["finals"]["tied_for_first"] == ["A", "D"]


def test_cct_6_after_an_event_gives_the_standings_as_then(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--after "Regular Two": Major not counted, no Finals table. B 8+20=28, D 5+48=53,
    A 35+6=41, C 46+4=50, I 30, E 16, G 17, J 13, F 4, H 1 → D C A I B G E J F H.
    No Major winner yet: the 8 standings places, 2 left."""
    out = run_json(capsys, str(THREE_EVENTS), "--after", "Regular Two")
    assert [e["name"] for e in out["events"]] == ["Regular One", "Regular Two"]
    assert [(r["player"], r["points"]) for r in out["standings"]] == [
        ("D", 53), ("C", 50), ("A", 41), ("I", 30), ("B", 28), ("G", 17), ("E", 16),
        ("J", 13), ("F", 4), ("H", 1),
    ]  # fmt: skip
    assert [q["player"] for q in out["qualification"]["finals"]] == list("DCAIBGEJ")
    assert out["finals"] is None


def test_cct_8c_text_reads_like_a_published_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tour", str(THREE_EVENTS)]) == 0
    text = capsys.readouterr().out
    assert "Regular One (Regular; 8 players, 3rd place by walkover)" in text
    assert "Regular Two (Regular; 10 players, no 3rd-place match)" in text
    assert "  1=  A          4½   4     8½" in text
    assert "Tie for first: A, D" in text
    assert "Places left: 2" in text


def _zero_event(name: str, order: list[str], ko: list[tuple[str, str, str, str]]) -> dict:
    zero = {"preliminary": [0], "knockout": {"winner": 0, "runner-up": 0, "semi-final": 0}}
    return {
        "name": name,
        "type": "regular",
        "third_place_match": False,
        "points": zero,
        "preliminary": {"order": order},
        "knockout": [{"round": r, "a": a, "b": b, "winner": w} for r, a, b, w in ko],
    }


def _higher_seeds_win(order: list[str]) -> list[tuple[str, str, str, str]]:
    o = order
    return [
        ("QF1", o[0], o[7], o[0]),
        ("QF2", o[1], o[6], o[1]),
        ("QF3", o[2], o[5], o[2]),
        ("QF4", o[3], o[4], o[3]),
        ("SF1", o[0], o[3], o[0]),
        ("SF2", o[1], o[2], o[1]),
        ("F", o[0], o[1], o[0]),
    ]


def test_cct_6_every_tie_criterion_decides_a_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-6 with events whose own tables give 0 points, so every player ties on points and
    the criteria alone order them. Z1: P1..P10, higher seeds win, no 3rd-place match; Z2:
    R1..R8 plus P10 at place 9, the same. Then (wins, events, finals, semis, quarters):
    P1 (1,1,1,1,1) v P2 (0,1,1,1,1) — 1. wins; P2 v P3 (0,1,0,1,1) — 3. finals;
    P3 v P5 (0,1,0,0,1) — 4. semi-finals; P5 v P9 (0,1,0,0,0) — 5. quarter-finals;
    P9 (0,1,0,0,0) v P10 (0,2,0,0,0) — 2. fewer events. Ranks: 1= P1 R1, 3= P2 R2,
    5= P3 P4 R3 R4, 9= P5..P8 R5..R8, 17 P9, 18 P10 (every rank but the last two shared).
    No Major: the 8 Finals standings places are exactly ranks 1= to 5=, so the cut falls
    between ranks — no play-off; 2 places left."""
    order = [f"P{i}" for i in range(1, 11)]
    second = [f"R{i}" for i in range(1, 9)] + ["P10"]
    tour = {
        "name": "Zero",
        "events": [
            _zero_event("Z1", order, _higher_seeds_win(order)),
            _zero_event("Z2", second, _higher_seeds_win(second)),
        ],
    }
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(tour))
    out = run_json(capsys, str(path))
    rank = {r["player"]: r["rank"] for r in out["standings"]}
    assert rank["P1"] == rank["R1"] == 1 and rank["P2"] == 3  # 1. wins
    assert rank["P2"] < rank["P3"] == 5  # 3. finals
    assert rank["P3"] < rank["P5"] == 9  # 4. semi-finals
    assert rank["P5"] < rank["P9"] == 17  # 5. quarter-finals
    assert rank["P9"] < rank["P10"] == 18  # 2. fewer events
    tied = {r["player"] for r in out["standings"] if r["tied"]}
    assert tied == set(rank) - {"P9", "P10"}
    assert out["qualification"]["places_left"] == 2


def test_cct_6_tie_across_the_finals_cut_requires_a_playoff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-6/CCT-3, 0-point tables. Z1 (Major, P1..P10, higher seeds win, no 3rd-place
    match), Z2 (Regular, P9 P10 Q1..Q6, the same). (wins, events, finals, semis, quarters):
    P1 (1,1,1,1,1) rank 1; P9 (1,2,1,1,1) 2; P2 (0,1,1,1,1) 3; P3 P4 Q1 Q2 (0,1,0,1,1) 4=;
    P5..P8 Q3..Q6 (0,1,0,0,1) 8=; P10 (0,2,1,1,1) 16 (more events outweighs its final).
    Finals: P1 as Major winner, then 7 standings places: P9, P2, the four of 4= and one of
    the eight of 8= — the cut splits 8=, so those eight are flagged "play-off required"."""
    order = [f"P{i}" for i in range(1, 11)]
    event = _zero_event("Z1", order, _higher_seeds_win(order))
    event["type"] = "major"
    event["points"]["preliminary"] = [0] * 10
    second = _zero_event("Z2", ["P9", "P10", "Q1", "Q2", "Q3", "Q4", "Q5", "Q6"], [])
    second["knockout"] = [
        {"round": r, "a": a, "b": b, "winner": w}
        for r, a, b, w in _higher_seeds_win(second["preliminary"]["order"])
    ]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps({"name": "Cut", "events": [event, second]}))
    out = run_json(capsys, str(path))
    rank = {r["player"]: r["rank"] for r in out["standings"]}
    assert [rank[p] for p in ("P1", "P9", "P2", "P3", "Q2", "P5", "Q6", "P10")] == [
        1, 2, 3, 4, 4, 8, 8, 16
    ]  # fmt: skip
    eight = {"P5", "P6", "P7", "P8", "Q3", "Q4", "Q5", "Q6"}
    assert {r["player"] for r in out["standings"] if r["playoff_required"]} == eight
    assert [set(g) for g in out["qualification"]["playoffs_required"]] == [eight]
    finalists = [q["player"] for q in out["qualification"]["finals"]]
    assert finalists[:7] == ["P1", "P9", "P2", "P3", "P4", "Q1", "Q2"]
    assert finalists[7] in eight and len(finalists) == 8
    assert out["qualification"]["finals"][0]["why"] == "Major winner"


def test_cct_8b_preliminary_order_computed_from_a_trf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CCT-8b: the Airthings Masters 2020 preliminary as a TRF gives its official order
    (Carlsen, So, Nakamura, Nepo, Radjabov, Aronian, MVL, Dubov, Harikrishna, Grischuk …);
    knock-out winners are the higher seeds, so preliminary places show that order."""
    trf = FIXTURES / "tiebreaks" / "airthings_masters_2020_prelim.trf"
    expected = json.loads(
        (FIXTURES / "tiebreaks/airthings_masters_2020_prelim.expected.json").read_text()
    )["official_order"]
    event = {
        "name": "Airthings Masters",
        "type": "regular",
        "preliminary": {"trf": str(trf)},
        "knockout": [
            {"round": r, "a": a, "b": b, "winner": w} for r, a, b, w in _higher_seeds_win(expected)
        ]
        + [{"round": "3rd", "a": expected[3], "b": expected[2], "winner": expected[2]}],
    }
    path = tmp_path / "airthings.json"
    path.write_text(json.dumps({"name": "CCT", "events": [event]}))
    out = run_json(capsys, str(path))
    prelim = sorted(out["events"][0]["tour_points"], key=lambda t: t["preliminary_place"])
    assert [t["player"] for t in prelim][:10] == expected[:10]
    assert out["events"][0]["tour_points"][0] == {
        "player": "Carlsen",
        "points": 50,
        "preliminary_place": 1,
        "knockout": "winner",
    }


def _bad(tmp_path: Path, mutate: Any) -> tuple[int, str]:
    data = json.loads(THREE_EVENTS.read_text())
    mutate(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code = main(["tour", str(path)])
    return code, path.name


def _ko(data: dict, event: int, index: int) -> dict:
    entry: dict = data["events"][event]["knockout"][index]
    return entry


BAD_FILES: list[tuple[str, Any, str]] = [
    (
        "bracket not from the preliminary order",
        lambda d: _ko(d, 0, 0).update(b="G"),
        "events[0].knockout[0]: CCT-8c: QF1 is places 1 v 8, 'A' v 'H', not 'A' v 'G'",
    ),
    (
        "semi-final not between the right quarter-final winners",
        lambda d: _ko(d, 0, 4).update(b="C"),
        "events[0].knockout[4]: CCT-8c: SF1 is 'A' v 'E', not 'A' v 'C'",
    ),
    (
        "winner who did not play",
        lambda d: _ko(d, 0, 0).update(winner="B"),
        "events[0].knockout[0].winner: 'B' did not play 'A' v 'H'",
    ),
    (
        "daily scores contradict the winner",
        lambda d: _ko(d, 0, 6).update(winner="A"),
        "events[0].knockout[6].winner: 'A' contradicts the scores, by which 'C' won",
    ),
    (
        "a match won at 2½ with a 4th game",
        lambda d: _ko(d, 2, 7).update(days=["3.5-0.5", "2-2"]),
        "events[2].knockout[7].days[0]: 3.5–0.5: the match was won at 2.5 after 3 games, so no "
        "4th game was played (CCT-8d)",
    ),
    (
        "a series won 2-0 in matches with a play-off",
        lambda d: _ko(d, 2, 7).update(days=["2.5-0.5", "2-0"], playoff={"blitz": "1-1"}),
        "events[2].knockout[7].playoff: A won the series in the rapid matches",
    ),
    (
        "a day-2 match that went on after the series was decided",
        lambda d: _ko(d, 2, 7).update(days=["2.5-0.5", "3-1"]),
        "events[2].knockout[7].days[1]: 3–1: the winner of match 1 had 2 points in match 2 "
        "before its last game, so the series was decided and the match stopped there (CCT-8d)",
    ),
    (
        "a day-2 match stopped at 2-0 after a drawn day 1",
        lambda d: _ko(d, 2, 7).update(days=["2-2", "2-0"]),
        "events[2].knockout[7].days[1]: 2–0 is not a finished match",
    ),
    (
        "a 3-game match not decided",
        lambda d: _ko(d, 2, 7).update(days=["2-1", "2-2"]),
        "events[2].knockout[7].days[0]: 2–1 after 3 games is not decided",
    ),
    (
        "blitz decided yet an Armageddon",
        lambda d: _ko(d, 1, 3).update(playoff={"blitz": "1.5-0.5", "armageddon": "a"}),
        "events[1].knockout[3].playoff.armageddon: the blitz games ended 1.5-0.5",
    ),
    (
        "walkover with scores",
        lambda d: _ko(d, 0, 7).update(days=["2-2", "2-2"]),
        "events[0].knockout[7].walkover: a walkover has no scores",
    ),
    (
        "CCT-9: a reason without a walkover",
        lambda d: _ko(d, 0, 0).update(reason="illness"),
        "events[0].knockout[0].reason: a reason or note belongs to a walkover (CCT-9)",
    ),
    (
        "CCT-9: an unknown walkover reason",
        lambda d: _ko(d, 0, 7).update(reason="bored"),
        "events[0].knockout[7].reason: must be one of withdrawal, no-show, illness or other",
    ),
    (
        "CCT-9: an awarded Finals match scored as a tie-break",
        lambda d: d["finals"]["matches"][0].update(walkover=True, decided="tiebreak"),
        "finals.matches[0].decided: an awarded match scores as a rapid win, 3/0",
    ),
    (
        "3rd-place match in an event without one",
        lambda d: d["events"][1]["knockout"].append(
            {"round": "3rd", "a": "B", "b": "J", "winner": "B"}
        ),
        "events[1].knockout[7].round: the event has no 3rd-place match",
    ),
    (
        "missing round",
        lambda d: d["events"][0]["knockout"].pop(5),
        "events[0].knockout: round SF2 is missing",
    ),
    (
        "Finals match between non-finalists",
        lambda d: d["finals"]["matches"].append(
            {"a": "A", "b": "Z", "winner": "A", "decided": "rapid"}
        ),
        "finals.matches[4].b: 'Z' is not a finalist (finals.players)",
    ),
    (
        "duplicate events",
        lambda d: d["events"].append(copy.deepcopy(d["events"][0])),
        "events[3].name: duplicate event 'Regular One' (also events[0])",
    ),
    (
        "a player twice in the preliminary order",
        lambda d: d["events"][0]["preliminary"]["order"].__setitem__(7, "A"),
        "events[0].preliminary.order[7]: 'A' is listed twice (also [0])",
    ),
    (
        "a score that is not a score",
        lambda d: _ko(d, 0, 6).update(days=["2-2", "win"]),
        "events[0].knockout[6].days[1]: 'win' is not a score like \"2.5-1.5\"",
    ),
    (
        "unknown field",
        lambda d: d["events"][0].update(colour="red"),
        "events[0].colour: unknown key",
    ),
    (
        "a game scoring that is neither 1/½/0 nor 3/1/0 (CCT-8a)",
        lambda d: d["events"][0].update(scoring="2/1/0"),
        "events[0].scoring: must be one of 1/½/0 or 3/1/0, not '2/1/0'",
    ),
    (
        "Finals pair twice",
        lambda d: d["finals"]["matches"].append(
            {"a": "D", "b": "B", "winner": "B", "decided": "rapid"}
        ),
        "finals.matches[4]: 'D' and 'B' already met (finals.matches[0])",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [(m, msg) for _, m, msg in BAD_FILES], ids=[n for n, _, _ in BAD_FILES]
)
def test_cct_8c_cct_8d_bad_tour_files_are_refused_naming_the_json_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate: Any, message: str
) -> None:
    code, name = _bad(tmp_path, mutate)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert f"arbiter tour: {tmp_path / name} is not a valid tour file:" in captured.err
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_tour_after_an_unknown_event_and_a_missing_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tour", str(THREE_EVENTS), "--after", "Nope"]) == 2
    assert "--after: no event named 'Nope'" in capsys.readouterr().err
    assert main(["tour", str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_schema_tour_publishes_the_tour_file_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "tour"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "TourFile"
    assert {"name", "events"} <= set(schema["required"])
    knockout = schema["$defs"]["KnockoutPoints"]["properties"]
    assert {"winner", "runner-up", "3rd", "4th", "semi-final", "quarter-final"} == set(knockout)


@pytest.mark.parametrize("days", [["2.5-0.5", "2-0"], ["2.5-0.5", "2-1"], ["2.5-0.5", "2-2"]])
def test_cct_8d_a_day_2_match_stopped_once_the_series_was_decided_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], days: list[str]
) -> None:
    """CCT-8d: a real 2020-21 day-2 match stopped at 2–0 or 2–1 after a day-1 win."""
    data = json.loads(THREE_EVENTS.read_text(encoding="utf-8"))
    _ko(data, 2, 7).update(days=days)
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_json(capsys, str(path))
    major = result["events"][2]
    assert [p["player"] for p in major["placings"][:4]] == ["B", "D", "A", "C"]
    points = {row["player"]: row["points"] for row in major["tour_points"]}
    assert (points["A"], points["C"]) == (50, 36)


def _reversal_games() -> list[dict[str, Any]]:
    """8 players: A wins 4 and loses 3, B wins 2 and draws 5, the Cs draw among themselves
    (1/½/0: B 4½, A 4; 3/1/0: A 12, B 11)."""
    players = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6"]
    wins = {("B", "A"), ("B", "C1"), ("A", "C1"), ("A", "C2"), ("A", "C3"), ("A", "C4")}
    wins |= {("C5", "A"), ("C6", "A")}
    games = []
    for i, white in enumerate(players):
        for black in players[i + 1 :]:
            result = "1-0" if (white, black) in wins else "1/2-1/2"
            result = "0-1" if (black, white) in wins else result
            games.append({"round": 1, "white": white, "black": black, "result": result})
    return games


def test_cct_8a_an_events_3_1_0_scoring_orders_its_preliminary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`"scoring": "3/1/0"` on an event (docs/tour-file.md): its preliminary, given by its
    games, is ordered by 3/1/0 points (A first), not by 1/½/0 (B first)."""
    players = ["A", "B", "C1", "C2", "C3", "C4", "C5", "C6"]
    prelim = {"players": players, "games": _reversal_games(), "lots": "x"}
    model = PreliminaryModel.model_validate(prelim)
    assert games_order(model, "p", 8, STANDARD)[0] == "B"
    order = games_order(model, "p", 8, THREE_ONE_ZERO)
    assert order[:2] == ["A", "B"]
    event = _zero_event("Three", order, _higher_seeds_win(order))
    event.update(preliminary=prelim, scoring="3/1/0")
    path = tmp_path / "three.json"
    path.write_text(json.dumps({"name": "T", "events": [event]}))
    out = run_json(capsys, str(path))
    places = {p["player"]: p["preliminary_place"] for p in out["events"][0]["tour_points"]}
    assert (places["A"], places["B"]) == (1, 2)
    event.pop("scoring")
    path.write_text(json.dumps({"name": "T", "rules": {"scoring": "3/1/0"}, "events": [event]}))
    assert (
        run_json(capsys, str(path))["events"][0]["tour_points"] == out["events"][0]["tour_points"]
    )
