"""CORE-5 exact scores: what `half_points` / `HalfPoints` accept and refuse, by the Python
and the JSON door, so a faster validator cannot weaken a check."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest
from pydantic import ValidationError

from bot.formats.season_file import BoardModel, load_season, read_season_file
from core.points import decimal_text, half_points, json_number
from tests.support.cl_seasons import match, season


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, Fraction(0)),
        (2, Fraction(2)),
        (1.5, Fraction(3, 2)),
        (0.5, Fraction(1, 2)),
        (-0.5, Fraction(-1, 2)),
        (1000.5, Fraction(2001, 2)),
        (Fraction(3, 2), Fraction(3, 2)),
        (Decimal("1.5"), Fraction(3, 2)),
        ("1.5", Fraction(3, 2)),
        (" 3/2 ", Fraction(3, 2)),
        (10**30, Fraction(10**30)),
    ],
)
def test_core_5_half_points_accepts_exact_halves(value: object, expected: Fraction) -> None:
    parsed = half_points(value)
    assert parsed == expected and type(parsed) is Fraction
    if isinstance(value, str):  # a file field wants a number, as the published schema says
        with pytest.raises(ValidationError, match="is text, not a number"):
            BoardModel(home_player="a", away_player="b", home_points=value, away_points=0)
        return
    board = BoardModel(home_player="a", away_player="b", home_points=value, away_points=0)
    assert board.home_points == expected and type(board.home_points) is Fraction


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "boolean"),
        (False, "boolean"),
        (1.25, "multiple of ½"),
        (0.1, "multiple of ½"),
        (Fraction(1, 3), "multiple of ½"),
        ("1.25", "multiple of ½"),
        ("abc", "is not a number"),
        ("1/0", "is not a number"),
        (float("nan"), "finite"),
        (float("inf"), "finite"),
        (None, "is not a number"),
        ([1], "is not a number"),
    ],
)
def test_core_5_half_points_refuses_what_is_not_an_exact_half(value: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        half_points(value)
    field_message = "is text, not a number" if isinstance(value, str) else message
    with pytest.raises(ValidationError, match=field_message):
        BoardModel(home_player="a", away_player="b", home_points=value, away_points=0)


def test_core_5_json_door_parses_the_same() -> None:
    good = '{"home_player": "a", "away_player": "b", "home_points": 1.5, "away_points": 0.5}'
    board = BoardModel.model_validate_json(good)
    assert (board.home_points, board.away_points) == (Fraction(3, 2), Fraction(1, 2))
    bad_values = (
        ("1.25", "multiple of ½"),
        ("true", "boolean"),
        ("null", "not a number"),
        ('"1.5"', "is text, not a number"),
    )
    for bad, message in bad_values:
        text = good.replace('"home_points": 1.5', f'"home_points": {bad}')
        with pytest.raises(ValidationError, match=message):
            BoardModel.model_validate_json(text)
    assert json.loads(board.model_dump_json())["home_points"] == 1.5


def test_core_5_season_board_checks_hold_for_every_value() -> None:
    base = season([match("1", "A", "B", [])])
    cases = [
        ((2.5, -0.5), "matches[0].boards[0]", "points cannot be negative"),
        ((1.5, 1), "matches[0].boards[0].home_points", "home 1.5 + away 1 = 2.5"),
        ((0, 0), "matches[0].boards[0].home_points", "home 0 + away 0 = 0"),
        (("1/2", Fraction(3, 2)), "matches[0].boards[0].home_points", "is text, not a number"),
        ((2, 0), None, None),
    ]
    for (home, away), path, message in cases:
        data = json.loads(json.dumps(base))
        data["matches"][0]["boards"] = [
            {"home_player": "x", "away_player": "y", "home_points": home, "away_points": away}
        ]
        if isinstance(away, Fraction):
            data["matches"][0]["boards"][0]["away_points"] = away
        if path is None:
            assert read_season_file(data).matches[0].boards[0].home_points == half_points(home)
            continue
        with pytest.raises(ValueError) as caught:
            load_season(data)
        [(where, problem)] = caught.value.problems
        assert where == path and message in problem


def test_core_5_season_check_refuses_an_unvalidated_board_that_is_not_in_halves() -> None:
    quarter = BoardModel.model_construct(
        home_player="x", away_player="y", home_points=Fraction(1, 4), away_points=Fraction(7, 4)
    )
    data = season([match("1", "A", "B", [])])
    data["matches"][0]["boards"] = [quarter]
    with pytest.raises(ValueError) as caught:
        load_season(data)
    assert caught.value.problems == [("matches[0].boards[0]", "points must be multiples of ½")]


def test_core_5_decimal_text_is_exact_and_matches_the_json_number_for_halves() -> None:
    """Text output shows a score exactly; for halves and quarters it reads as its JSON number."""
    for value in (Fraction(0), Fraction(13, 2), Fraction(-1, 2), Fraction(129, 4), Fraction(7)):
        assert decimal_text(value) == str(json_number(value))
    assert decimal_text(Fraction(1, 3)) == "1/3"
    assert decimal_text(Fraction(-1, 8)) == "-0.125"
