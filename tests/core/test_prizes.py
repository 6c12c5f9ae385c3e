"""CCT-5: prize tables, their validation, distribution and the Ambassador pool."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from core.tour.knockout import KoStage
from core.tour.prizes import (
    FUNDS,
    REGULAR_PRIZES,
    PrizeError,
    PrizeTable,
    ambassador_shares,
    distribute_prizes,
)
from core.tour.ranking import EventFinish, EventType

STAGES = {1: KoStage.WINNER, 2: KoStage.RUNNER_UP, 3: KoStage.SEMI_FINAL, 4: KoStage.SEMI_FINAL}


def regular_finishes() -> list[EventFinish]:
    return [
        EventFinish(f"p{i}", i, STAGES.get(i, KoStage.QUARTER_FINAL if i <= 8 else KoStage.NONE))
        for i in range(1, 17)
    ]


def test_cct_5_funds_per_event_type() -> None:
    assert FUNDS == {
        EventType.REGULAR: 100_000,
        EventType.MAJOR: 200_000,
        EventType.FINALS: 300_000,
    }


def test_cct_5_default_regular_table_sums_to_the_fund() -> None:
    assert REGULAR_PRIZES.total == 100_000 == REGULAR_PRIZES.fund
    result = distribute_prizes(REGULAR_PRIZES, regular_finishes())
    amounts = {p.player: p.amount for p in result.prizes}
    assert amounts["p1"] == 30_000 and amounts["p2"] == 15_000
    assert amounts["p3"] == amounts["p4"] == 7_500
    assert amounts["p5"] == 5_000 and amounts["p9"] == amounts["p16"] == 2_500
    assert result.paid == 100_000 and result.withheld == 0


def test_cct_5_3rd_and_4th_after_the_3rd_place_match_are_paid_as_semi_final_losers() -> None:
    """CCT-5 pays the semi-final loser $7,500; the 3rd-place match (CCT-8c) does not change
    that when the table has no 3rd/4th amounts."""
    finishes = [
        EventFinish(f.player, f.place, {3: KoStage.THIRD, 4: KoStage.FOURTH}.get(f.place, f.stage))
        for f in regular_finishes()
    ]
    result = distribute_prizes(REGULAR_PRIZES, finishes)
    amounts = {p.player: p.amount for p in result.prizes}
    assert amounts["p3"] == amounts["p4"] == 7_500
    assert result.paid == 100_000


def test_cct_5_table_not_summing_to_the_fund_is_rejected() -> None:
    with pytest.raises(PrizeError, match=r"sums to \$99,999, not the fund \$100,000"):
        PrizeTable(
            "bad",
            100_000,
            dict.fromkeys(range(9, 17), 2_500),
            {
                KoStage.QUARTER_FINAL: 5_000,
                KoStage.SEMI_FINAL: 7_500,
                KoStage.RUNNER_UP: 14_999,
                KoStage.WINNER: 30_000,
            },
        )


def test_cct_5_table_paying_a_knockout_place_by_place_is_rejected() -> None:
    """CCT-5: places 1-8 are paid by knock-out stage, so a place-5 amount next to stage
    amounts would count towards the fund but never be paid: the table is refused."""
    with pytest.raises(PrizeError, match="place 5"):
        PrizeTable(
            "bad",
            100_000,
            {**dict.fromkeys(range(9, 17), 2_500), 5: 5_000},
            {
                KoStage.QUARTER_FINAL: 5_000,
                KoStage.SEMI_FINAL: 7_500,
                KoStage.RUNNER_UP: 10_000,
                KoStage.WINNER: 30_000,
            },
        )


def test_cct_5_finals_table_by_place() -> None:
    places = {1: 100_000, 2: 60_000, 3: 40_000, **dict.fromkeys(range(4, 11), 100_000 // 7)}
    with pytest.raises(PrizeError, match="not the fund"):
        PrizeTable("Finals", FUNDS[EventType.FINALS], places, {})
    places[4] += 100_000 - 7 * (100_000 // 7)
    table = PrizeTable("Finals", FUNDS[EventType.FINALS], places, {})
    assert table.total == 300_000


def test_cct_5_prize_withheld_for_a_player_in_breach() -> None:
    result = distribute_prizes(REGULAR_PRIZES, regular_finishes(), in_breach={"p2"})
    runner_up = next(p for p in result.prizes if p.player == "p2")
    assert runner_up.withheld and runner_up.amount == 15_000 and runner_up.paid == 0
    assert result.paid == 85_000 and result.withheld == 15_000


def test_cct_5_distribution_rejects_too_many_winners() -> None:
    finishes = [EventFinish("a", 1, KoStage.WINNER), EventFinish("b", 2, KoStage.WINNER)]
    with pytest.raises(PrizeError, match="2 players at stage 'winner'"):
        distribute_prizes(REGULAR_PRIZES, finishes)


def test_cct_5_ambassador_pool_split_in_exact_fractions() -> None:
    shares = ambassador_shares(200_000, ["a", "b", "c"])
    assert shares == {"a": F(200_000, 3), "b": F(200_000, 3), "c": F(200_000, 3)}
    assert sum(shares.values()) == 200_000


def test_cct_5_ambassador_share_withheld_in_breach_is_not_re_split() -> None:
    shares = ambassador_shares(240_000, ["a", "b", "c"], in_breach={"b"})
    assert shares == {"a": F(80_000), "b": F(0), "c": F(80_000)}


def test_cct_5_ambassador_pool_below_minimum_is_rejected() -> None:
    with pytest.raises(PrizeError, match=r"at least \$200,000"):
        ambassador_shares(150_000, ["a"])
