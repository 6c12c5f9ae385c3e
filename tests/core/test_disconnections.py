"""CCT-10: rulings on disconnections."""

from __future__ import annotations

from datetime import timedelta as td

import pytest

from core.tour.disconnections import Disconnection, DisconnectionOutcome, rule_disconnection


def test_cct_10_reconnected_within_30_s_continues_with_elapsed_time_lost() -> None:
    ruling = rule_disconnection(Disconnection(td(minutes=5), td(seconds=12)))
    assert ruling.outcome is DisconnectionOutcome.CONTINUE
    assert ruling.clock_after == td(minutes=4, seconds=48)


def test_cct_10_reconnected_at_exactly_30_s_continues() -> None:
    ruling = rule_disconnection(Disconnection(td(minutes=1), td(seconds=30)))
    assert ruling.outcome is DisconnectionOutcome.CONTINUE
    assert ruling.clock_after == td(seconds=30)


def test_cct_10_not_reconnected_pauses_and_takes_30_s_off() -> None:
    ruling = rule_disconnection(Disconnection(td(minutes=3), None))
    assert ruling.outcome is DisconnectionOutcome.PAUSED
    assert ruling.clock_after == td(minutes=2, seconds=30)


def test_cct_10_reconnecting_after_the_window_is_not_in_time() -> None:
    ruling = rule_disconnection(Disconnection(td(minutes=3), td(seconds=45)))
    assert ruling.outcome is DisconnectionOutcome.PAUSED
    assert ruling.clock_after == td(minutes=2, seconds=30)


def test_cct_10_less_than_30_s_and_not_reconnected_loses() -> None:
    ruling = rule_disconnection(Disconnection(td(seconds=29), None))
    assert ruling.outcome is DisconnectionOutcome.LOST and ruling.clock_after is None
    assert "29 s on the clock" in ruling.reason


def test_cct_10_exactly_30_s_and_not_reconnected_loses() -> None:
    assert rule_disconnection(Disconnection(td(seconds=30), None)).outcome is (
        DisconnectionOutcome.LOST
    )


def test_cct_10_less_than_30_s_but_reconnected_in_time_continues() -> None:
    ruling = rule_disconnection(Disconnection(td(seconds=20), td(seconds=5)))
    assert ruling.outcome is DisconnectionOutcome.CONTINUE
    assert ruling.clock_after == td(seconds=15)


def test_cct_10_clock_running_out_before_reconnecting_loses() -> None:
    ruling = rule_disconnection(Disconnection(td(seconds=8), td(seconds=10)))
    assert ruling.outcome is DisconnectionOutcome.LOST


def test_cct_10_no_backup_connection_loses_even_if_reconnected() -> None:
    ruling = rule_disconnection(Disconnection(td(minutes=5), td(seconds=3), False))
    assert ruling.outcome is DisconnectionOutcome.LOST
    assert "backup" in ruling.reason


def test_cct_10_negative_times_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Disconnection(td(seconds=-1), None)
