"""What one unit of work does to a season: its version goes up once per unit of work however
many changes it holds (and the pin refresher still hears of it), fielded players keep the
other at-start facts, a deleted match is refused."""

from __future__ import annotations

import datetime as dt

import pytest

from core.league.season import SeasonRules
from storage.engine.database import Database
from storage.engine.errors import IntegrityError
from storage.guild import Committed, GuildStore, on_commit
from storage.league.matches import AtStartRecord, BoardRecord, NewMatch

START = dt.datetime(2024, 3, 1, 19, 0, tzinfo=dt.UTC)
GUILD = 30


async def _season(store: GuildStore) -> tuple[int, int, dict[str, int]]:
    """A season with one division of clubs A and B and one match A-B: (season, match, clubs)."""
    async with store.change(1, "test.setup", "season") as uow:
        clubs = {n: (await uow.clubs.register(n, status="approved")).id for n in "AB"}
        season = await uow.seasons.create("Spring", SeasonRules())
        top = await uow.seasons.add_division(season.id, "Top", 3)
        for name in "AB":
            await uow.seasons.add_club(season.id, top.id, clubs[name])
        match = await uow.matches.add(
            season.id, NewMatch(top.id, "T-1-1", 1, clubs["A"], clubs["B"], START)
        )
    return season.id, match.id, clubs


async def _version(store: GuildStore, season_id: int) -> int:
    async with store.read() as view:
        version = await view.seasons.version(season_id)
    assert version is not None
    return version


async def test_a_unit_of_work_bumps_its_seasons_version_once(database: Database) -> None:
    store = GuildStore(database, GUILD)
    season, match, clubs = await _season(store)
    committed: list[Committed] = []
    on_commit(database, committed.append)
    statements: list[str] = []
    before = await _version(store, season)
    async with database.writer() as connection:
        await connection.set_trace_callback(statements.append)
    async with store.change(1, "test", "x") as uow:
        await uow.matches.link_chesscom(match, 77)
        await uow.matches.replace_boards(match, [BoardRecord(1, "a", "b", 4, 0)])
        await uow.matches.finish(match, START + dt.timedelta(days=3))
        await uow.matches.set_fielded(match, {clubs["A"]: 1, clubs["B"]: 1})
        await uow.seasons.set_status(season, "scheduled")
        assert uow.bumped_seasons == {season}
    async with database.writer() as connection:
        await connection.set_trace_callback(None)
    assert await _version(store, season) == before + 1
    assert committed[-1].seasons == (season,)
    bumps = [s for s in statements if s.startswith("UPDATE seasons SET version")]
    assert len(bumps) == 1


async def test_each_unit_of_work_bumps_again(database: Database) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    before = await _version(store, season)
    for day in (1, 2):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.finish(match, START + dt.timedelta(days=day))
    assert await _version(store, season) == before + 2


async def test_cl_20_fielded_players_keep_the_other_at_start_facts(database: Database) -> None:
    store = GuildStore(database, GUILD)
    _, match, clubs = await _season(store)
    seen = dt.datetime(2024, 3, 1, 19, 5, tzinfo=dt.UTC)
    async with store.change(1, "test", "x") as uow:
        await uow.matches.set_at_start(match, AtStartRecord(clubs["A"], 120, 1450.5, None, seen))
        await uow.matches.set_fielded(match, {clubs["A"]: 9, clubs["B"]: 8})
        assert uow.details["at_start_recorded"][-2:] == [
            {"match": match, "club": clubs["A"]},
            {"match": match, "club": clubs["B"]},
        ]
    async with store.read() as view:
        facts = await view.matches.at_start(match)
    assert facts == [
        AtStartRecord(clubs["A"], 120, 1450.5, 9, seen),
        AtStartRecord(clubs["B"], None, None, 8, None),
    ]


async def test_a_match_deleted_in_the_unit_of_work_is_refused_afterwards(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    season, match, _ = await _season(store)
    with pytest.raises(LookupError, match=f"no match {match}"):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.finish(match, START)  # its season is now known to the unit
            await uow.matches.delete_of_season(season)
            await uow.matches.finish(match, START)
    async with store.read() as view:
        stored = await view.matches.get(match)
    assert stored is not None and stored.finished_at is None  # rolled back whole


async def test_cancelling_a_job_returns_it_once(database: Database) -> None:
    store = GuildStore(database, GUILD)
    due = START + dt.timedelta(days=1)
    async with store.change(1, "test", "x") as uow:
        scheduled = await uow.jobs.schedule("cl.poll", "match:1", due, {"match": 1})
    async with store.change(1, "test", "x") as uow:
        assert await uow.jobs.cancel("cl.poll", "match:1")
        assert not await uow.jobs.cancel("cl.poll", "match:1")
        (cancelled,) = uow.jobs.changed
    assert (cancelled.id, cancelled.status, cancelled.due_at) == (scheduled.id, "cancelled", due)
    assert cancelled.payload == {"match": 1}


async def test_finish_and_link_in_one_statement_keep_one_fixture_per_chesscom_match(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    season, match, clubs = await _season(store)
    async with store.change(1, "test", "x") as uow:
        other = await uow.matches.add(
            season, NewMatch(1, "T-1-2", 1, clubs["B"], clubs["A"], START)
        )
    async with store.read() as view:
        assert await view.matches.with_chesscom(match, 77) == (
            await view.matches.get(match),
            None,
        )
    end = START + dt.timedelta(days=3)
    async with store.change(1, "test", "x") as uow:
        await uow.matches.finish(match, end, link_chesscom=77)
        assert uow.details["matches_linked"] == [{"match": match, "chesscom": 77}]
    async with store.read() as view:
        stored, linked = await view.matches.with_chesscom(match, 77)
        assert stored is not None and (stored.finished_at, stored.chesscom_match_id) == (end, 77)
        assert linked == stored
        mine, taken = await view.matches.with_chesscom(other.id, 77)
        assert mine is not None and mine.id == other.id and taken == stored
    with pytest.raises(IntegrityError, match=r"UNIQUE|unique"):  # the index still checks the link
        async with store.change(1, "test", "x") as uow:
            await uow.matches.finish(other.id, end, link_chesscom=77)
    async with store.read() as view:
        unchanged = await view.matches.get(other.id)
    assert unchanged is not None and unchanged.finished_at is None
