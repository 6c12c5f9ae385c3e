"""Appeals (CCT-11) and disconnections (CCT-10) called directly over a real SQLite unit of
work: an appeal lodged by a player of the game's event before its session's day is over and
decided once by an arbiter, a disconnection ruled and applied, each one unit of work with its
audit row and announcement. A refusal writes nothing."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.appeals import service as appeals
from bot.tour.game_targets import GameTarget, open_targets
from bot.tour.incidents import service as incidents
from core.results import Result
from core.tour.disconnections import DisconnectionOutcome
from storage.guild import GuildStore
from tests.support.services_world import refused
from tests.support.tour_units import at, event_of, written
from tests.support.tour_world import ARBITER, ORGANISER, member, player_names, tour_with_event

pytestmark = pytest.mark.on_clock


async def first_game(store: GuildStore) -> tuple[GameTarget, int]:
    """A drawn 8-player event: its first game and its White's member."""
    await tour_with_event(store, players=player_names(8))
    loaded = await event_of(store, "Open")
    target = open_targets(loaded)[0]
    white = loaded.user_of(target.white)
    assert white is not None
    return target, white


async def test_cct_11_an_appeal_is_lodged_in_time_once_and_decided_once(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-11: on the game's day its White appeals (stored and announced together). Someone
    who does not play the event, a second appeal of that game and one after 23:59 of the
    session's day are refused. The arbiter's decision is announced, a second one refused.
    Each refusal writes nothing."""
    target, white = await first_game(store)
    await clock.advance_to(at("2026-04-21 16:00"))
    lodge = appeals.lodge_appeal
    await refused(store.database, lodge(store, member(99), "Open", target.name, "x"), "player")
    lodged, unit = await written(
        store, lodge(store, member(white), "Open", target.name, "The opponent's camera was off")
    )
    assert lodged.decision.accepted and unit.audit.action == "appeal.lodge"
    assert len(unit.announced()) == 1 and target.name in unit.announced()[0]
    assert unit.tables == {"tour_appeals", "outbox", "audit"}
    await refused(
        store.database, lodge(store, member(white), "Open", target.name, "Again"), "already"
    )
    await refused(store.database, appeals.decide(store, ORGANISER, lodged.id, "upheld", "ok"))
    decided, unit = await written(
        store, appeals.decide(store, ARBITER, lodged.id, "dismissed", "The camera was on")
    )
    assert decided.status == "dismissed" and unit.audit.action == "appeal.decide"
    assert len(unit.announced()) == 1 and "The camera was on" in unit.announced()[0]
    await refused(store.database, appeals.decide(store, ARBITER, lodged.id, "upheld", "No"), "once")
    await clock.advance_to(at("2026-04-22 09:00"))
    other = open_targets(await event_of(store, "Open"))[1]
    await refused(store.database, lodge(store, member(white), "Open", other.name, "Late"))


async def test_cct_10_a_disconnection_is_ruled_and_a_lost_game_applied(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-10: before the session a disconnection is refused. A player back within 30 s plays
    on (the incident stored and announced, no result). One without a backup connection loses
    the game, its result stored with the incident in one unit of work. The settled game then
    takes no ruling. Each refusal writes nothing."""
    target, _ = await first_game(store)
    record = incidents.record_disconnection
    await refused(
        store.database, record(store, ARBITER, "Open", target.name, target.white, 600, True, True)
    )
    await clock.advance_to(at("2026-04-21 15:30"))
    ruled, unit = await written(
        store,
        record(
            store, ARBITER, "Open", target.name, target.white, 600, True, True, offline_seconds=12
        ),
    )
    assert ruled.result is None and ruled.ruling.outcome is DisconnectionOutcome.CONTINUE
    assert unit.audit.action == "incident.disconnection" and len(unit.announced()) == 1
    assert "tour_games" not in unit.tables
    ruled, unit = await written(
        store, record(store, ARBITER, "Open", target.name, target.black, 300, False, False)
    )
    assert ruled.result is Result.WHITE_WIN
    assert {"tour_incidents", "tour_games", "outbox", "audit"} <= unit.tables
    assert any(target.name in text for text in unit.announced())
    await refused(
        store.database,
        record(store, ARBITER, "Open", target.name, target.white, 300, False, False),
        "settled",
    )
