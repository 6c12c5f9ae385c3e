"""Roster protection (CL-21): a removal is justified by a multi-team player (CL-18) or a
timeout ratio strictly above 25 %; anything else, or anything unverifiable, goes to a vote."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from bot.formats.season_file import load_season
from core.league import league_report
from core.league.roster import (
    RemovalReason,
    RemovalVerdict,
    RosterRemoval,
    check_removal,
    is_multi_team,
)
from core.league.season import exact_percent
from tests.support.cl_seasons import match, season


def removal(reason: RemovalReason, multi_team=None, timeout=None) -> RosterRemoval:
    return RosterRemoval("lowrated", "Arsenal Fans", reason, multi_team, timeout)


@pytest.mark.parametrize("timeout", [25, 25.0, Fraction(25), Decimal("25.00"), "25"])
def test_cl_21_timeout_ratio_of_exactly_25_percent_is_not_justified(timeout) -> None:
    if isinstance(timeout, str):
        timeout = Fraction(timeout)
    check = check_removal(removal(RemovalReason.TIMEOUTS, multi_team=False, timeout=timeout))
    assert check.verdict is RemovalVerdict.DIRECTOR_VOTE and not check.justified
    assert "25 % is not above 25 %" in check.explanation


@pytest.mark.parametrize("timeout", [25.01, Fraction(2501, 100), 26, 100])
def test_cl_21_timeout_ratio_above_25_percent_is_justified(timeout) -> None:
    check = check_removal(removal(RemovalReason.TIMEOUTS, timeout=timeout))
    assert check.verdict is RemovalVerdict.JUSTIFIED and check.justified
    assert "above 25 %" in check.explanation


def test_cl_21_float_percentages_compare_as_the_decimals_they_print() -> None:
    # 25.000000000000004 is the float just above 25: it prints so, and is above the limit.
    assert exact_percent(25.000000000000004) > 25
    assert exact_percent(33.33) == Fraction(3333, 100)
    with pytest.raises(ValueError, match="between 0 and 100"):
        exact_percent(-1)
    with pytest.raises(ValueError, match="finite"):
        exact_percent(float("nan"))


def test_cl_21_timeout_threshold_is_configurable() -> None:
    at_30 = removal(RemovalReason.TIMEOUTS, timeout=30)
    assert check_removal(at_30).justified
    assert not check_removal(at_30, limit_percent=30).justified
    assert check_removal(removal(RemovalReason.TIMEOUTS, timeout=31), limit_percent=30).justified


def test_cl_21_multi_team_player_removal_is_justified() -> None:
    check = check_removal(removal(RemovalReason.MULTI_TEAM, multi_team=True, timeout=0))
    assert check.justified and "multi-team player (CL-18)" in check.explanation


def test_cl_21_multi_team_claim_contradicted_by_cl_18_needs_a_vote() -> None:
    check = check_removal(removal(RemovalReason.MULTI_TEAM, multi_team=False, timeout=10))
    assert check.verdict is RemovalVerdict.DIRECTOR_VOTE
    assert "CL-18 does not make them one" in check.explanation


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (RemovalReason.MULTI_TEAM, "cannot be verified"),
        (RemovalReason.TIMEOUTS, "ratio is unknown"),
        (RemovalReason.OTHER, "does not allow"),
    ],
)
def test_cl_21_unverifiable_or_other_reason_needs_a_director_vote(
    reason: RemovalReason, text: str
) -> None:
    check = check_removal(removal(reason))
    assert check.verdict is RemovalVerdict.DIRECTOR_VOTE
    assert text in check.explanation and "directors to vote (CL-23)" in check.explanation


def test_cl_21_an_allowed_fact_justifies_whatever_reason_was_claimed() -> None:
    assert check_removal(removal(RemovalReason.OTHER, multi_team=True)).justified
    assert check_removal(removal(RemovalReason.MULTI_TEAM, multi_team=False, timeout=40)).justified
    assert not check_removal(removal(RemovalReason.OTHER, multi_team=False, timeout=12)).justified


def test_cl_21_multi_team_status_comes_from_the_cl_18_report() -> None:
    data = season(
        [
            match("1", "A", "B", [("Dave", "b1", 2)], week=1),
            match("2", "A", "C", [("dave", "c1", 2)], week=2),
            match("3", "C", "D", [("DAVE", "d1", 2)], week=3),
            match("4", "D", "B", [("dave", "b2", 2)], week=4),
        ]
    )
    report = league_report(load_season(data))
    multi = is_multi_team("Dave", report.multi_team_players)
    assert multi and not is_multi_team("c1", report.multi_team_players)
    check = check_removal(RosterRemoval("Dave", "A", RemovalReason.MULTI_TEAM, multi, None))
    assert check.justified
