"""CCT-16: rule settings are frozen into each season and event when it is created; later
changes (of defaults, or of the data they were built from) take effect prospectively only."""

from __future__ import annotations

import dataclasses
import json

import pytest
from pydantic import create_model

from bot.formats.season_file import RulesModel, dump_season, load_season, read_season_file
from core.league import league_report
from core.tour.knockout import KoStage
from core.tour.prizes import PrizeTable
from core.tour.ranking import (
    DEFAULT_POINTS_TABLES,
    REGULAR_POINTS,
    EventFinish,
    EventType,
    PointsTable,
    TourEvent,
    tour_records,
)
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS
from tests.support.cl_seasons import match, season

QF, SF, RU, WIN = KoStage.QUARTER_FINAL, KoStage.SEMI_FINAL, KoStage.RUNNER_UP, KoStage.WINNER


def _over_400_season(**rules: int) -> dict:
    return season(
        [match("1", "A", "B", at_start={"A": {"members": 450}})],
        divisions={"P": ["A", "B"]},
        **({"rules": rules} if rules else {}),
    )


def test_cct_16_a_season_is_judged_by_the_rules_its_file_says() -> None:
    default = league_report(load_season(_over_400_season()))
    assert [(b.club, b.rule) for b in default.forfeits] == [("A", "CL-5")]
    own = league_report(load_season(_over_400_season(max_members=500)))
    assert own.forfeits == () and own.results[0].forfeit is False


def test_cct_16_an_exported_season_carries_every_rule_setting() -> None:
    exported = dump_season(load_season(_over_400_season()))  # the file named no rules
    assert set(exported["rules"]) == set(RulesModel.model_fields)
    assert exported["rules"]["max_members"] == 400 and exported["rules"]["games_per_board"] == 2
    reloaded = read_season_file(json.dumps(exported))
    assert reloaded.rules.model_fields_set == set(RulesModel.model_fields)  # no default consulted


def test_cct_16_later_default_changes_do_not_reach_an_exported_season() -> None:
    # A later version whose CL-5 default is 300 members: a season created now keeps 400.
    later_rules = create_model("LaterRules", __base__=RulesModel, max_members=(int, 300))
    exported = dump_season(load_season(_over_400_season()))
    assert later_rules.model_validate(exported["rules"]).max_members == 400
    assert later_rules.model_validate({}).max_members == 300  # new seasons get the new default


def _regular(names: list[str]) -> TourEvent:
    stages = dict(zip(names, (WIN, RU, SF, SF), strict=False))
    finishes = tuple(
        EventFinish(p, i + 1, stages.get(p, QF if i < 8 else KoStage.NONE))
        for i, p in enumerate(names)
    )
    return TourEvent("Regular 1", EventType.REGULAR, finishes)


def test_cct_16_an_event_keeps_the_points_table_it_was_created_with() -> None:
    players = [f"p{i}" for i in range(1, 17)]
    created = _regular(players).with_points_table()
    assert created.points_table is REGULAR_POINTS
    new_table = PointsTable("next season", (12, 9, 7, 5, 4, 3, 2, 1), {WIN: 50, RU: 25, SF: 12})
    later = {**DEFAULT_POINTS_TABLES, EventType.REGULAR: new_table}
    assert tour_records([created], later)["p1"].points == 10 + 40
    assert tour_records([_regular(players)], later)["p1"].points == 12 + 50  # not frozen
    assert created.with_points_table(later).points_table is REGULAR_POINTS


def test_cct_16_a_points_table_does_not_follow_the_mapping_it_was_built_from() -> None:
    knockout = {WIN: 40, RU: 20, SF: 10, QF: 0}
    table = PointsTable("event table", [10, 8], knockout)
    knockout[WIN] = 100
    assert table.points(1, WIN) == 50 and table.preliminary == (10, 8)
    with pytest.raises(TypeError):
        table.knockout[WIN] = 100  # type: ignore[index]


def test_cct_16_a_prize_table_stays_as_validated() -> None:
    places = {9: 50}
    table = PrizeTable("small", 150, places, {WIN: 100})
    places[9] = 5_000  # would no longer sum to the fund
    assert table.total == 150 and table.places[9] == 50


def test_cct_16_time_controls_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_TIME_CONTROLS.rapid = DEFAULT_TIME_CONTROLS.blitz  # type: ignore[misc]
