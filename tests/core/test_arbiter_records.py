"""CCT-7 time controls as data and CCT-9 arbiter override records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.results import Result
from core.tour.overrides import ArbiterOverride, OverrideReason
from core.tour.timecontrols import (
    ARMAGEDDON,
    BLITZ,
    DEFAULT_TIME_CONTROLS,
    RAPID,
    Phase,
)

NOON = datetime(2021, 2, 7, 12, 0, tzinfo=UTC)


def test_cct_7_time_controls() -> None:
    assert (RAPID.white_base, RAPID.black_base, RAPID.increment) == (
        timedelta(minutes=15),
        timedelta(minutes=15),
        timedelta(seconds=10),
    )
    assert (BLITZ.white_base, BLITZ.increment) == (timedelta(minutes=5), timedelta(seconds=3))
    assert (ARMAGEDDON.white_base, ARMAGEDDON.black_base, ARMAGEDDON.increment) == (
        timedelta(minutes=5),
        timedelta(minutes=4),
        timedelta(0),
    )
    assert ARMAGEDDON.draw_goes_to_black and not RAPID.draw_goes_to_black
    assert DEFAULT_TIME_CONTROLS.for_phase(Phase.BLITZ) is BLITZ
    assert str(RAPID) == "rapid 15 min + 10 s"
    assert str(ARMAGEDDON) == "armageddon W 5 / B 4 min + 0 s"


def test_cct_9_override_records_result_reason_and_arbiter() -> None:
    override = ArbiterOverride(
        game="Regular 1, round 3, board 2",
        result=Result.BLACK_WIN,
        reason=OverrideReason.LEFT_CAMERA_VIEW,
        explanation="White left the camera view during move 23",
        arbiter="chief-arbiter",
        decided_at=NOON,
    )
    assert override.result is Result.BLACK_WIN and override.expelled == ()


def test_cct_9_override_needs_an_explanation() -> None:
    with pytest.raises(ValueError, match="written explanation"):
        ArbiterOverride("g", Result.WHITE_WIN, OverrideReason.OTHER, "  ", "a", NOON)


def test_cct_9_override_needs_an_aware_time() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        ArbiterOverride(
            "g", Result.WHITE_WIN, OverrideReason.OTHER, "why", "a", datetime(2021, 2, 7)
        )


def test_cct_9_deliberate_disconnection_names_the_expelled_player() -> None:
    with pytest.raises(ValueError, match="expels the player"):
        ArbiterOverride(
            "g", Result.WHITE_WIN, OverrideReason.DELIBERATE_DISCONNECTION, "why", "a", NOON
        )
    override = ArbiterOverride(
        "g",
        Result.WHITE_WIN,
        OverrideReason.DELIBERATE_DISCONNECTION,
        "pulled the cable",
        "a",
        NOON,
        expelled=("black-player",),
    )
    assert override.expelled == ("black-player",)
