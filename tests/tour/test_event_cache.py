"""The loaded events that read views keep: a version read before is served again, and a
change to the event is seen by the next read at once."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.event_reads import read_event
from bot.tour.games import service as games
from core.results import Result
from core.tour.game_reports import ReportStatus
from storage.guild import GuildStore
from tests.support.tour_units import at
from tests.support.tour_world import member, player_names, tour_with_event

pytestmark = pytest.mark.on_clock


async def test_a_read_event_is_kept_until_the_event_changes(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: two reads of an unchanged event give the same loaded event; after a player's
    report the next read loads again and shows the report."""
    await tour_with_event(store, players=player_names(8))
    first = await read_event(store, "Open")
    again = await read_event(store, "Open")
    assert again.loaded is first.loaded
    await clock.advance_to(at("2026-04-21 15:30"))
    game = first.loaded.games[0]
    white = first.loaded.user_of(first.loaded.names[game.white_id])
    assert white is not None
    name = first.loaded.game_name(game)
    await games.report_game(store, member(white), "Open", name, Result.WHITE_WIN)
    after = await read_event(store, "Open")
    assert after.loaded is not first.loaded
    assert after.loaded.record.version > first.loaded.record.version
    reported = next(g for g in after.loaded.games if g.id == game.id)
    assert reported.status is ReportStatus.REPORTED and reported.result is Result.WHITE_WIN
