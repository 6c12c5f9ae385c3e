"""A tour points table and a game scoring typed on one line (CCT-6, CCT-8a): the forgiving
grammar, and one specific refusal for every bad part."""

from __future__ import annotations

import pytest

from bot.formats.points_text import PointsTextError, parse_points_table, parse_scoring
from bot.rendering.tour.points import table_line
from core.results import STANDARD, THREE_ONE_ZERO
from core.tour.knockout import KoStage
from core.tour.ranking import REGULAR_POINTS, PointsTable

SKILLING = "prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 20; semi-final 10; quarter-final 0"


def test_cct_6_the_skilling_open_table_reads_as_typed_and_writes_back_the_same() -> None:
    table = parse_points_table(SKILLING, label="Skilling Open table", players=16)
    assert table.preliminary == (10, 8, 6, 5, 4, 3, 2, 1)
    assert table.stage_points(KoStage.RUNNER_UP) == 20
    assert table.stage_points(KoStage.THIRD) == 10  # no 3rd-place values: the semi-final's
    assert table_line(table) == SKILLING
    assert parse_points_table(table_line(REGULAR_POINTS), label="x", players=16) == (
        PointsTable("x", REGULAR_POINTS.preliminary, REGULAR_POINTS.knockout)
    )


def test_cct_6_spaces_case_separators_order_and_aliases_do_not_matter() -> None:
    typed = "  Semi Final=10,WINNER: 40  runner up 20 ;; PRELIM 10,8 , 6 3RD 15 fourth 10 QF 0 "
    table = parse_points_table(typed, label="x", players=16)
    assert table.preliminary == (10, 8, 6)
    assert dict(table.knockout) == {
        KoStage.SEMI_FINAL: 10,
        KoStage.WINNER: 40,
        KoStage.RUNNER_UP: 20,
        KoStage.THIRD: 15,
        KoStage.FOURTH: 10,
        KoStage.QUARTER_FINAL: 0,
    }
    without_quarter = parse_points_table(
        "prelim 1; winner 3; runner-up 2; sf 1", label="x", players=8
    )
    assert without_quarter.knockout[KoStage.QUARTER_FINAL] == 0  # as in the tour file


@pytest.mark.parametrize(
    ("text", "part", "words"),
    [
        ("prelim 10 8; champion 40; runner-up 20; semi-final 10", "champion", "not a key"),
        ("prelim 10 8; winner -40; runner-up 20; semi-final 10", "winner -40", "negative"),
        ("prelim 10 8.5; winner 40; runner-up 20; semi-final 10", "prelim 10 8.5", "not whole"),
        ("prelim 10 ½; winner 40; runner-up 20; semi-final 10", "prelim 10 ½", "not whole"),
        ("prelim 9 8 7 6 5 4 3 2 1; winner 4; runner-up 2; semi-final 1", None, "9 preliminary"),
        ("prelim 10; winner 1001; runner-up 20; semi-final 10", "winner 1001", "at most 1000"),
        ("prelim 10; winner 40 30; runner-up 20; semi-final 10", "winner 40 30", "one number"),
        ("prelim 10; winner; runner-up 20; semi-final 10", "winner", "no points"),
        ("prelim 10; winner 4; winner 5; runner-up 2; semi-final 1", "winner 5", "second time"),
        ("10 8 6; winner 40; runner-up 20; semi-final 10", "10", "before any key"),
        ("prelim 10; winner 4; runner-up 2; semi-final 1; 3rd 1", None, "3rd without 4th"),
        ("   ", None, "empty"),
    ],
)
def test_cct_6_every_bad_part_is_refused_by_name(text: str, part: str | None, words: str) -> None:
    with pytest.raises(PointsTextError) as refused:
        parse_points_table(text, label="x", players=8)
    assert words in refused.value.problem
    if part is not None:
        assert refused.value.part == part
    assert "\n" not in str(refused.value)


def test_cct_6_a_table_missing_keys_says_which() -> None:
    with pytest.raises(PointsTextError) as refused:
        parse_points_table("winner 40; quarter-final 0", label="x", players=16)
    assert refused.value.part is None
    assert refused.value.problem.startswith("The table misses prelim, runner-up, semi-final:")


def test_cct_6_too_many_places_names_the_events_size() -> None:
    with pytest.raises(PointsTextError) as refused:
        parse_points_table(
            "prelim 1 1 1 1 1 1 1 1 1 1 1 1 1; winner 1; runner-up 1; sf 1", label="x", players=12
        )
    assert refused.value.problem == "pays 13 preliminary places: the event has 12 players"


def test_cct_8a_the_two_game_scorings_by_name() -> None:
    assert parse_scoring("3/1/0") is THREE_ONE_ZERO
    assert parse_scoring(" 1/½/0 ") is STANDARD
    assert parse_scoring("1/0.5/0") is STANDARD
    assert parse_scoring("Standard") is STANDARD
    with pytest.raises(PointsTextError) as refused:
        parse_scoring("2/1/0")
    assert refused.value.part == "2/1/0" and "1/½/0" in refused.value.problem
