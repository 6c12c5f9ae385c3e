"""The tour's and events' use cases called directly over a real SQLite unit of work: a tour
and an event created with their rules frozen (CCT-2, CCT-16), players entered before the draw,
the draw (CCT-8a, CORE-1) and the knock-out built from the preliminary (CCT-8c), each one unit
of work whose facts, audit row, announcement and jobs are written together, and a refusal
writing nothing."""

from __future__ import annotations

import pytest

from bot.kernel.config import Config
from bot.tour.events import service as events
from bot.tour.tours import service as tours
from core.berger import draw_lots
from core.tour.ranking import EventType
from storage.guild import GuildStore
from tests.support.services_world import dump, refused
from tests.support.tour_units import event_of, written
from tests.support.tour_world import ARBITER, ORGANISER, player_names, tour_with_event

pytestmark = pytest.mark.on_clock
NAMES = player_names(8)


async def test_cct_2_cct_16_a_tour_and_its_event_are_created_with_their_rules_frozen(
    store: GuildStore,
) -> None:
    """CCT-2, CCT-16: HQ creates a tour (the config's rules frozen) and an event last in it,
    each one audited unit of work without posts or jobs. An arbiter, a taken name and a
    second Finals are refused, writing nothing."""
    record, unit = await written(store, tours.create_tour(store, ORGANISER, Config(), "Tour"))
    assert (unit.audit.action, unit.audit.actor_id) == ("tour.create", ORGANISER.user_id)
    assert unit.posts == () and unit.jobs == () and unit.tables == {"tours", "audit"}
    assert record.rules == Config().rules.cct.tour_rules(Config().timezones.appeals)
    await refused(store.database, tours.create_tour(store, ARBITER, Config(), "Other"), "HQ")
    await refused(store.database, tours.create_tour(store, ORGANISER, Config(), "TOUR"), "exists")
    made, unit = await written(
        store,
        events.create_event(store, ORGANISER, "Tour", "Open", EventType.REGULAR, "2026-04-21"),
    )
    assert unit.audit.action == "event.create" and unit.posts == () and unit.jobs == ()
    assert (made.size, made.position, made.drawn_at) == (16, 1, None)
    await events.create_event(store, ORGANISER, "Tour", "Finals", EventType.FINALS, "2026-06-01")
    await refused(
        store.database,
        events.create_event(store, ORGANISER, "Tour", "Again", EventType.FINALS, "2026-07-01"),
        "Finals",
    )
    await refused(
        store.database,
        events.create_event(store, ORGANISER, "Tour", "Bad", EventType.REGULAR, "21/04/2026"),
        "YYYY-MM-DD",
    )


async def test_players_enter_and_leave_an_event_before_its_draw_only(store: GuildStore) -> None:
    """CCT-8a: a player entered (a new tour player linked to a member) and taken out before
    the draw, each audited. A second entry, a member linked twice and any change after the
    draw are refused, writing nothing."""
    await tour_with_event(store, players=NAMES, seed=None)
    await events.create_event(store, ORGANISER, "Tour", "Blitz", EventType.REGULAR, "2026-05-21")
    entered, unit = await written(store, events.add_player(store, ORGANISER, "Blitz", "Zed", 77))
    assert unit.audit.action == "event.player_add" and entered.players == 1
    assert entered.player.user_id == 77 and unit.tables == {
        "tour_players",
        "event_players",
        "tour_events",
        "audit",
    }
    await refused(store.database, events.add_player(store, ORGANISER, "Blitz", "zed"), "already")
    await refused(store.database, events.add_player(store, ORGANISER, "Blitz", "Amy", 77), "<@77>")
    left, unit = await written(store, events.remove_player(store, ORGANISER, "Blitz", "Zed"))
    assert unit.audit.action == "event.player_remove" and left.players == 0
    await events.draw_event(store, ORGANISER, "Open", seed="s1", confirm=True)
    await refused(store.database, events.add_player(store, ORGANISER, "Open", "Zed"), "CCT-8a")
    await refused(
        store.database, events.remove_player(store, ORGANISER, "Open", NAMES[0]), "CCT-8a"
    )


async def test_cct_8a_core_1_the_draw_stores_pairings_announcement_and_jobs_together(
    store: GuildStore,
) -> None:
    """CCT-8a, CORE-1: the preview writes nothing. The Confirm stores the seeded numbers and
    every Berger game, announces the pairings and schedules each round's reminder, each day's
    appeal close and the first poll, in one unit of work. A draw short of players, a changed
    preview and a second draw are refused, writing nothing."""
    await tour_with_event(store, players=NAMES, seed=None)
    await events.remove_player(store, ORGANISER, "Open", NAMES[7])
    await refused(
        store.database, events.draw_event(store, ORGANISER, "Open", confirm=True), "7 of its 8"
    )
    await events.add_player(store, ORGANISER, "Open", NAMES[7])
    before = await dump(store.database)
    preview = await events.draw_event(store, ORGANISER, "Open", seed="s1", confirm=False)
    assert await dump(store.database) == before and not preview.stored
    assert preview.numbers == tuple(draw_lots(NAMES, "s1"))
    await refused(
        store.database,
        events.draw_event(store, ORGANISER, "Open", seed="s1", confirm=True, previewed=NAMES),
        "changed since the preview",
    )
    plan, unit = await written(
        store,
        events.draw_event(
            store, ORGANISER, "Open", seed="s1", confirm=True, previewed=preview.numbers
        ),
    )
    assert plan.stored and plan.numbers == preview.numbers and len(plan.pairings) == 28
    assert unit.audit.action == "event.draw" and unit.audit.details["numbers"] == list(plan.numbers)
    assert {"tour_events", "tour_games", "outbox", "scheduled_jobs", "audit"} <= unit.tables
    [pairings] = unit.announced()
    assert "Open" in pairings and f"{plan.numbers[0]}" in pairings
    rounds = [f"cct.round.r{n}" for n in range(1, 8)]
    appeals = [f"cct.appeals.day{n}" for n in (1, 2, 3)]
    assert unit.kinds() == sorted([*rounds, *appeals, "cct.poll"])
    loaded = await event_of(store, "Open")
    assert [p.name for p in loaded.by_pairing] == list(plan.numbers)
    assert len([g for g in loaded.games if g.stage == "preliminary"]) == 28
    await refused(store.database, events.draw_event(store, ORGANISER, "Open", confirm=True), "made")


async def test_cct_8c_the_knockout_is_built_from_the_final_order_with_its_jobs(
    store: GuildStore,
) -> None:
    """CCT-8c: refused while a preliminary game is open. Once all are settled the preview
    writes nothing and the Confirm freezes the eight seeds, announces the quarter-finals and
    schedules each stage day's reminder and appeal close, in one unit of work. A second start
    is refused, writing nothing."""
    await tour_with_event(store, players=NAMES)
    await refused(
        store.database, events.start_knockout(store, ORGANISER, "Open", confirm=True), "CCT-8c"
    )
    await tour_with_event(store, event="Rapid", players=NAMES, played=True)
    before = await dump(store.database)
    preview = await events.start_knockout(store, ORGANISER, "Rapid", confirm=False)
    assert await dump(store.database) == before and preview.seeds == tuple(NAMES)
    plan, unit = await written(
        store, events.start_knockout(store, ORGANISER, "Rapid", confirm=True)
    )
    assert plan.quarter_finals[0] == ("QF1", "P01", "P08")
    assert unit.audit.action == "event.start_knockout"
    assert unit.announced() == [
        "The knock-out of **Rapid** starts (CCT-8c): QF1 P01 – P08; QF2 P02 – P07; "
        "QF3 P03 – P06; QF4 P04 – P05."
    ]
    stages = [f"cct.round.{s}-day{d}" for s in ("qf", "sf", "f") for d in (1, 2)]
    appeals = [f"cct.appeals.day{n}" for n in range(4, 10)]
    assert unit.kinds() == sorted([*stages, *appeals, "cct.poll"])
    assert [str(s) for s in (await event_of(store, "Rapid")).facts.seeds] == NAMES
    await refused(
        store.database, events.start_knockout(store, ORGANISER, "Rapid", confirm=True), "started"
    )
