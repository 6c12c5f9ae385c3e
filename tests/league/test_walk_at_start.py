"""A walk-through defect: the late at-start announcement blamed the bot's down time even when
the bot was up and chess.com was the one that did not answer (CL-5, CL-6, CL-20)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.runtime.clock import VirtualClock
from tests.league.test_automation_at_start import QuickWorld, _accepted_romania_usa, _profile
from tests.support.automation_world import AutomationWorld, build_world, outbox, team_match
from tests.support.chesscom_fake import FakeChessCom


@pytest.fixture
async def world(database_location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    built = await build_world(database_location, fake)
    return QuickWorld(built.location, fake, built.clubs, built.season)


async def test_a_snapshot_late_because_chesscom_hung_does_not_say_the_bot_was_down(
    world: AutomationWorld, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-5: the bot runs through the start, chess.com hangs on Team Romania's profile, the
    retry an hour later reads it (450 members): the announcement says the snapshot is late
    and when the match started, and does not claim the bot was down."""
    m = await _accepted_romania_usa(world)
    fake.serve("match/12803", team_match(fixtures_dir, status="in_progress"))
    fake.hang.add("club/team-romania")
    clock = VirtualClock(m.start - dt.timedelta(minutes=1))
    async with world.bot(clock) as bot:
        await clock.advance_to(m.start + dt.timedelta(minutes=30))
        fake.hang.discard("club/team-romania")
        fake.serve("club/team-romania", _profile("Team Romania", 450, 1500.0))
        await clock.advance_to(m.start + dt.timedelta(hours=1, minutes=1))
        rows = await outbox(bot.database)
    started = [t for _, t in rows if "**Team Romania** vs **Team USA - Southwest** started" in t]
    assert len(started) == 1
    later = int((m.start + dt.timedelta(hours=1)).timestamp())
    assert (
        f"read <t:{later}:F>, late: the match started <t:{int(m.start.timestamp())}:F>"
        in (started[0])
    )
    assert "bot was down" not in started[0]
    assert "Team Romania (CL-5)" in started[0]
