"""The tour's stored facts on a real SQLite file: a tour's rules frozen as created (CCT-16),
every repository bound to its guild (another guild's tours, events and games are not found
and cannot be linked to), constraints that make impossible rows unstorable, and one unit of
work committing or rolling back whole."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from core.results import STANDARD, THREE_ONE_ZERO, Result
from core.tiebreaks import DeReading
from core.tour.game_reports import GameReport, Party, ReportStatus
from core.tour.knockout import KoStage
from core.tour.ranking import EventType, PointsTable
from core.tour.rules import TourRules
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS
from storage.engine.database import Database
from storage.engine.errors import IntegrityError
from storage.guild import GuildStore
from storage.tour.events import NewEvent
from storage.tour.games import NewGame

GUILD, OTHER = 11, 12
TABLE = PointsTable("custom", (7, 5, 3), {KoStage.WINNER: 30, KoStage.SEMI_FINAL: 9})


def _event(name: str = "Open", size: int = 4) -> NewEvent:
    return NewEvent(
        name,
        EventType.REGULAR,
        size,
        dt.date(2026, 5, 1),
        True,
        DeReading.FIDE2024,
        TABLE,
        DEFAULT_TIME_CONTROLS,
    )


async def _tour_with_players(store: GuildStore, names: list[str]) -> tuple[int, int, list[int]]:
    async with store.change(None, "test.tour", "tour") as uow:
        tour = await uow.tours.create(
            "Tour", TourRules(qualifying_top=6, confirm_hours=5, round_reminder_minutes=45)
        )
        event = await uow.tour_events.create(tour.id, _event(size=len(names)))
        ids = [
            (await uow.tours.add_player(tour.id, n, user_id=500 + i)).id
            for i, n in enumerate(names)
        ]
        for player in ids:
            await uow.tour_events.add_player(event, player)
    return tour.id, event.id, ids


async def test_cct_16_a_tours_rules_and_an_events_table_read_back_as_frozen(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    tour_id, event_id, _ = await _tour_with_players(store, ["A", "B", "C", "D"])
    async with store.read() as view:
        tour = await view.tours.get(tour_id)
        event = await view.tour_events.get(event_id)
    assert tour is not None and event is not None
    assert tour.rules == TourRules(qualifying_top=6, confirm_hours=5, round_reminder_minutes=45)
    assert event.points == TABLE and event.reading is DeReading.FIDE2024
    assert event.time_controls == DEFAULT_TIME_CONTROLS
    assert event.status == "setup" and event.position == 1


async def test_another_guilds_tour_is_not_found_and_cannot_be_linked(database: Database) -> None:
    mine, theirs = GuildStore(database, GUILD), GuildStore(database, OTHER)
    tour_id, event_id, ids = await _tour_with_players(mine, ["A", "B", "C", "D"])
    async with theirs.read() as view:
        assert await view.tours.get(tour_id) is None
        assert await view.tours.by_name("Tour") is None
        assert await view.tour_events.get(event_id) is None
        assert await view.tour_events.players(event_id) == []
        assert await view.tours.player(ids[0]) is None
    with pytest.raises(IntegrityError):
        async with theirs.change(None, "test.steal", "event") as uow:
            other = await uow.tours.create("Theirs", TourRules())
            stolen = await uow.tour_events.create(other.id, _event())
            await uow.tour_events.add_player(stolen, ids[0])  # a player of another guild
    async with theirs.read() as view:
        assert await view.tours.all() == []  # the whole unit rolled back


async def test_an_event_player_must_be_of_the_events_tour(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, _, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    with pytest.raises(IntegrityError):
        async with store.change(None, "test.cross", "event") as uow:
            second = await uow.tours.create("Second", TourRules())
            event = await uow.tour_events.create(second.id, _event("Other"))
            await uow.tour_events.add_player(event, ids[0])


async def test_a_game_slot_and_a_linked_game_count_once(database: Database) -> None:
    store = GuildStore(database, GUILD)
    tour_id, event_id, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    game = NewGame("preliminary", ids[0], ids[1], None, 1, 1)
    async with store.change(None, "test.games", "games") as uow:
        await uow.tour_games.add_many(tour_id, event_id, [game])
    with pytest.raises(IntegrityError):
        async with store.change(None, "test.twice", "games") as uow:
            await uow.tour_games.add(tour_id, event_id, game)
    async with store.change(None, "test.report", "games") as uow:
        first = (await uow.tour_games.of_event(event_id))[0]
        reported = GameReport(ReportStatus.REPORTED, Result.WHITE_WIN, Party.WHITE)
        await uow.tour_games.apply(first, reported, by=500, source="player", source_ref="x")
        second = await uow.tour_games.add(
            tour_id, event_id, NewGame("preliminary", ids[2], ids[3], None, 1, 2)
        )
    with pytest.raises(IntegrityError):
        async with store.change(None, "test.same", "games") as uow:
            await uow.tour_games.apply(second, reported, by=502, source="player", source_ref="x")
    async with store.read() as view:
        stored = await view.tour_games.get(first.id)
        assert stored is not None and stored.report == reported and stored.reported_by == 500
        assert (await view.tour_games.by_source("x")) == stored


async def test_impossible_game_rows_are_refused_by_the_database(database: Database) -> None:
    store = GuildStore(database, GUILD)
    tour_id, event_id, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    for sql in (
        # an open game with a result
        "INSERT INTO tour_games (guild_id, tour_id, event_id, stage, round, board, white_id,"
        f" black_id, result) VALUES ({GUILD}, {tour_id}, {event_id}, 'preliminary', 1, 1,"
        f" {ids[0]}, {ids[1]}, '1-0')",
        # a player against themself
        "INSERT INTO tour_games (guild_id, tour_id, event_id, stage, round, board, white_id,"
        f" black_id) VALUES ({GUILD}, {tour_id}, {event_id}, 'preliminary', 1, 1, {ids[0]},"
        f" {ids[0]})",
        # a knock-out rapid game without its match
        "INSERT INTO tour_games (guild_id, tour_id, event_id, stage, contest, white_id,"
        f" black_id) VALUES ({GUILD}, {tour_id}, {event_id}, 'knockout', 'QF1', {ids[0]},"
        f" {ids[1]})",
    ):
        with pytest.raises(IntegrityError):
            async with store.change(None, "test.bad", "games") as uow:
                await uow._scope.execute(sql)


async def test_a_draw_and_the_knockout_seeds_are_stored_with_the_event(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, event_id, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    async with store.change(7, "test.draw", "event") as uow:
        await uow.tour_events.record_draw(
            event_id, "seed", {p: 4 - i for i, p in enumerate(ids)}, 7
        )
    async with store.read() as view:
        event = await view.tour_events.get(event_id)
        players = await view.tour_events.players(event_id)
        version = await view.tour_events.version(event_id)
    assert event is not None and event.draw_seed == "seed" and event.status == "preliminary"
    assert [(p.name, p.entry_no, p.pairing_no) for p in players] == [
        ("A", 1, 4),
        ("B", 2, 3),
        ("C", 3, 2),
        ("D", 4, 1),
    ]
    assert version == 3  # created at 1, bumped by the entries' unit and by the draw's


async def test_cct_8a_cct_16_an_events_scoring_and_table_change_only_before_its_draw(
    database: Database,
) -> None:
    """A tour's and an event's game scoring read back as stored; `set_points` replaces an
    undrawn event's table and scoring, and changes nothing once it is drawn."""
    store = GuildStore(database, GUILD)
    async with store.change(None, "test.tour", "tour") as uow:
        tour = await uow.tours.create("Scored", TourRules(scoring=THREE_ONE_ZERO))
        event = await uow.tour_events.create(
            tour.id, replace(_event("Scored open"), scoring=THREE_ONE_ZERO)
        )
        players = [(await uow.tours.add_player(tour.id, n)).id for n in "ABCD"]
        for player in players:
            await uow.tour_events.add_player(event, player)
    async with store.read() as view:
        stored_tour = await view.tours.get(tour.id)
        stored = await view.tour_events.get(event.id)
    assert stored_tour is not None and stored_tour.rules.scoring == THREE_ONE_ZERO
    assert stored is not None and stored.scoring == THREE_ONE_ZERO
    other = PointsTable("other", (1,), {KoStage.WINNER: 2, KoStage.SEMI_FINAL: 1})
    async with store.change(None, "test.points", "event") as uow:
        assert await uow.tour_events.set_points(stored, other, STANDARD)
    async with store.change(None, "test.draw", "event") as uow:
        await uow.tour_events.record_draw(
            event.id, "s", {p: n for n, p in enumerate(players, 1)}, None
        )
    async with store.read() as view:
        changed = await view.tour_events.get(event.id)
    assert changed is not None and changed.points == other and changed.scoring == STANDARD
    assert changed.time_controls == DEFAULT_TIME_CONTROLS  # the rest of its rules kept
    async with store.change(None, "test.points", "event") as uow:
        assert not await uow.tour_events.set_points(changed, TABLE, THREE_ONE_ZERO)
    async with store.read() as view:
        kept = await view.tour_events.get(event.id)
    assert kept is not None and kept.points == other and kept.scoring == STANDARD


async def test_cct_3_finals_declines_and_wildcards_are_stored_with_the_finals(
    database: Database,
) -> None:
    """CCT-3: a Finals entry keeps its wildcard flag; declines read back in the order they
    were recorded, with their note, and are withdrawn by deleting them; a player declines
    once, and only a player of the Finals' own tour."""
    store = GuildStore(database, GUILD)
    tour_id, _, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    async with store.change(7, "test.finals", "finals") as uow:
        finals = await uow.tour_events.create(
            tour_id, replace(_event("Finals", size=4), type=EventType.FINALS)
        )
        await uow.tour_events.add_player(finals, ids[0], wildcard=True)
        await uow.tour_events.add_player(finals, ids[1])
        await uow.tour_events.add_decline(finals, ids[3], "Busy", 7)
        await uow.tour_events.add_decline(finals, ids[2], None, 7)
    async with store.read() as view:
        entries = await view.tour_events.players(finals.id)
        declined = await view.tour_events.declines(finals.id)
    assert [(p.name, p.wildcard) for p in entries] == [("A", True), ("B", False)]
    assert [(d.name, d.note, d.declined_by) for d in declined] == [
        ("D", "Busy", 7),
        ("C", None, 7),
    ]
    with pytest.raises(IntegrityError):
        async with store.change(7, "test.twice", "finals") as uow:
            await uow.tour_events.add_decline(finals, ids[3], None, 7)
    with pytest.raises(IntegrityError):
        async with store.change(7, "test.cross", "finals") as uow:
            other = await uow.tours.create("Other", TourRules())
            stranger = await uow.tours.add_player(other.id, "Z")
            await uow.tour_events.add_decline(finals, stranger.id, None, 7)
    async with store.change(7, "test.undo", "finals") as uow:
        assert await uow.tour_events.remove_decline(finals.id, ids[3])
        assert not await uow.tour_events.remove_decline(finals.id, ids[3])
    async with store.read() as view:
        assert [d.name for d in await view.tour_events.declines(finals.id)] == ["C"]


async def test_cct_9_an_award_replaces_a_contests_record_and_keeps_its_colour_choice(
    database: Database,
) -> None:
    """CCT-9: an award is the contest's recorded outcome, stored over a colour choice made
    before (one row per contest), and audited with the unit of work."""
    store = GuildStore(database, GUILD)
    _, event_id, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    async with store.change(None, "test.choose", "event") as uow:
        await uow.tour_games.choose(event_id, "QF1", "colour_game_1", True, None)
    award = {"a": ids[0], "b": ids[1], "winner": ids[1], "walkover": True, "reason": "no-show"}
    async with store.change(None, "series.award", "event") as uow:
        await uow.tour_games.award_contest(event_id, "QF1", award)
    async with store.read() as view:
        (row,) = await view.tour_games.contests(event_id)
        audit = await view.audit.recent(1)
    assert row.key == "QF1" and row.colour_game_1 is True and row.recorded == award
    assert audit[0].action == "series.award"


async def test_cct_8f_a_cancelled_draw_clears_its_numbers_and_keeps_played_games(
    database: Database,
) -> None:
    """CCT-8f: cancelling a draw clears its seed and pairing numbers (the entries stay),
    removes the open game rows and colour choices it left, never a reported game or a
    recorded outcome, and refuses an event with no draw of its own."""
    store = GuildStore(database, GUILD)
    tour_id, event_id, ids = await _tour_with_players(store, ["A", "B", "C", "D"])
    async with store.change(7, "test.draw", "event") as uow:
        await uow.tour_events.record_draw(
            event_id, "seed", {p: i + 1 for i, p in enumerate(ids)}, 7
        )
        opened = await uow.tour_games.add(
            tour_id, event_id, NewGame("preliminary", ids[0], ids[3], None, 1, 1)
        )
        played = await uow.tour_games.add(
            tour_id, event_id, NewGame("preliminary", ids[1], ids[2], None, 1, 2)
        )
        await uow.tour_games.apply(played, GameReport(ReportStatus.DECIDED, Result.DRAW), by=7)
        await uow.tour_games.choose(event_id, "R1B1", "colour_blitz_1", True, None)
        await uow.tour_games.award_contest(event_id, "R1B2", {"a": ids[1], "winner": ids[1]})
    async with store.change(7, "test.cancel", "event") as uow:
        assert await uow.tour_games.remove_unplayed(event_id) == 1
        assert await uow.tour_events.cancel_draw(event_id)
    async with store.read() as view:
        event = await view.tour_events.get(event_id)
        players = await view.tour_events.players(event_id)
        games = await view.tour_games.of_event(event_id)
        contests = await view.tour_games.contests(event_id)
    assert event is not None and event.status == "setup" and event.draw_seed is None
    assert [(p.name, p.pairing_no) for p in players] == [(n, None) for n in "ABCD"]
    assert [g.id for g in games] == [played.id] and opened.id != played.id
    assert [c.key for c in contests] == ["R1B2"]
    async with store.change(7, "test.cancel", "event") as uow:
        assert not await uow.tour_events.cancel_draw(event_id)
