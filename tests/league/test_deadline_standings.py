"""CL-15 deadline judgements compute the season's standings for a forfeit alone, to say which
ranks moved, and a match judged without a forfeit computes none."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.league.automation import deadline as deadline_module
from bot.league.automation.judgement import Reports, reports_at
from bot.league.matches.jobs import deadline_of
from core.league.season import Season, SeasonRules
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import NewMatch
from storage.shared.jobs import Job

START = dt.datetime(2024, 3, 1, 19, 0, tzinfo=dt.UTC)
GUILD = 31


async def _round(store: GuildStore) -> tuple[dict[str, int], list[int]]:
    """One division of clubs A-D and a round of two matches, A-B and C-D, at one start."""
    async with store.change(1, "test.setup", "season") as uow:
        clubs = {n: (await uow.clubs.register(n, status="approved")).id for n in "ABCD"}
        season = await uow.seasons.create("Spring", SeasonRules())
        top = await uow.seasons.add_division(season.id, "Top", 3)
        for name in "ABCD":
            await uow.seasons.add_club(season.id, top.id, clubs[name])
        ids = await uow.matches.add_many(
            season.id,
            [
                NewMatch(top.id, "T-1-1", 1, clubs["A"], clubs["B"], START),
                NewMatch(top.id, "T-1-2", 1, clubs["C"], clubs["D"], START),
            ],
        )
    return clubs, ids


async def _judge(
    store: GuildStore, handler: deadline_module.JobHandler, match_id: int, due: dt.datetime
) -> list[object]:
    job = Job(1, GUILD, "cl.deadline", f"match:{match_id}", due, {"match": match_id}, "pending")
    async with store.change(None, "job.done", "job:1") as uow:
        await handler(job, uow)
        forfeits: list[object] = uow.details["forfeits"]
    return forfeits


async def test_cl_15_a_deadline_computes_standings_only_for_a_forfeit(
    database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = GuildStore(database, GUILD)
    clubs, (first, second) = await _round(store)
    due = deadline_of(START, SeasonRules().challenge_deadline_hours)
    computed: list[dt.datetime] = []

    def counting(season: Season, instant: dt.datetime) -> Reports:
        computed.append(instant)
        return reports_at(season, instant)

    monkeypatch.setattr(deadline_module, "reports_at", counting)
    handler = deadline_module.deadline_handler()
    # no challenge on either match: both clubs of each forfeit, each with its standings
    assert len(await _judge(store, handler, first, due)) == 2
    assert len(await _judge(store, handler, second, due)) == 2
    assert computed == [due, due]
    # the second match's challenge is recorded, issued and accepted in time: a new version
    async with store.change(1, "test", "x") as uow:
        await uow.matches.issue_challenge(
            second, clubs["C"], due - dt.timedelta(hours=5), "declared"
        )
        await uow.matches.accept_challenge(second, due - dt.timedelta(hours=4), "declared")
    assert await _judge(store, handler, second, due) == []
    assert computed == [due, due]  # no forfeit: judged without standings
