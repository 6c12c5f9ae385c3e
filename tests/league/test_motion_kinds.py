"""Every motion kind's action (CL-23) applied in the closing unit of work, audited with the
motion id, and the exported season's `arbiter league` reflecting it; refusals that write
nothing; CL-21 removal verification on the 127.0.0.1 fake chess.com."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.chesscom.client import ChessComClient
from bot.formats.boards_csv import parse_boards_csv
from bot.kernel.actor import Actor, Role
from bot.league.motions.lifecycle import MotionRequest, VoteRules, cast_vote, open_motion
from bot.league.rosters.removal_checks import verify_removal
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore
from storage.league.motions import Motion
from tests.support.chesscom_fake import FakeChessCom
from tests.support.cl_seasons import match, season
from tests.support.discord_harness import DEFAULT_GUILD_ID
from tests.support.motion_world import START, import_test_season, league_json, table
from tests.support.services_world import audit, refused

DIRECTORS = (301, 302, 303)
CHANNEL = 555
ANNOUNCE = 556


@pytest.fixture
async def world(database_location: Path | str) -> AsyncIterator[tuple[Database, dict[str, int]]]:
    database = await open_database(database_location, clock=lambda: START)
    await database.migrate()
    ids = await import_test_season(database)
    async with GuildStore(database, DEFAULT_GUILD_ID).change(1, "setup.set", "s") as uow:
        await uow.settings.update(directors_channel_id=CHANNEL, announcements_channel_id=ANNOUNCE)
    yield database, ids
    await database.close()


DIRECTOR = Actor(DIRECTORS[0], frozenset({Role.DIRECTOR}))


async def _pass(database: Database, request: MotionRequest) -> Motion:
    store = GuildStore(database, DEFAULT_GUILD_ID)
    motion = await open_motion(store, DIRECTOR, request, DIRECTORS)
    for director in DIRECTORS:
        cast = await cast_vote(store, director, motion.id, True)
    assert cast.closed and cast.motion.status == "passed", cast.motion
    return cast.motion


async def _decisions(database: Database) -> list[tuple[str, str, int | None]]:
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        return [
            (d.kind, d.rule, d.motion_id)
            for s in await view.seasons.all()
            for d in await view.decisions.of_season(s.id)
        ]


async def test_cl_23_disqualify_passed_is_applied_audited_and_in_the_league(
    world: tuple[Database, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, _ = world
    request = MotionRequest(
        "disqualify", "Kept multi-team players", "Test season", club="B", rule="CL-18"
    )
    motion = await _pass(database, request)
    assert await _decisions(database) == [("disqualification", "CL-18", motion.id)]
    closing = [a for a in await audit(database) if a[2] == "motion.vote"][-1]
    assert closing[3] == f"motion:{motion.id}"
    report = await league_json(database, tmp_path, capsys, "2026-03-02")
    assert table(report)["B"][2] is True
    assert motion.outcome is not None and "B" in motion.outcome and "disqualified" in motion.outcome
    # A club already disqualified: a second motion could not be applied, so it is refused.
    await refused(
        database,
        open_motion(GuildStore(database, DEFAULT_GUILD_ID), DIRECTOR, request, DIRECTORS),
        "already disqualified",
    )


async def test_cl_23_correct_result_replaces_the_boards(
    world: tuple[Database, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, ids = world
    before = table(await league_json(database, tmp_path, capsys, "2026-03-02"))
    rows = parse_boards_csv("board,home_player,away_player,home_points,away_points\n1,a1,c1,0,2\n")
    motion = await _pass(
        database, MotionRequest("correct-result", "Wrong board", match_id=ids["3"], boards=rows)
    )
    assert await _decisions(database) == [("result-correction", "CL-14", motion.id)]
    after = table(await league_json(database, tmp_path, capsys, "2026-03-02"))
    assert after["C"][1] > before["C"][1] and after["A"][1] < before["A"][1]


async def test_cl_23_exclude_club_takes_it_out(
    world: tuple[Database, dict[str, int]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, _ = world
    motion = await _pass(database, MotionRequest("exclude-club", "Not a fan club", club="D"))
    assert ("exclusion", "CL-4", motion.id) in await _decisions(database)
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        club = await view.clubs.find("D")
    assert club is not None and club.status == "excluded"
    assert table(await league_json(database, tmp_path, capsys, "2026-03-02"))["D"][2] is True


async def test_cl_8_division_makeup_creates_next_season(
    world: tuple[Database, dict[str, int]],
) -> None:
    """CL-1, CL-8: the make-up is put to the vote only once the season is finished or past
    its cut-off, once; passed, it creates next season and closes this one."""
    database, _ = world
    store = GuildStore(database, DEFAULT_GUILD_ID)
    request = MotionRequest("division-makeup", "Adopt", "Test season", next_season="Season 2")
    await refused(
        database, open_motion(store, DIRECTOR, request, DIRECTORS), "is running", "cut-off"
    )
    async with store.change(None, "test.cutoff", "season") as uow:  # the cut-off has passed
        record = await uow.seasons.by_name("Test season")
        assert record is not None
        await uow.seasons.set_cutoff(record.id, START.date() - dt.timedelta(days=1))
    motion = await _pass(database, request)
    assert await _decisions(database) == [("division-makeup", "CL-8", motion.id)]
    async with store.read() as view:
        created = await view.seasons.by_name("Season 2")
        assert created is not None
        [division] = await view.seasons.divisions(created.id)
        members = await view.seasons.members(created.id)
        previous = await view.seasons.by_name("Test season")
    assert division.name == "P" and len(members) == 4
    assert previous is not None and previous.closed
    again = MotionRequest("division-makeup", "Again", "Test season", next_season="Season 3")
    await refused(database, open_motion(store, DIRECTOR, again, DIRECTORS), "once")


async def test_cl_23_other_records_and_applies_nothing(
    world: tuple[Database, dict[str, int]],
) -> None:
    database, _ = world
    motion = await _pass(database, MotionRequest("other", "Adopt the new logo"))
    assert motion.status == "passed" and await _decisions(database) == []


async def test_cl_23_refusals_write_nothing(world: tuple[Database, dict[str, int]]) -> None:
    database, ids = world
    store = GuildStore(database, DEFAULT_GUILD_ID)
    forfeit = MotionRequest("forfeit", "x", match_id=ids["1"], club="A")
    await refused(
        database, open_motion(store, DIRECTOR, forfeit, DIRECTORS[:2]), "at least 3 directors"
    )
    unknown = MotionRequest("forfeit", "x", match_id=99999, club="A")
    await refused(database, open_motion(store, DIRECTOR, unknown, DIRECTORS), "No match 99999")
    hq = Actor(9, frozenset({Role.HQ}))
    await refused(database, open_motion(store, hq, forfeit, DIRECTORS), "director")


async def test_cl_21_other_reason_opens_a_forfeit_motion_for_the_next_match(
    world: tuple[Database, dict[str, int]], client: ChessComClient
) -> None:
    database, ids = world
    store = GuildStore(database, DEFAULT_GUILD_ID)
    async with store.change(201, "roster.remove", "club") as uow:
        season = await uow.seasons.by_name("Test season")
        club = await uow.clubs.find("A")
        assert season is not None and club is not None
        removal = await uow.rosters.record_removal(season.id, club.id, "a9", "other")
    verified = await verify_removal(store, removal, client, DIRECTORS)
    assert verified.motion is not None and verified.motion.kind == "forfeit"
    assert verified.motion.match_id == ids["5"] and verified.motion.club_id == club.id
    async with store.read() as view:
        [stored] = await view.rosters.removals(season.id)
        messages = await view.outbox.pending()
    assert stored.verification == "motion"
    assert any(
        "not verified" in (m.content or "") and "Motion" in (m.content or "") for m in messages
    )


async def test_cl_21_timeouts_from_chesscom(
    world: tuple[Database, dict[str, int]], client: ChessComClient, fake: FakeChessCom
) -> None:
    database, _ = world
    store = GuildStore(database, DEFAULT_GUILD_ID)
    fake.serve("player/slowpoke/stats", {"chess_daily": {"record": {"timeout_percent": 30.5}}})
    fake.serve("player/fine/stats", {"chess_daily": {"record": {"timeout_percent": 25}}})
    async with store.change(201, "roster.remove", "club") as uow:
        season = await uow.seasons.by_name("Test season")
        club = await uow.clubs.find("B")
        assert season is not None and club is not None
        slow = await uow.rosters.record_removal(season.id, club.id, "slowpoke", "timeouts")
        fine = await uow.rosters.record_removal(season.id, club.id, "fine", "timeouts")
    assert (await verify_removal(store, slow, client, DIRECTORS)).check.justified
    # 25 % is not above the limit; B has no match left to forfeit, so no motion is opened.
    result = await verify_removal(store, fine, client, DIRECTORS)
    assert not result.check.justified and result.motion is None
    assert result.no_motion is not None and "no match left" in result.no_motion
    async with store.read() as view:
        found = {r.username: r.verification for r in await view.rosters.removals(season.id)}
    assert found == {"slowpoke": "verified", "fine": "refuted"}


FAST = season(
    [
        match(
            "f1",
            "E",
            "F",
            round=1,
            division="Q",
            start=dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC),
            finished=False,
            challenge=None,
        )
    ],
    {"Q": ["E", "F", "G", "H"]},
    name="Fast season",
    rules={"vote_deadline_hours": 24, "vote_quorum": 4},
)
"""A second season whose frozen CL-23 settings are 24 h and 4 votes."""


async def test_cl_23_a_motion_takes_its_seasons_frozen_deadline_and_quorum(
    world: tuple[Database, dict[str, int]],
) -> None:
    """CL-23: a motion of a season created with vote_deadline_hours=24 and vote_quorum=4
    closes 24 h after opening and needs 4 votes, whatever the config says; a motion of another
    season keeps that season's 72 h / 3, and one of no season takes the config's."""
    database, ids = world
    fast = await import_test_season(database, FAST)
    store = GuildStore(database, DEFAULT_GUILD_ID)
    config = VoteRules(hours=48, quorum=3)
    four = (*DIRECTORS, 304)
    request = MotionRequest("forfeit", "No show", match_id=fast["f1"], club="E")
    await refused(database, open_motion(store, DIRECTOR, request, DIRECTORS, config), "at least 4")
    motion = await open_motion(store, DIRECTOR, request, four, config)
    assert motion.deadline == START + dt.timedelta(hours=24) and motion.quorum == 4
    for director in DIRECTORS:
        cast = await cast_vote(store, director, motion.id, True)
    assert not cast.closed and cast.motion.status == "open"
    cast = await cast_vote(store, four[3], motion.id, True)
    assert cast.closed and cast.motion.status == "passed"
    # The season's excluded club is judged by the season it plays in.
    excluded = await open_motion(
        store, DIRECTOR, MotionRequest("exclude-club", "Gone", club="G"), four, config
    )
    assert excluded.deadline == START + dt.timedelta(hours=24) and excluded.quorum == 4
    other_season = await open_motion(
        store, DIRECTOR, MotionRequest("forfeit", "x", match_id=ids["5"], club="A"), four, config
    )
    assert other_season.deadline == START + dt.timedelta(hours=72) and other_season.quorum == 3
    no_season = await open_motion(store, DIRECTOR, MotionRequest("other", "Logo"), four, config)
    assert no_season.deadline == START + dt.timedelta(hours=48) and no_season.quorum == 3
