"""CL-18: whether a result's players also play for another club of the season is asked by
player name (case-insensitively), through the boards_home_player / boards_away_player
indexes (migration 0014), never by reading every board of the season."""

from __future__ import annotations

import datetime as dt
import sqlite3

from core.league.season import SeasonRules
from storage.engine.database import Database, SqliteDatabase
from storage.guild import GuildStore
from storage.league.matches import BoardRecord, NewMatch

START = dt.datetime(2024, 3, 1, 19, 0, tzinfo=dt.UTC)
GUILD = 31


async def _seasons(store: GuildStore) -> tuple[int, dict[str, int], dict[str, int]]:
    """Spring: A-B (Alice for A) and C-B (ALICE for C, bob for B in both); Autumn: D-A with
    Carol for D. Returns (Spring's id, match ids by name, club ids by name)."""
    async with store.change(1, "test.setup", "seasons") as uow:
        clubs = {n: (await uow.clubs.register(n, status="approved")).id for n in "ABCD"}
        spring = await uow.seasons.create("Spring", SeasonRules())
        autumn = await uow.seasons.create("Autumn", SeasonRules())
        top = await uow.seasons.add_division(spring.id, "Top", 1)
        other = await uow.seasons.add_division(autumn.id, "Top", 1)
        for name in "ABC":
            await uow.seasons.add_club(spring.id, top.id, clubs[name])
        for name in "DA":
            await uow.seasons.add_club(autumn.id, other.id, clubs[name])
        matches = {}
        for key, season, division, home, away, when in (
            ("ab", spring.id, top.id, "A", "B", 0),
            ("cb", spring.id, top.id, "C", "B", 7),
            ("da", autumn.id, other.id, "D", "A", 0),
        ):
            match = await uow.matches.add(
                season,
                NewMatch(
                    division, key, 1, clubs[home], clubs[away], START + dt.timedelta(days=when)
                ),
            )
            matches[key] = match.id
        await uow.matches.replace_boards(matches["ab"], [BoardRecord(1, "Alice", "bob", 2, 2)])
        await uow.matches.replace_boards(matches["cb"], [BoardRecord(1, "ALICE", "bob", 4, 0)])
        await uow.matches.replace_boards(matches["da"], [BoardRecord(1, "Carol", "dave", 4, 0)])
    return spring.id, matches, clubs


async def test_cl_18_a_player_for_another_club_of_the_season_is_found_by_name(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    spring, matches, clubs = await _seasons(store)
    async with store.read() as view:
        elsewhere = view.matches.plays_elsewhere
        # alice plays for A here and (as ALICE) for C in the season's other match
        assert await elsewhere(spring, matches["ab"], [("alice", clubs["A"])])
        # bob plays for B in both: the same club elsewhere is no other club
        assert not await elsewhere(spring, matches["ab"], [("bob", clubs["B"])])
        # carol plays for D in another season only
        assert not await elsewhere(spring, matches["ab"], [("carol", clubs["A"])])
        # the match itself is left out: ALICE for C in "cb" is not elsewhere from "cb"
        assert await elsewhere(spring, matches["cb"], [("alice", clubs["C"])])
        assert not await elsewhere(spring, matches["cb"], [("bob", clubs["B"])])
        assert not await elsewhere(spring, matches["ab"], [])


async def test_cl_18_the_question_takes_the_player_indexes_on_sqlite(
    database: Database,
) -> None:
    if not isinstance(database, SqliteDatabase):
        return  # the plan is SQLite's; PostgreSQL answers the same question above
    store = GuildStore(database, GUILD)
    spring, matches, clubs = await _seasons(store)
    asked: list[str] = []
    async with database.read() as connection:
        await connection.set_trace_callback(asked.append)
        async with store.read() as view:
            await view.matches.plays_elsewhere(spring, matches["ab"], [("alice", clubs["A"])])
        await connection.set_trace_callback(None)
    questions = [statement for statement in asked if statement.startswith("WITH here")]
    assert len(questions) == 1
    for sql in questions:
        with sqlite3.connect(database.path) as plain:
            plan = [row[3] for row in plain.execute(f"EXPLAIN QUERY PLAN {sql}")]
        searched = " | ".join(plan)
        assert "USING INDEX boards_home_player" in searched, plan
        assert "USING INDEX boards_away_player" in searched, plan
        assert not any(step.startswith("SCAN b ") or step == "SCAN b" for step in plan), plan
