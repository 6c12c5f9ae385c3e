"""The life cycle reads a match's division alone (CL-FF, CL-DQ, CL-20): the stored division's
facts are `division_facts` of the stored season's, and judge every match as the season's do."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

import pytest

from bot.formats.boards_csv import BoardRow
from bot.formats.season_file import load_season as from_file
from bot.league.matches import life, results
from bot.league.store import import_season, load_division_facts, load_season_facts
from core.league.forfeits import SeasonJudging, division_facts
from core.league.lifecycle import match_view, void_clubs
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.automation_world import outbox
from tests.support.cl_seasons import ROUND_ONE, iso, match, season
from tests.support.services_world import ARBITER

GUILD = 34
ANNOUNCEMENTS = 3400
DIVISIONS = {"P": ["A", "B", "C", "D"], "One": ["E", "F", "G", "H"], "Two": ["I", "J", "K", "L"]}


def _season() -> dict[str, Any]:
    """Three divisions of two rounds: forfeits for CL-15 and CL-20, director forfeits (CL-21) and
    a directors' disqualification (CL-23), so clubs go out in two divisions."""
    matches = []
    for division, (w, x, y, z) in DIVISIONS.items():
        for number, (home, away, rnd) in enumerate(
            [(w, x, 1), (y, z, 1), (w, y, 2), (x, z, 2), (w, z, 3), (x, y, 3)]
        ):
            unchallenged = division != "Two" and home == w
            matches.append(
                match(
                    f"{division}-{number}",
                    home,
                    away,
                    round=rnd,
                    division=division,
                    challenge=None if unchallenged else "accepted",
                    finished=rnd < 3,
                    at_start={away: {"players": 1}} if division == "Two" and rnd == 1 else None,
                )
            )
    return season(
        matches,
        divisions=DIVISIONS,
        min_players=2,
        director_forfeits=[
            {"match": "P-3", "club": "D", "rule": "CL-21"},
            {"match": "Two-5", "club": "K", "rule": "CL-21"},
        ],
        director_disqualifications=[
            {"club": "G", "rule": "CL-23", "decided": iso(ROUND_ONE + dt.timedelta(days=3))}
        ],
    )


async def test_cl_ff_cl_dq_cl_20_a_division_read_judges_as_the_season_read(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(1, "test.import", "season") as uow:
        record = await import_season(uow, from_file(_season()))
    instants = [ROUND_ONE + dt.timedelta(days=d, hours=h) for d in range(0, 30, 3) for h in (-1, 0)]
    async with store.read() as view:
        whole = await load_season_facts(view, record, for_judging=True)
        judging = SeasonJudging(whole.season)
        matches = await view.matches.of_season(record.id)
        divisions = {d.id: d.name for d in await view.seasons.divisions(record.id)}
        for division_id, name in divisions.items():
            read = await load_division_facts(view, record, division_id)
            assert read == division_facts(whole.season, name)
        voided = 0
        for stored in matches:
            read = await load_division_facts(view, record, stored.division_id)
            mine = SeasonJudging(read)
            for instant in instants:
                here = match_view(read, stored.key, instant, void_clubs(mine, instant))
                assert here == match_view(
                    whole.season, stored.key, instant, void_clubs(judging, instant)
                )
                voided += here.void_by is not None
    out = judging.at(None).disqualified
    assert {"A", "E", "G"} <= set(out), "CL-15 counters and CL-23 put clubs out in P and One"
    assert voided > 0


async def test_cl_dq_the_life_cycle_reads_the_match_division_alone(database: Database) -> None:
    """`match_now` judges a match of division Two on Two's facts: no club of P or One is out."""
    store = GuildStore(database, GUILD)
    async with store.change(1, "test.import", "season") as uow:
        record = await import_season(uow, from_file(_season()))
    async with store.change(1, "test.look", "season") as uow:
        first = next(m for m in await uow.matches.of_season(record.id) if m.key == "Two-0")
        current = await life.match_now(uow, first, uow.now)
        assert [d.name for d in current.season.divisions] == ["Two"]
        assert {m.division for m in current.season.matches} == {"Two"}
        assert not set(current.out) & {"A", "E", "G"}
        uow.abandon()


def _result_season() -> dict[str, Any]:
    """Two divisions: G of One is out by the directors (CL-23) before P's match starts, and
    the player "shared" played for G, so a result that fields him may change G's matches."""
    before = iso(ROUND_ONE - dt.timedelta(days=1))
    return season(
        [
            match("P-0", "A", "B", round=1, division="P", finished=False),
            match("One-0", "E", "G", [("E1", "shared", 1)], round=1, division="One"),
        ],
        divisions={"P": ["A", "B", "C", "D"], "One": ["E", "F", "G", "H"]},
        director_disqualifications=[{"club": "G", "rule": "CL-23", "decided": before}],
    )


@pytest.mark.parametrize("home_player", ["shared", "A1"])
async def test_cl_dq_a_result_announces_no_club_already_out_in_another_division(
    database: Database, home_player: str
) -> None:
    """A result in P puts out nobody, whether it reads the whole season (a player who also
    played elsewhere, CL-18) or only its own match: G, out in One before, is not announced."""
    store = GuildStore(database, GUILD)
    async with store.change(1, "test.import", "season") as uow:
        record = await import_season(uow, from_file(_result_season()))
        await uow.settings.update(announcements_channel_id=ANNOUNCEMENTS)
    async with store.read() as view:
        played = next(m for m in await view.matches.of_season(record.id) if m.key == "P-0")
    before = await outbox(database)
    boards = [BoardRow(1, home_player, "B1", Fraction(2), Fraction(0))]
    finished = ROUND_ONE + dt.timedelta(days=1)
    await results.enter_manual_result(store, ARBITER, played.id, boards, finished)
    written = [content for _, content in (await outbox(database))[len(before) :]]
    assert written == ["Result (entered by an arbiter): **A** 2 – 0 **B**."]
