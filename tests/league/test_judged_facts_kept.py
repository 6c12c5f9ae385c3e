"""The life cycle judges a season on what a fresh read gives, even when a replaced season
gets its old id again (SQLite reuses ids)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.formats.season_file import load_season as from_file
from bot.league.matches import life
from bot.league.store import import_season, load_season
from core.league.forfeits import SeasonJudging
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.cl_seasons import match, season

pytestmark = pytest.mark.on_clock
GUILD = 7


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
    assert [b.rule for b in after.judging.at(after.view.now).breaches] == ["CL-15", "CL-15"]
