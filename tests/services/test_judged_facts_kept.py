"""The judged facts the life cycle keeps by season version (`bot/league/matches/life.py`)
are what a fresh read gives, even when a unit of work changes the season again after a
result (nothing is kept then) or a replaced season gets its old id again (SQLite reuses ids:
the new season counts its versions on from the old one's)."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

import pytest

from bot.formats.season_file import load_season as from_file
from bot.league.matches import life
from bot.league.store import import_season, load_season
from core.league.forfeits import SeasonJudging
from storage.database import Database
from storage.guild import GuildStore, UnitOfWork
from storage.matches import BoardRecord, MatchRecord
from tests.support.cl_seasons import match, season

pytestmark = pytest.mark.on_clock
GUILD = 7


async def _result(uow: UnitOfWork, played: MatchRecord) -> int | None:
    """What a result's judging path does for one match (`results._recorded`): the version
    its facts were of."""
    before = await life.match_now(uow, played, uow.now)
    finished = played.start + dt.timedelta(days=1)
    await uow.matches.replace_boards(played.id, [BoardRecord(1, "x", "y", 4, 0)])
    await uow.matches.finish(played.id, finished)
    life.after_match_change(uow, before, replace(played, finished_at=finished), boards=1)
    return before.version


async def _kept_is_fresh(store: GuildStore, season_id: int) -> life.MatchNow:
    """The life cycle's view of the season's first match equals a fresh read's."""
    async with store.change(1, "test.look", "season") as uow:
        first = sorted(await uow.matches.of_season(season_id), key=lambda m: m.key)[0]
        kept = await life.match_now(uow, first, uow.now)
        fresh = await load_season(uow.view(), kept.record, for_judging=True)
        assert kept.season == fresh
        assert kept.judging.at(uow.now) == SeasonJudging(fresh).at(uow.now)
        uow.abandon()
    return kept


async def test_two_results_in_one_unit_of_work_keep_nothing_stale(database: Database) -> None:
    """CL-FF: a unit recording m1's result, then m2's, leaves the season as a fresh read
    gives it: m1's judged facts, computed before m2 changed, are not kept."""
    store = GuildStore(database, GUILD)
    data: dict[str, Any] = season(
        [match("m1", "A", "B", finished=False), match("m2", "C", "D", finished=False)],
        divisions={"P": ["A", "B", "C", "D"]},
    )
    async with store.change(1, "test.import", "season") as uow:
        record = await import_season(uow, from_file(data))
    async with store.change(1, "test.two", "season") as uow:
        m1, m2 = sorted(await uow.matches.of_season(record.id), key=lambda m: m.key)
        assert await _result(uow, m1) is not None  # of the committed version: kept but for m2
        assert await _result(uow, m2) is None  # read with m1's change: not kept
    kept = await _kept_is_fresh(store, record.id)
    assert [m.finished is not None for m in kept.season.matches] == [True, True]


async def test_a_replaced_season_is_never_judged_on_the_old_ones_facts(
    database: Database,
) -> None:
    """CL-15: a season replaced under its name (SQLite may give the new one the old id) is
    judged on its own facts: never challenged, both clubs forfeit."""
    store = GuildStore(database, GUILD)

    def one_match(challenge: str | None) -> dict[str, Any]:
        return season([match("m1", "A", "B", challenge=challenge)], divisions={"P": ["A", "B"]})

    async with store.change(1, "test.import", "season") as uow:
        first = await import_season(uow, from_file(one_match("accepted")))
    before = await _kept_is_fresh(store, first.id)
    assert before.judging.at(before.view.now).breaches == ()
    async with store.change(1, "test.import", "season") as uow:
        second = await import_season(uow, from_file(one_match(None)), replace=True)
    after = await _kept_is_fresh(store, second.id)
    assert after.version is not None and before.version is not None
    if second.id == first.id:
        assert after.version > before.version
    assert [b.rule for b in after.judging.at(after.view.now).breaches] == ["CL-15", "CL-15"]
