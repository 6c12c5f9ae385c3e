"""The league repositories on a real SQLite file: guild isolation, constraints that refuse
impossible states, rollback, version bumps, and the migration of club admins to clubs."""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass
from fractions import Fraction as F
from pathlib import Path

import pytest

from core.league.season import SeasonRules
from storage.engine.database import Database
from storage.engine.errors import IntegrityError
from storage.engine.migrations import discover
from storage.guild import GuildStore
from storage.league.decisions import NewDecision
from storage.league.matches import AtStartRecord, BoardRecord, ChallengeRecord, NewMatch
from storage.league.rosters import ClosedAccount

START = dt.datetime(2024, 3, 1, 19, 0, tzinfo=dt.UTC)


@dataclass(frozen=True)
class Fixture:
    """The ids of a small season: two divisions, clubs A, B (top) and C, D, one match A-B."""

    season: int
    top: int
    second: int
    clubs: dict[str, int]
    match: int


async def _season(store: GuildStore, games: int = 2) -> Fixture:
    async with store.change(1, "test.setup", "season") as uow:
        clubs = {n: (await uow.clubs.register(n, status="approved")).id for n in "ABCD"}
        season = await uow.seasons.create("Spring", SeasonRules(games_per_board=games))
        top = await uow.seasons.add_division(season.id, "Top", 3)
        second = await uow.seasons.add_division(season.id, "Second", 3)
        for name in "AB":
            await uow.seasons.add_club(season.id, top.id, clubs[name])
        for name in "CD":
            await uow.seasons.add_club(season.id, second.id, clubs[name])
        match = await uow.matches.add(
            season.id, NewMatch(top.id, "T-1-1", 1, clubs["A"], clubs["B"], START)
        )
    return Fixture(season.id, top.id, second.id, clubs, match.id)


async def _counts(database: Database) -> dict[str, int]:
    tables = (
        "clubs",
        "seasons",
        "divisions",
        "division_clubs",
        "matches",
        "boards",
        "match_at_start",
        "closed_accounts",
        "director_decisions",
        "roster_removals",
        "roster_links",
        "audit",
    )
    async with database.read() as connection:
        counts = {}
        for table in tables:
            cursor = await connection.execute(f"SELECT count(*) FROM {table}")
            row = await cursor.fetchone()
            assert row is not None
            counts[table] = int(row[0])
    return counts


async def test_a_season_round_trips_through_the_repositories(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    async with store.change(1, "test.facts", "match") as uow:
        a, b = f.clubs["A"], f.clubs["B"]
        await uow.matches.issue_challenge(f.match, a, START - dt.timedelta(days=9), "declared")
        await uow.matches.accept_challenge(f.match, START - dt.timedelta(days=8), "chesscom")
        await uow.matches.replace_boards(
            f.match, [BoardRecord(1, "alice", "bob", 3, 1), BoardRecord(2, "carol", "dan", 2, 2)]
        )
        await uow.matches.set_at_start(f.match, AtStartRecord(a, 300, 1544.25, 18, START))
        await uow.matches.finish(f.match, START + dt.timedelta(days=20, microseconds=5))
        await uow.rosters.mark_closed(f.season, ClosedAccount("Carol", START, "closed:fair_play"))
        await uow.decisions.record(f.season, NewDecision("forfeit", "CL-21", f.match, b))
    async with store.read() as view:
        match = await view.matches.get(f.match)
        assert match is not None
        assert match.finished_at == START + dt.timedelta(days=20, microseconds=5)
        assert match.challenge == ChallengeRecord(
            a, START - dt.timedelta(days=9), "declared", START - dt.timedelta(days=8), "chesscom"
        )
        assert [x.home_half for x in await view.matches.boards(f.match)] == [3, 2]
        assert await view.matches.at_start(f.match) == [AtStartRecord(a, 300, 1544.25, 18, START)]
        assert await view.rosters.closed_accounts(f.season) == [
            ClosedAccount("Carol", START, "closed:fair_play")
        ]
        (decision,) = await view.decisions.of_season(f.season)
        assert (decision.kind, decision.club_id, decision.decided_at) == ("forfeit", b, None)
        assert [d.name for d in await view.seasons.divisions(f.season)] == ["Top", "Second"]


async def test_another_guild_sees_nothing_and_changes_nothing(database: Database) -> None:
    owner, other = GuildStore(database, 10), GuildStore(database, 20)
    f = await _season(owner)
    async with other.read() as view:
        assert await view.seasons.get(f.season) is None
        assert await view.seasons.by_name("Spring") is None
        assert await view.seasons.all() == []
        assert await view.seasons.divisions(f.season) == []
        assert await view.seasons.members(f.season) == []
        assert await view.clubs.get(f.clubs["A"]) is None
        assert await view.clubs.by_name("A") is None
        assert await view.matches.get(f.match) is None
        assert await view.matches.of_season(f.season) == []
        assert await view.matches.boards_of_season(f.season) == {}
    before = await _counts(database)
    attempts = [
        lambda uow: uow.matches.reschedule(f.match, START),
        lambda uow: uow.matches.finish(f.match, START),
        lambda uow: uow.seasons.add_division(f.season, "Third", 1),
        lambda uow: uow.seasons.set_status(f.season, "finished"),
        lambda uow: uow.rosters.mark_closed(f.season, ClosedAccount("x")),
        lambda uow: uow.decisions.record(f.season, NewDecision("exclusion", "CL-23", None, 1)),
        lambda uow: uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 2, 2)]),
    ]
    for attempt in attempts:
        with pytest.raises((LookupError, IntegrityError)):
            async with other.change(2, "test.intrude", "season") as uow:
                await attempt(uow)
    async with other.change(2, "test.intrude", "season") as uow:
        assert not await uow.seasons.delete(f.season)
        assert await uow.clubs.decide(f.clubs["A"], "rejected", 2) is None
        uow.abandon()
    assert await _counts(database) == before
    async with owner.read() as view:
        season = await view.seasons.get(f.season)
        assert season is not None and season.status == "setup"


async def test_a_club_cannot_play_in_two_divisions_of_one_season(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.seasons.add_club(f.season, f.second, f.clubs["A"])


async def test_a_match_is_between_clubs_of_its_division(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            fixture = NewMatch(f.top, "T-9", 1, f.clubs["A"], f.clubs["C"], START)
            await uow.matches.add(f.season, fixture)


@pytest.mark.parametrize(
    "boards",
    [
        [BoardRecord(1, "a", "b", 3, 0)],  # CL-14: 3 + 0 half-points is not 2 games
        [BoardRecord(1, "a", "b", 5, -1)],  # negative points
        [BoardRecord(1, "a", "b", 2, 2), BoardRecord(1, "c", "d", 2, 2)],  # board 1 twice
    ],
)
async def test_cl_14_boards_that_do_not_add_up_are_refused(
    database: Database, boards: list[BoardRecord]
) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.replace_boards(f.match, boards)
    async with store.read() as view:
        assert await view.matches.boards(f.match) == []


async def test_cl_14_board_points_follow_the_seasons_games_per_board(database: Database) -> None:
    """A season of 1 game a board takes 2 half-points a board, and refuses 4."""
    store = GuildStore(database, 10)
    f = await _season(store, games=1)
    async with store.change(1, "test", "x") as uow:
        await uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 1, 1)])
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 2, 2)])
    with pytest.raises(IntegrityError):  # rules are frozen once matches exist
        async with database.transaction() as connection:
            await connection.execute("UPDATE seasons SET games_per_board = 2")


async def test_cl_15_a_challenge_is_issued_by_a_club_of_the_match(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.issue_challenge(f.match, f.clubs["C"], START, "declared")
    with pytest.raises(IntegrityError):  # accepted before any issue
        async with store.change(1, "test", "x") as uow:
            await uow.matches.accept_challenge(f.match, START, "declared")


async def test_facts_and_decisions_name_clubs_of_their_match(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.set_at_start(f.match, AtStartRecord(f.clubs["C"], 10))
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            decision = NewDecision("forfeit", "CL-21", f.match, f.clubs["D"])
            await uow.decisions.record(f.season, decision)
    with pytest.raises(IntegrityError):  # a forfeit names a match and a club
        async with store.change(1, "test", "x") as uow:
            await uow.decisions.record(f.season, NewDecision("forfeit", "CL-21"))


async def test_names_are_unique_per_guild_whatever_their_case(database: Database) -> None:
    store = GuildStore(database, 10)
    await _season(store)
    for attempt in ("clubs", "seasons"):
        with pytest.raises(IntegrityError):
            async with store.change(1, "test", "x") as uow:
                if attempt == "clubs":
                    await uow.clubs.register("a")
                else:
                    await uow.seasons.create("SPRING", SeasonRules())
    other = GuildStore(database, 20)
    async with other.change(1, "test", "x") as uow:  # another guild may use the same names
        await uow.clubs.register("A", "club-a")
        await uow.seasons.create("Spring", SeasonRules())


async def test_a_failed_unit_of_work_leaves_nothing(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    before = await _counts(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "test", "x") as uow:
            await uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 2, 2)])
            await uow.rosters.mark_closed(f.season, ClosedAccount("z"))
            await uow.seasons.add_club(f.season, f.second, f.clubs["A"])  # refused
    assert await _counts(database) == before
    async with store.read() as view:
        season = await view.seasons.get(f.season)
        assert season is not None and season.version == (await _version(store, f.season))


async def _version(store: GuildStore, season_id: int) -> int:
    async with store.read() as view:
        version = await view.seasons.version(season_id)
    assert version is not None
    return version


async def test_every_write_to_a_season_bumps_its_version(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    writes = [
        lambda uow: uow.matches.reschedule(f.match, START + dt.timedelta(hours=1)),
        lambda uow: uow.matches.finish(f.match, START + dt.timedelta(days=3)),
        lambda uow: uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 4, 0)]),
        lambda uow: uow.matches.set_at_start(f.match, AtStartRecord(f.clubs["A"], 5)),
        lambda uow: uow.rosters.mark_closed(f.season, ClosedAccount("z")),
        lambda uow: uow.rosters.record_removal(f.season, f.clubs["A"], "a", "timeouts"),
        lambda uow: uow.decisions.record(
            f.season, NewDecision("disqualification", "CL-23", None, f.clubs["B"])
        ),
        lambda uow: uow.seasons.set_withdrawn(f.season, f.clubs["C"]),
        lambda uow: uow.seasons.set_status(f.season, "scheduled"),
    ]
    for write in writes:
        before = await _version(store, f.season)
        async with store.change(1, "test", "x") as uow:
            await write(uow)
        assert await _version(store, f.season) > before


async def test_deleting_a_season_removes_all_its_facts(database: Database) -> None:
    store = GuildStore(database, 10)
    f = await _season(store)
    async with store.change(1, "test", "x") as uow:
        await uow.matches.replace_boards(f.match, [BoardRecord(1, "a", "b", 2, 2)])
        await uow.decisions.record(f.season, NewDecision("forfeit", "CL-21", f.match, f.clubs["A"]))
    async with store.change(1, "test", "x") as uow:
        assert await uow.seasons.delete(f.season)
    counts = await _counts(database)
    assert counts["seasons"] == counts["matches"] == counts["boards"] == 0
    assert counts["director_decisions"] == counts["division_clubs"] == 0
    assert counts["clubs"] == 4  # clubs outlive their seasons


async def test_roster_links_belong_to_one_user(database: Database) -> None:
    store = GuildStore(database, 10)
    async with store.change(1, "test", "x") as uow:
        assert await uow.rosters.link(5, "Alice", 5)
        assert not await uow.rosters.link(6, "alice", 6)
    async with store.read() as view:
        link = await view.rosters.user_of("ALICE")
        assert link is not None and link.user_id == 5
    async with GuildStore(database, 20).read() as view:
        assert await view.rosters.user_of("alice") is None


@pytest.mark.sqlite_only
async def test_migration_3_links_existing_club_admins_to_pending_clubs(tmp_path: Path) -> None:
    """SQLite only: A data migration applied to a SQLite file stopped at the version before it (on
    PostgreSQL every migration runs on an empty database at each test's start).
    Admins linked to a url-id before clubs had rows keep their link, to a pending club."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        for migration in discover()[:2]:
            old.executescript(migration.sql)
        old.execute("PRAGMA user_version = 2")
        old.executemany(
            "INSERT INTO club_admins (guild_id, club, user_id, added_at) VALUES (?, ?, ?, ?)",
            [
                (1, "arsenal-fans", 7, "2024-01-01T00:00:00+00:00"),
                (1, "arsenal-fans", 8, "2024-01-03T00:00:00+00:00"),
                (2, "arsenal-fans", 9, "2024-01-02T00:00:00+00:00"),
            ],
        )
    database = await Database.open(path)
    try:
        assert (await database.migrate())[0] == 3
        for guild, admins in ((1, [7, 8]), (2, [9])):
            async with GuildStore(database, guild).read() as view:
                assert await view.club_admins.admins_of("arsenal-fans") == admins
                club = await view.clubs.by_chesscom("arsenal-fans")
                assert club is not None and club.status == "pending"
    finally:
        await database.close()


@pytest.mark.sqlite_only
async def test_cct_16_migration_5_gives_existing_seasons_the_default_settings(
    tmp_path: Path,
) -> None:
    """SQLite only: A data migration applied to a SQLite file stopped at the version before it (on
    PostgreSQL every migration runs on an empty database at each test's start).
    CCT-16, CL-15, CL-8: a season stored before migration 5 reads back with the regulation's
    reminders, vote, admin and timeout values, and relegates as many as it promotes."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as old:
        for migration in discover()[:4]:
            old.executescript(migration.sql)
        old.execute("PRAGMA user_version = 4")
        old.execute(
            "INSERT INTO seasons (guild_id, name, name_key, games_per_board,"
            " challenge_deadline_hours, max_members, max_avg_rating, forfeits_to_disqualify,"
            " promotion_places, created_at) VALUES (1, 'Old', 'old', 2, 120, 400, 1700, 3, 1,"
            " '2024-01-01T00:00:00+00:00')"
        )
    database = await Database.open(path)
    try:
        assert (await database.migrate())[0] == 5
        async with GuildStore(database, 1).read() as view:
            season = await view.seasons.by_name("Old")
        assert season is not None
        assert season.rules == SeasonRules(promoted=1, relegated=1)
    finally:
        await database.close()


async def test_cct_16_every_rule_value_a_season_is_created_with_reads_back(
    database: Database,
) -> None:
    """CCT-16: each per-season value (CL-8, CL-12, CL-13, CL-15, CL-21, CL-23, CL-2..4)
    is stored with the season and read back unchanged."""
    rules = SeasonRules(
        promoted=2,
        relegated=2,
        reminder_hours=(96, 30, 1),
        vote_deadline_hours=24,
        vote_quorum=5,
        min_club_admins=3,
        timeout_ratio_limit_percent=F(67, 2),
        clubs_per_division=9,
        start_time=dt.time(18, 45),
        start_zone="Europe/Paris",
        divisions_cutoff=dt.date(2024, 5, 1),
    )
    async with GuildStore(database, 1).change(None, "test", "season") as uow:
        created = await uow.seasons.create("Spring", rules)
    assert created.rules == rules
