"""Match, result, roster and decision services on a real SQLite file and the 127.0.0.1 fake
chess.com: challenges, at-start facts, reschedule moving jobs, chess.com import (idempotent,
closed accounts), manual results from CSV, roster links and removals, director decisions by
motions only,
hostile input, and a result import racing a reschedule on one match."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.chesscom.client import ChessComClient
from bot.formats.boards_csv import BoardRow, BoardsCsvError, parse_boards_csv
from bot.kernel.actor import Actor
from bot.kernel.config import ClDefaults
from bot.kernel.errors import UserError
from bot.league.matches import life, results
from bot.league.matches import service as matches
from bot.league.matches.jobs import POLL
from bot.league.motions.lifecycle import MotionRequest, cast_vote, open_motion
from bot.league.rosters import service as rosters
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.league.store import load_season
from core.league.forfeits import SeasonJudging, division_facts
from storage.engine.connection import Connection
from storage.engine.database import Clock, Database, SqliteDatabase
from storage.engine.postgresql import PostgresDatabase
from storage.guild import GuildStore
from tests.support import services_world
from tests.support.chesscom_fake import FakeChessCom
from tests.support.services_world import (
    ADMIN_A,
    ADMIN_B,
    ARBITER,
    ARBITER_USER,
    DIRECTOR,
    DIRECTOR_USER,
    HQ,
    PLAYER_USER,
    audit,
    audited,
    dump,
    refused,
)

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD = 10
ADMIN_OF_A, ADMIN_OF_B = Actor(ADMIN_A[0]), Actor(ADMIN_B[0])
PLAYER = Actor(PLAYER_USER)
DEFAULTS = ClDefaults(clubs_per_division=4)
CHESSCOM_MATCH = 12803


@dataclass(frozen=True)
class TwoSeasons:
    """A scheduled season: Team Romania (A) vs Team USA - Southwest (B) and two more clubs."""

    store: GuildStore
    season: int
    clubs: dict[str, int]
    match: int
    other_season_match: int


PLAYED_SEASON = dt.date(2009, 7, 13)
"""A first round before the recorded chess.com match 12803 finished (2010-01-10), and before
the tests' clock: its result may be recorded (CL-14: never before the start)."""


async def _world(database: Database, first_round: dt.date = dt.date(2024, 3, 1)) -> TwoSeasons:
    store = GuildStore(database, GUILD)
    async with store.change(None, "test.clubs", "clubs") as uow:
        ids = {}
        for name, url in (
            ("Team Romania", "team-romania"),
            ("Team USA - Southwest", "team-usa-southwest"),
            ("C", "c"),
            ("D", "d"),
        ):
            ids[name] = (await uow.clubs.register(name, url, status="approved")).id
        for user in ADMIN_A:
            await uow.club_admins.add(ids["Team Romania"], user)
        for user in ADMIN_B:
            await uow.club_admins.add(ids["Team USA - Southwest"], user)
    for title in ("Spring", "Autumn"):
        await seasons.create_season(store, HQ, DEFAULTS, title, first_round)
    for club in ("Team Romania", "Team USA - Southwest"):
        await seasons.add_club(store, HQ, "Spring", "Premier Division", club)
    for club in ("C", "D"):
        await seasons.add_club(store, HQ, "Autumn", "Premier Division", club)
    spring = await schedule.schedule_season(store, HQ, "Spring", confirm=True)
    autumn = await schedule.schedule_season(store, HQ, "Autumn", confirm=True)
    async with store.read() as view:
        (match,) = await view.matches.of_season(spring.season.id)
        (other,) = await view.matches.of_season(autumn.season.id)
    return TwoSeasons(store, spring.season.id, ids, match.id, other.id)


async def test_challenge_issued_by_own_club_and_accepted_by_the_other(
    database: Database,
) -> None:
    """CL-15: the caller's club declares it issued (with the chess.com match URL); only the
    other club's admin accepts; strangers, HQ, the issuer and bad ids are refused."""
    w = await _world(database)
    url = f"https://www.chess.com/club/match/{CHESSCOM_MATCH}"
    for actor in (PLAYER, HQ, DIRECTOR):
        await refused(database, matches.record_challenge_issued(w.store, actor, w.match, url))
    for bad in ("", "abc", "x" * 10_000, "12\x00", "-5", "https://www.chess.com/member/erik"):
        await refused(database, matches.record_challenge_issued(w.store, ADMIN_OF_A, w.match, bad))
    await refused(
        database, matches.record_challenge_accepted(w.store, ADMIN_OF_B, w.match), "no challenge"
    )
    await refused(
        database, matches.record_challenge_issued(w.store, ADMIN_OF_A, 999_999, url), "no match"
    )
    issued = await audited(
        database,
        matches.record_challenge_issued(w.store, ADMIN_OF_A, w.match, url),
        ADMIN_A[0],
        "match.challenge",
    )
    assert issued.club_id == w.clubs["Team Romania"] and issued.source == "declared"
    assert issued.match.chesscom_match_id == CHESSCOM_MATCH
    await refused(
        database, matches.record_challenge_accepted(w.store, ADMIN_OF_A, w.match), "club admin"
    )
    await refused(
        database,
        matches.record_challenge_issued(w.store, ADMIN_OF_A, w.other_season_match, url),
        "club admin",
    )
    accepted = await audited(
        database,
        matches.record_challenge_accepted(w.store, ADMIN_OF_B, w.match),
        ADMIN_B[0],
        "match.accept",
    )
    assert accepted.match.challenge is not None
    assert accepted.match.challenge.accepted_source == "declared"
    # CL-15: a recorded challenge is not replaced, by the bot's sighting either.
    await refused(
        database,
        matches.record_challenge_issued(
            w.store,
            Actor.system(),
            w.match,
            CHESSCOM_MATCH,
            club=w.clubs["Team Romania"],
            source="chesscom",
        ),
        "not replaced",
    )
    await refused(
        database,
        matches.record_challenge_issued(
            w.store, ADMIN_OF_A, w.match, CHESSCOM_MATCH, source="chesscom"
        ),
        "bot",
    )


async def test_at_start_facts_need_an_arbiter_or_the_bot(database: Database) -> None:
    """CL-5, CL-6, CL-20: at-start facts by the bot or an arbiter, for a club of the match."""
    w = await _world(database)
    at = dt.datetime(2024, 3, 1, 19, 5, tzinfo=dt.UTC)
    club = w.clubs["Team Romania"]

    def call(actor: Actor, club_id: int = club, members: int = 350):  # type: ignore[no-untyped-def]
        return matches.record_at_start(
            w.store,
            actor,
            w.match,
            club_id,
            members=members,
            avg_rating=1650.5,
            players=15,
            observed_at=at,
        )

    await refused(database, call(ADMIN_OF_A), "arbiter")
    await refused(database, call(ARBITER, w.clubs["C"]), "does not play")
    await refused(database, call(ARBITER, members=-1), "members")
    recorded = await audited(database, call(ARBITER), ARBITER_USER, "match.at_start")
    assert recorded.facts.members == 350 and recorded.facts.observed_at == at


async def test_reschedule_moves_the_matchs_jobs(database: Database) -> None:
    """CL-13, CL-15: only a director (not HQ) moves a match; every job moves with it."""
    w = await _world(database)
    new = dt.datetime(2024, 4, 5, 18, tzinfo=dt.UTC)
    await refused(database, matches.reschedule_match(w.store, HQ, w.match, new), "director")
    await refused(
        database,
        matches.reschedule_match(w.store, DIRECTOR, w.match, new.replace(tzinfo=None)),
        "time zone",
    )
    moved = await audited(
        database,
        matches.reschedule_match(w.store, DIRECTOR, w.match, new),
        DIRECTOR_USER,
        "match.reschedule",
    )
    assert moved.match.start == new and moved.deadline == new - dt.timedelta(hours=120)
    async with w.store.read() as view:
        deadline = await view.jobs.pending("cl.deadline", f"match:{w.match}")
        start = await view.jobs.pending("cl.at_start", f"match:{w.match}")
    assert deadline is not None and deadline.due_at == moved.deadline
    assert start is not None and start.due_at == new


async def test_import_a_finished_chesscom_match_idempotently(
    database: Database, client: ChessComClient, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-14, CL-19: a club admin imports the finished match: boards in half-points, the
    finish, players fielded; importing again leaves the same facts; the poll job stops."""
    w = await _world(database, PLAYED_SEASON)
    await refused(
        database,
        results.import_chesscom_result(w.store, client, PLAYER, w.match, CHESSCOM_MATCH),
        "club admin",
    )
    await refused(
        database,
        results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match),
        "no chess.com match",
    )
    await refused(
        database,
        results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match, 873060),
        "not this fixture",
    )
    running = json.loads(
        (fixtures_dir / "chesscom" / "team_match_daily_finished_12803.json").read_text()
    )
    running["status"] = "in_progress"
    fake.serve("match/555", running)
    await refused(
        database,
        results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match, 555),
        "not finished",
    )
    await refused(
        database,
        results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match, 424242),
        "no chess.com team match",
    )
    await refused(
        database,
        results.import_chesscom_result(
            w.store, client, Actor.system(), w.other_season_match, CHESSCOM_MATCH
        ),
        "not this fixture",
    )
    first = await audited(
        database,
        results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match, CHESSCOM_MATCH),
        ADMIN_A[0],
        "match.import",
    )
    assert first.boards and first.home_half + first.away_half == 4 * len(first.boards)
    assert first.match.finished_at is not None
    facts = {
        t: rows
        for t, rows in (await dump(database)).items()
        if t in ("boards", "matches", "match_at_start", "closed_accounts")
    }
    again = await results.import_chesscom_result(w.store, client, ADMIN_OF_B, w.match)
    assert again.boards == first.boards
    assert {t: rows for t, rows in (await dump(database)).items() if t in facts} == facts
    async with w.store.read() as view:
        assert await view.jobs.pending(POLL, f"match:{w.match}") is None
        fielded = await view.matches.at_start(w.match)
    assert {f.players for f in fielded} == {54}


async def test_import_records_closed_and_fair_play_accounts(
    database: Database, client: ChessComClient, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-19: accounts chess.com shows closed are recorded for the season, fair play marked."""
    payload = json.loads(
        (fixtures_dir / "chesscom" / "team_match_daily_finished_12803.json").read_text()
    )
    player = payload["teams"]["team1"]["players"][0]
    player["status"] = "closed:fair_play_violations"
    fake.serve(f"match/{CHESSCOM_MATCH}", payload)
    w = await _world(database, PLAYED_SEASON)
    event = await results.import_chesscom_result(
        w.store, client, Actor.system(), w.match, CHESSCOM_MATCH
    )
    assert player["username"] in event.closed_accounts
    async with w.store.read() as view:
        closed = await view.rosters.closed_accounts(w.season)
    statuses = {c.username: c.status for c in closed}
    assert statuses[player["username"]] == "closed:fair_play_violations"
    assert sorted(statuses) == sorted(event.closed_accounts)
    assert set(statuses.values()) == {"closed", "closed:fair_play_violations"}


def test_boards_csv_names_the_bad_line() -> None:
    """The boards CSV: header optional, halves exact, each error names its line."""
    rows = parse_boards_csv(
        "board,home_player,away_player,home_points,away_points\n"
        "1,alice,bob,1.5,0.5\n2,carol,dave,1½,½\n"
    )
    assert [(r.board, r.home_points) for r in rows] == [(1, 1.5), (2, 1.5)]
    for text, where in (
        ("1,alice,bob,1.3,0.7\n", "line 1"),
        ("1,alice,bob,1,1\n1,c,d,1,1\n", "line 2"),
        ("1,alice,bob,1\n", "line 1"),
        ("1,al ice,bob,1,1\n", "line 1"),
        ("x,alice,bob,1,1\n", "line 1"),
        ("1,alice,bob,1e999999,1\n", "line 1"),
        ("", "no boards"),
        ("a\x00b", "NUL"),
        ("".join(f"{n},a{n},b{n},1,1\n" for n in range(1, 600)), "line 501: board '501'"),
        ("1" + "0" * 30 + ",alice,bob,1,1\n", "1 to 500"),
        ("1,alice,bob,1,1\n2,ALICE,dave,1,1\n", "line 2: 'ALICE' already plays on line 1"),
        ("1,alice,alice,1,1\n", "both sides"),
        ("1,\u0430lice,bob,1,1\n", "not a chess.com username"),  # Cyrillic а
        ("1,ａlice,bob,1,1\n", "not a chess.com username"),  # full-width ａ
        ("1,alice²,bob,1,1\n", "not a chess.com username"),  # superscript two
    ):
        with pytest.raises(BoardsCsvError, match=where):
            parse_boards_csv(text)


async def test_manual_result_by_an_arbiter_only(database: Database) -> None:
    """CL-14: only an arbiter enters boards by hand; points must add up to the games."""
    w = await _world(database, PLAYED_SEASON)
    good = parse_boards_csv("1,alice,bob,2,0\n2,carol,dave,1,1\n")
    bad = parse_boards_csv("1,alice,bob,2,1\n")
    await refused(
        database, results.enter_manual_result(w.store, DIRECTOR, w.match, good), "arbiter"
    )
    await refused(database, results.enter_manual_result(w.store, ARBITER, w.match, bad), "add up")
    await refused(database, results.enter_manual_result(w.store, ARBITER, w.match, []))
    quarter = [BoardRow(1, "alice", "bob", Fraction(7, 4), Fraction(1, 4))]  # not halves
    await refused(database, results.enter_manual_result(w.store, ARBITER, w.match, quarter), "½")
    event = await audited(
        database,
        results.enter_manual_result(w.store, ARBITER, w.match, good),
        ARBITER_USER,
        "match.result",
    )
    assert (event.home_half, event.away_half) == (6, 2)
    await refused(
        database,
        matches.reschedule_match(
            w.store, DIRECTOR, w.match, dt.datetime(2024, 5, 1, tzinfo=dt.UTC)
        ),
        "is finished",
    )


async def test_roster_links_and_removals(database: Database) -> None:
    """A player links their own account; linking another's needs a club admin; an account
    has one owner; a removal is recorded by the club's own admin, pending verification."""
    w = await _world(database)
    linked = await audited(
        database, rosters.link_account(w.store, PLAYER, "Alice_1"), PLAYER_USER, "roster.link"
    )
    assert (linked.user_id, linked.username) == (PLAYER_USER, "Alice_1")
    await refused(database, rosters.link_account(w.store, PLAYER, "bob", 999), "club admin")
    await refused(database, rosters.link_account(w.store, ADMIN_OF_A, "alice_1", 999), "another")
    for bad in ("", "a b", "x" * 500, "evil\x1b", "<@1>"):
        await refused(database, rosters.link_account(w.store, PLAYER, bad))
    await audited(
        database, rosters.link_account(w.store, ADMIN_OF_A, "bob", 999), ADMIN_A[0], "roster.link"
    )
    await refused(
        database,
        rosters.record_removal(
            w.store, ADMIN_OF_B, "Spring", "Team Romania", "alice_1", "timeouts"
        ),
        "club admin",
    )
    await refused(
        database,
        rosters.record_removal(w.store, ADMIN_OF_A, "Spring", "Team Romania", "alice_1", "dislike"),
        "reason",
    )
    await refused(
        database,
        rosters.record_removal(w.store, ADMIN_OF_A, "Autumn", "Team Romania", "alice_1", "other"),
        "does not play",
    )
    removal = await audited(
        database,
        rosters.record_removal(
            w.store, ADMIN_OF_A, "Spring", "Team Romania", "alice_1", "timeouts", "  35 % timeouts "
        ),
        ADMIN_A[0],
        "roster.remove",
    )
    assert removal.verification == "pending" and removal.reason == "timeouts"


async def test_cl_23_director_decisions_are_recorded_only_by_a_passed_motion(
    database: Database,
) -> None:
    """CL-23: no role bypasses a vote — a director decision fact is recorded only when its
    motion passes: HQ cannot open one, a forfeit of a club not in the match, an unknown kind,
    an unknown rule and a disqualification naming no club are refused at opening (nothing
    written); an open or rejected motion records nothing; the passed one records its
    decision with its id."""
    w = await _world(database)
    a = w.clubs["Team Romania"]
    async with w.store.change(1, "setup.set", "s") as uow:
        await uow.settings.update(directors_channel_id=77)
    electorate = (DIRECTOR_USER, 106, 107)
    forfeit = MotionRequest("forfeit", "Roster", match_id=w.match, club=a)
    await refused(database, open_motion(w.store, HQ, forfeit, electorate), "director")
    for request, why in (
        (MotionRequest("forfeit", "x", match_id=w.match, club=w.clubs["C"]), "does not play"),
        (MotionRequest("banish", "x", club=a), "kind"),
        (MotionRequest("disqualify", "x", "Spring", club=a, rule="CL-99"), "rule"),
        (MotionRequest("disqualify", "x", "Spring", rule="CL-23"), "names the club"),
        (MotionRequest("forfeit", "x", match_id=w.other_season_match + 99, club=a), "No match"),
    ):
        await refused(database, open_motion(w.store, DIRECTOR, request, electorate), why)

    async def decisions() -> list[tuple[str, str, int | None]]:
        async with w.store.read() as view:
            return [(d.kind, d.rule, d.motion_id) for d in await view.decisions.of_season(w.season)]

    rejected = await open_motion(w.store, DIRECTOR, forfeit, electorate)
    still_open = await open_motion(w.store, DIRECTOR, forfeit, electorate)
    for director in electorate:
        await cast_vote(w.store, director, rejected.id, False)
    await cast_vote(w.store, DIRECTOR_USER, still_open.id, True)
    assert await decisions() == []
    passed = await open_motion(w.store, DIRECTOR, forfeit, electorate)
    for director in electorate:
        cast = await cast_vote(w.store, director, passed.id, True)
    assert cast.closed and cast.motion.status == "passed"
    assert await decisions() == [("forfeit", "CL-21", passed.id)]


async def test_another_guild_sees_nothing(database: Database, client: ChessComClient) -> None:
    """Every service given another guild's ids finds nothing and writes nothing."""
    w = await _world(database)
    other = GuildStore(database, 20)
    async with other.change(1, "setup.set", "s") as uow:  # a guild that could hold motions
        await uow.settings.update(directors_channel_id=77)
    before = await dump(database)
    calls = [
        matches.record_challenge_issued(other, Actor.system(), w.match, 1),
        matches.reschedule_match(other, DIRECTOR, w.match, dt.datetime(2024, 5, 1, tzinfo=dt.UTC)),
        results.enter_manual_result(other, ARBITER, w.match, parse_boards_csv("1,a1,b1,1,1")),
        results.import_chesscom_result(other, client, Actor.system(), w.match, CHESSCOM_MATCH),
        rosters.record_removal(other, Actor.system(), w.season, w.clubs["C"], "abc", "other"),
        open_motion(other, DIRECTOR, MotionRequest("exclude-club", "x", club=1), (1, 2, 3)),
    ]
    for call in calls:
        with pytest.raises(UserError, match="No "):
            await call
    assert await dump(database) == before


class Gate:
    """A real database whose next unit of work can be held open after its writes, before its
    COMMIT (its locks held), and which tells when a unit of work is about to BEGIN: a test
    then chooses the order of two racing services, with no sleeps. Mixed into each engine's
    `Database` (`GatedSqlite`, `GatedPostgres`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.beginning = asyncio.Event()
        self.written = asyncio.Event()
        self.release = asyncio.Event()
        self.release.set()

    def hold_next(self) -> None:
        """Hold the next unit of work before its commit until `release` is set."""
        self.written.clear()
        self.release.clear()

    @asynccontextmanager
    async def transaction(
        self, after_commit: Callable[[], None] | None = None, *, guild_id: int | None = None
    ) -> AsyncIterator[Connection]:
        """`Database.transaction`, announcing its start and waiting for `release` to commit."""
        self.beginning.set()
        async with super().transaction(after_commit, guild_id=guild_id) as connection:  # type: ignore[misc]
            yield connection
            self.written.set()
            await self.release.wait()


class GatedSqlite(Gate, SqliteDatabase):
    """The gate on a SQLite file."""


class GatedPostgres(Gate, PostgresDatabase):
    """The gate on a PostgreSQL database."""


GatedDatabase = GatedSqlite | GatedPostgres


async def _gated(location: Path | str, clock: Clock | None = None) -> GatedDatabase:
    """A gated database at `location` (a SQLite file or a PostgreSQL URL): each call another
    connection, as another process would have."""
    clock = clock or (lambda: services_world.NOW)
    if isinstance(location, str):
        return await GatedPostgres.connect(location, clock=clock)
    database = await GatedSqlite.open(location, clock=clock)
    assert isinstance(database, GatedSqlite)
    return database


@pytest.mark.parametrize("first_club", ["Team Romania", "Team USA - Southwest"])
async def test_cl_15_two_clubs_declaring_the_challenge_at_once_one_is_recorded(
    database_location: Path | str, first_club: str
) -> None:
    """CL-15, concurrency: both clubs of a match declare the challenge as real concurrent
    tasks on two connections to one database (as the bot and a second process would), each
    order forced: the first club's unit of work is held open after its writes, the second
    runs up to its own unit of work (its earlier reads saw no challenge), then the first
    commits. The second is refused inside its unit of work — a recorded challenge is not
    replaced — so the first club's challenge stands, with exactly its audit row."""
    first_db = await _gated(database_location)
    await first_db.migrate()
    second_db = await _gated(database_location, first_db.clock)
    try:
        w = await _world(first_db)
        before = await audit(first_db)
        admins = {"Team Romania": ADMIN_OF_A, "Team USA - Southwest": ADMIN_OF_B}
        second_club = next(c for c in admins if c != first_club)
        first = functools.partial(
            matches.record_challenge_issued,
            GuildStore(first_db, GUILD),
            admins[first_club],
            w.match,
            CHESSCOM_MATCH,
        )
        second = functools.partial(
            matches.record_challenge_issued,
            GuildStore(second_db, GUILD),
            admins[second_club],
            w.match,
            CHESSCOM_MATCH + 1,
        )
        first_db.hold_next()
        second_db.beginning.clear()
        first_task = asyncio.create_task(first())
        await first_db.written.wait()  # the first club's writes are made, not committed
        second_task = asyncio.create_task(second())
        await second_db.beginning.wait()  # the second has read and reached its unit of work
        assert not first_task.done() and not second_task.done()
        first_db.release.set()
        recorded, refusal = await asyncio.gather(first_task, second_task, return_exceptions=True)
        assert not isinstance(recorded, BaseException), recorded
        assert isinstance(refusal, UserError) and "not replaced" in refusal.message, refusal
        async with GuildStore(first_db, GUILD).read() as view:
            match = await view.matches.get(w.match)
        assert match is not None and match.challenge is not None
        assert match.challenge.issued_by == w.clubs[first_club]
        assert match.chesscom_match_id == CHESSCOM_MATCH
        rows = [(a[1], a[2]) for a in (await audit(first_db))[len(before) :]]
        assert rows == [(admins[first_club].user_id, "match.challenge")]
    finally:
        await second_db.close()
        await first_db.close()


async def test_cl_14_an_import_refused_in_a_unit_that_goes_on_leaves_nothing(
    database: Database, client: ChessComClient
) -> None:
    """CL-14: an import refused inside the unit of work — here by someone who may not report
    it — as the poll job has one refused and goes on in the same unit, leaves nothing: no
    announcement (the one reserved with its reads is withdrawn), the poll not cancelled, no
    fact; the unit commits what it does next."""
    w = await _world(database, PLAYED_SEASON)
    async with w.store.change(None, "test.channel", "settings") as uow:
        await uow.settings.update(announcements_channel_id=42)
    read = await results.read_chesscom_result(w.store, client, w.match, CHESSCOM_MATCH)
    async with w.store.read() as view:
        assert await view.jobs.pending(POLL, f"match:{w.match}") is not None
    before = await dump(database)
    # refused by the life cycle's door, and with its season gone (read with the others)
    gone = replace(read, match=replace(read.match, season_id=987654))
    for actor, attempt, why in ((PLAYER, read, "club admin"), (HQ, gone, "season")):
        async with w.store.change(None, "test.poll", f"match:{w.match}") as uow:
            with pytest.raises(UserError, match=why):
                await results.import_chesscom_result_in(uow, actor, attempt)
            uow.details["went_on"] = True
        after = await dump(database)
        assert {t for t in after if after[t] != before.get(t)} == {"audit"}
        async with w.store.read() as view:
            assert await view.jobs.pending(POLL, f"match:{w.match}") is not None
            entry = (await view.audit.recent())[-1]
        assert (entry.action, entry.details) == ("test.poll", {"went_on": True})


async def test_cl_20_an_import_leaves_its_season_judged_with_the_players_fielded(
    database: Database,
    client: ChessComClient,
    fake: FakeChessCom,
    fixtures_dir: Path,
) -> None:
    """CL-20, CL-FF: the judging facts a chess.com import leaves for the next unit of work
    are a fresh read's: the at-start facts recorded before (members, average) kept with the
    players each club fielded, and the club with none recorded given its players alone."""
    payload = json.loads(
        (fixtures_dir / "chesscom" / "team_match_daily_finished_12803.json").read_text()
    )
    for team in payload["teams"].values():
        for player in team["players"]:
            player["status"] = "basic"
    fake.serve(f"match/{CHESSCOM_MATCH}", payload)
    w = await _world(database, PLAYED_SEASON)
    romania, usa = w.clubs["Team Romania"], w.clubs["Team USA - Southwest"]
    async with w.store.read() as view:
        match = await view.matches.get(w.match)
    assert match is not None
    await matches.record_at_start(
        w.store,
        ARBITER,
        w.match,
        romania,
        members=350,
        avg_rating=1650.5,
        players=15,
        observed_at=match.start,
    )
    await results.import_chesscom_result(w.store, client, ADMIN_OF_A, w.match, CHESSCOM_MATCH)

    async with w.store.change(None, "test.look", f"match:{w.match}") as uow:
        kept = await life.match_now(uow, match, uow.now)
        whole = await load_season(uow.view(), kept.record, for_judging=True)
        fresh = division_facts(whole, "Premier Division")  # the life cycle reads its division
        assert kept.season == fresh
        assert kept.judging.at(uow.now) == SeasonJudging(fresh).at(uow.now)
        (played,) = kept.season.matches
        names = {romania: "Team Romania", usa: "Team USA - Southwest"}
        by_club = {club: played.at_start[name] for club, name in names.items()}
        assert (by_club[romania].members, by_club[romania].avg_rating) == (350, 1650.5)
        assert (by_club[usa].members, by_club[usa].avg_rating) == (None, None)
        assert by_club[romania].players == by_club[usa].players == 54
        uow.abandon()


async def test_cl_ff_a_result_leaves_its_season_judged_for_the_next_unit_of_work(
    database: Database,
) -> None:
    """CL-FF: after a result and its correction, the life cycle judges the season as a fresh
    read of it gives it."""
    w = await _world(database, PLAYED_SEASON)
    boards = parse_boards_csv("1,alice,bob,2,0\n2,carol,dave,1,1\n")
    await results.enter_manual_result(w.store, ARBITER, w.match, boards)

    corrected = parse_boards_csv("1,alice,bob,0,2\n2,carol,dave,1,1\n")
    event = await results.enter_manual_result(w.store, ARBITER, w.match, corrected)
    assert (event.home_half, event.away_half) == (2, 6)
    async with w.store.change(None, "test.look", f"match:{w.match}") as uow:
        match = await uow.matches.get(w.match)
        assert match is not None
        kept = await life.match_now(uow, match, uow.now)
        whole = await load_season(uow.view(), kept.record, for_judging=True)
        fresh = division_facts(whole, "Premier Division")  # the life cycle reads its division
        assert kept.season == fresh
        assert kept.judging.at(uow.now) == SeasonJudging(fresh).at(uow.now)
        # never challenged (CL-15), whatever its boards: both clubs forfeit it
        assert [b.rule for b in kept.judging.at(uow.now).breaches] == ["CL-15", "CL-15"]
        uow.abandon()
