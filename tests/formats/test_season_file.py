"""Season-file validation (paths and problems), round trip and the published JSON Schema."""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import jsonschema
import pytest

from bot.cli import main
from bot.formats.season_file import (
    SeasonFileError,
    dump_season,
    load_season,
    read_season_file,
    season_schema,
)
from tests.support.cl_seasons import match, season
from tests.support.paths import ROOT


def _problems(data: dict) -> list[tuple[str, str]]:
    with pytest.raises(SeasonFileError) as caught:
        load_season(data)
    return caught.value.problems


def test_board_points_must_add_up_to_games_per_board() -> None:
    data = season([match("1", "A", "B"), match("2", "C", "D")])
    data["matches"][1]["boards"][2]["away_points"] = 0.5
    [(path, problem)] = _problems(data)
    assert path == "matches[1].boards[2].home_points"
    assert "not games_per_board 2" in problem


def test_points_must_be_multiples_of_a_half() -> None:
    data = season([match("1", "A", "B")])
    data["matches"][0]["boards"][1]["home_points"] = 1.25
    [(path, problem)] = _problems(data)
    assert path == "matches[0].boards[1].home_points"
    assert "multiple of ½" in problem


def test_match_between_divisions_unknown_club_and_duplicate_id() -> None:
    data = season(
        [match("1", "A", "C"), match("1", "A", "Z")],
        divisions={"P": ["A", "B"], "One": ["C", "D"]},
    )
    problems = dict(_problems(data))
    assert "clubs of one division" in problems["matches[0].away"]
    assert "is in 'One', not 'P'" in problems["matches[0].away"]
    assert problems["matches[1].id"] == "duplicate match id '1'"
    assert problems["matches[1].away"] == "unknown club 'Z'"


def test_club_in_two_divisions() -> None:
    data = season([], divisions={"P": ["A", "B"], "One": ["C", "A"]})
    [(path, problem)] = _problems(data)
    assert path == "divisions[1].clubs[1]"
    assert "already in 'P'" in problem


def test_director_decisions_must_name_known_matches_and_clubs() -> None:
    data = season(
        [match("1", "A", "B")],
        director_forfeits=[{"match": "1", "club": "C"}, {"match": "9", "club": "A"}],
        director_disqualifications=[{"club": "Q"}],
    )
    problems = dict(_problems(data))
    assert "does not play match '1'" in problems["director_forfeits[0].club"]
    assert problems["director_forfeits[1].match"] == "unknown match '9'"
    assert problems["director_disqualifications[0].club"] == "unknown club 'Q'"


def test_import_export_round_trip_keeps_everything() -> None:
    data = season(
        [match("1", "A", "B", [("x", "y", 1.5)], at_start={"A": {"members": 12}})],
        closed_accounts=["Carol"],
        rules={"games_per_board": 2},
        director_forfeits=[{"match": "1", "club": "A", "decided": "2017-12-01T00:00:00+02:00"}],
    )
    first = read_season_file(data)
    exported = dump_season(first)
    again = read_season_file(json.dumps(exported))
    assert again == first
    assert dump_season(again) == exported
    assert first.matches[0].boards[0].home_points == F(3, 2)
    assert exported["matches"][0]["boards"][0]["away_points"] == 0.5
    assert exported["director_forfeits"][0]["decided"] == "2017-12-01T00:00:00+02:00"


@pytest.mark.parametrize(
    ("where", "key", "path"),
    [
        (("matches", 0), "board", "matches[0].board"),
        (("matches", 0, "challenge"), "acepted", "matches[0].challenge.acepted"),
        (("rules",), "games_per_bord", "rules.games_per_bord"),
        ((), "extra_field", "extra_field"),
    ],
)
def test_cl_14_cl_15_an_unknown_key_is_refused_with_its_json_path(
    where: tuple[Any, ...], key: str, path: str
) -> None:
    """Issue 19: a season file is strict, as the config and the tour file are: a typo'd key
    (`board` for `boards`, `acepted`, `games_per_bord`) is refused naming where it is, not
    silently read as "no boards" (a double CL-20 forfeit) or "never accepted" (CL-15)."""
    data = season([match("1", "A", "B")], rules={"games_per_board": 2})
    place: Any = data
    for step in where:
        place = place[step]
    place[key] = "typo"
    assert (path, "Extra inputs are not permitted") in _problems(data)


def test_schema_command_prints_the_season_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "season"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema == season_schema()
    assert set(schema["required"]) == {"name", "divisions"}
    assert schema["$defs"]["Board"]["properties"]["home_points"]["multipleOf"] == 0.5


def test_cl_15_deadline_out_of_calendar_range_is_a_problem_not_a_crash() -> None:
    # A start so early, or a deadline so long, that "start - challenge_deadline_hours" is
    # not a date: a validation problem with its path, never an OverflowError.
    early = season([match("1", "A", "B")])
    early["matches"][0]["start"] = "0001-01-01T00:00:00Z"
    early["matches"][0].pop("finished")
    early["matches"][0].pop("challenge")
    [(path, problem)] = _problems(early)
    assert path == "matches[0].start"
    assert "challenge deadline" in problem
    long = season([match("1", "A", "B")], rules={"challenge_deadline_hours": 10**12})
    [(path, problem)] = _problems(long)
    assert path == "rules.challenge_deadline_hours"


def test_cl_15_challenge_accepted_before_it_was_issued_is_refused() -> None:
    data = season([match("1", "A", "B")])
    data["matches"][0]["challenge"]["accepted"] = "2017-09-01T00:00:00Z"  # issued 09-21
    [(path, problem)] = _problems(data)
    assert path == "matches[0].challenge.accepted"
    assert "before it was issued" in problem


def test_booleans_are_not_numbers_in_any_numeric_field() -> None:
    # pydantic alone reads `true` as 1: `min_players: true` would silently mean 1 player.
    data = season([match("1", "A", "B", at_start={"A": {"players": True, "avg_rating": False}})])
    data["divisions"][0]["min_players"] = True
    data["rules"] = {"games_per_board": True}
    data["matches"][0]["round"] = False
    problems = dict(_problems(data))
    assert set(problems) == {
        "rules.games_per_board",
        "divisions[0].min_players",
        "matches[0].round",
        "matches[0].at_start.A.players",
        "matches[0].at_start.A.avg_rating",
    }
    assert all("a boolean is not a number" in problem for problem in problems.values())


def test_cl_14_match_finished_before_its_start_is_refused() -> None:
    data = season([match("1", "A", "B")])
    data["matches"][0]["finished"] = "2017-09-01T00:00:00Z"
    [(path, problem)] = _problems(data)
    assert (path, problem) == ("matches[0].finished", "finished before its start")


def test_cl_2_4_empty_club_name_is_refused() -> None:
    data = season([], divisions={"P": ["A", ""]})
    [(path, problem)] = _problems(data)
    assert path == "divisions[0].clubs[1]"
    assert "at least 1 character" in problem


def test_cl_dq_director_decisions_must_name_a_rule_that_can_ground_them() -> None:
    data = season(
        [match("1", "A", "B")],
        director_forfeits=[{"match": "1", "club": "A", "rule": "CL-99"}],
        director_disqualifications=[{"club": "B", "rule": "because"}],
    )
    problems = dict(_problems(data))
    assert "'CL-21'" in problems["director_forfeits[0].rule"]
    assert "'CL-23'" in problems["director_disqualifications[0].rule"]
    accepted = season(
        [match("1", "A", "B")],
        director_forfeits=[{"match": "1", "club": "A", "rule": "CL-15"}],
        director_disqualifications=[{"club": "B", "rule": "CL-18"}],
    )
    loaded = load_season(accepted)
    assert loaded.director_forfeits[0].rule == "CL-15"
    assert loaded.director_disqualifications[0].rule == "CL-18"


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("matches", 0, "boards", 0, "home_points"), "1.5"),
        (("matches", 0, "round"), "1"),
        (("divisions", 0, "min_players"), "5"),
        (("matches", 0, "at_start"), {"A": {"members": "300"}}),
    ],
)
def test_core_5_program_and_published_schema_agree_on_text_for_numbers(
    path: tuple, value: object
) -> None:
    schema = season_schema()
    good = season([match("1", "A", "B")])
    jsonschema.validate(good, schema)
    load_season(good)
    bad = json.loads(json.dumps(good))
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    problems = _problems(bad)
    assert any("text, not a number" in problem for _, problem in problems), problems


def test_no_file_model_inside_core() -> None:
    """Issue 8: core computes on its own domain values; pydantic models live in adapters."""
    users = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "core").rglob("*.py")
        if "pydantic" in path.read_text(encoding="utf-8")
    ]
    assert users == []


def test_domain_season_round_trips_through_the_file() -> None:
    """A domain season (as a database would give it) dumps to a file that loads back equal."""
    data = season(
        [match("1", "A", "B", [("x", "y", 1.5)], at_start={"A": {"members": 12}})],
        closed_accounts=["Carol"],
        director_forfeits=[{"match": "1", "club": "A", "decided": "2017-12-01T00:00:00+02:00"}],
        withdrawn=["D"],
    )
    first = load_season(data)
    exported = dump_season(first)
    assert load_season(json.dumps(exported)) == first
    assert first.matches[0].boards[0].home_half == 3 and first.matches[0].boards[0].away_half == 1
    assert exported["matches"][0]["boards"][0] == {
        "home_player": "x",
        "away_player": "y",
        "home_points": 1.5,
        "away_points": 0.5,
    }


SETTINGS = (
    "reminder_hours",
    "promoted",
    "relegated",
    "vote_deadline_hours",
    "vote_quorum",
    "min_club_admins",
    "timeout_ratio_limit_percent",
    "clubs_per_division",
    "start_time",
    "start_zone",
)
"""CCT-16: the per-season settings beyond the scoring rules."""


def test_cct_16_the_schema_and_an_export_show_every_season_setting() -> None:
    rules_schema = season_schema()["$defs"]["Rules"]["properties"]
    assert set(SETTINGS) <= set(rules_schema)
    assert rules_schema["reminder_hours"]["default"] == [48, 12]
    exported = dump_season(load_season(season([])))["rules"]
    assert {key: exported[key] for key in SETTINGS} == {
        "reminder_hours": [48, 12],
        "promoted": 3,
        "relegated": 3,
        "vote_deadline_hours": 72,
        "vote_quorum": 3,
        "min_club_admins": 2,
        "timeout_ratio_limit_percent": 25.0,
        "clubs_per_division": 13,
        "start_time": "11:00",
        "start_zone": "America/Los_Angeles",
    }


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("vote_quorum", 1, "CL-23"),
        ("forfeits_to_disqualify", 2, "CL-15, CL-20, CL-21"),
        ("min_club_admins", 1, "CL-3"),
        ("timeout_ratio_limit_percent", 12.5, "CL-21"),
    ],
)
def test_cl_23_cl_dq_a_season_file_cannot_lower_the_regulations_floors(
    key: str, value: float, rule: str
) -> None:
    """CL-23, CL-15/20/21, CL-3, CL-21: `rules.vote_quorum: 1` would let one director
    disqualify a club; a file lowering a floor is refused naming the key and the rule."""
    [(path, problem)] = _problems(season([match("1", "A", "B")], rules={key: value}))
    assert path == f"rules.{key}" and rule in problem and "below the regulation" in problem


def test_cl_15_cl_23_season_settings_round_trip_through_the_domain_value() -> None:
    given = {
        "reminder_hours": [72, 1],
        "promoted": 2,
        "relegated": 2,
        "vote_deadline_hours": 24,
        "vote_quorum": 4,
        "min_club_admins": 3,
        "timeout_ratio_limit_percent": 33.5,
        "clubs_per_division": 8,
        "start_time": "19:05",
        "start_zone": "Europe/Paris",
    }
    loaded = load_season(season([], rules=given))
    assert loaded.rules.reminder_hours == (72, 1) and loaded.rules.vote_quorum == 4
    assert loaded.rules.timeout_ratio_limit_percent == F(67, 2)
    assert {k: v for k, v in dump_season(loaded)["rules"].items() if k in given} == given
    assert load_season(dump_season(loaded)) == loaded


def test_cl_8_an_older_files_promotion_places_sets_promoted_and_relegated() -> None:
    rules = load_season(season([], rules={"promotion_places": 1})).rules
    assert (rules.promoted, rules.relegated, rules.promotion_places) == (1, 1, 1)
    only_promoted = load_season(season([], rules={"promoted": 2})).rules
    assert (only_promoted.promoted, only_promoted.relegated) == (2, 2)
    assert (
        dump_season(load_season(season([], rules={"promoted": 2})))["rules"]["promotion_places"]
        == 2
    )


@pytest.mark.parametrize(
    ("rules", "path", "expected"),
    [
        ({"reminder_hours": [48, -1]}, "rules.reminder_hours", "-1 h would remind at or after"),
        ({"reminder_hours": [0]}, "rules.reminder_hours", "0 h would remind at or after"),
        ({"reminder_hours": [12, 12]}, "rules.reminder_hours", "each reminder once"),
        ({"reminder_hours": [10**9]}, "rules.reminder_hours", "at most 8784 hours"),
        ({"vote_quorum": 0}, "rules.vote_quorum", "greater than or equal to 1"),
        ({"vote_deadline_hours": -5}, "rules.vote_deadline_hours", "greater than or equal to 1"),
        ({"min_club_admins": 0}, "rules.min_club_admins", "greater than or equal to 1"),
        ({"timeout_ratio_limit_percent": 101}, "rules.timeout_ratio_limit_percent", "less than"),
        ({"promoted": 5, "relegated": 5, "clubs_per_division": 4}, "rules.promoted", "more than"),
        ({"relegated": 2}, "rules.relegated", "2 differs from promoted 3"),
        ({"promoted": 2, "promotion_places": 1}, "rules", "promotion_places: 1 differs from"),
        ({"clubs_per_division": 1}, "rules.clubs_per_division", "greater than or equal to 2"),
        ({"start_time": "25:00"}, "rules.start_time", "String should match"),
        ({"start_zone": "Mars/Olympus"}, "rules.start_zone", "unknown time zone 'Mars/Olympus'"),
    ],
)
def test_cct_16_a_season_setting_core_cannot_honour_is_refused_naming_the_key(
    rules: dict, path: str, expected: str
) -> None:
    [(where, problem)] = _problems(season([], rules=rules))
    assert where == path and expected in problem
