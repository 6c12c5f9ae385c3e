"""A result judged on the season read before it, with its one match read again, gives the season
and the CL-FF and CL-DQ judgement that reading the whole season again gives."""

from __future__ import annotations

import datetime as dt

from bot.league.store import load_season_facts, with_match_read
from core.league.forfeits import SeasonJudging
from core.league.season import SeasonRules
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import AtStartRecord, BoardRecord, NewMatch

START = dt.datetime(2024, 3, 1, 19, 0, tzinfo=dt.UTC)
GUILD = 32


async def test_cl_ff_cl_20_one_match_read_again_equals_the_season_read_again(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    async with store.change(1, "test.setup", "season") as uow:
        clubs = {n: (await uow.clubs.register(n, status="approved")).id for n in "ABCD"}
        record = await uow.seasons.create("Spring", SeasonRules())
        top = await uow.seasons.add_division(record.id, "Top", 3)
        for name in "ABCD":
            await uow.seasons.add_club(record.id, top.id, clubs[name])
        first, _ = await uow.matches.add_many(
            record.id,
            [
                NewMatch(top.id, "T-1-1", 1, clubs["A"], clubs["B"], START),
                NewMatch(top.id, "T-1-2", 1, clubs["C"], clubs["D"], START),
            ],
        )
        await uow.matches.issue_challenge(
            first, clubs["A"], START - dt.timedelta(days=10), "declared"
        )
        await uow.matches.accept_challenge(first, START - dt.timedelta(days=9), "declared")
    async with store.read() as view:
        before = await load_season_facts(view, record, for_judging=True)
    finished = START + dt.timedelta(days=3)
    # Two boards where CL-20 asks three players: A by its snapshot, B by the boards.
    boards = [BoardRecord(n, f"a{n}", f"b{n}", 2, 2) for n in (1, 2)]
    async with store.change(1, "test.result", "match") as uow:
        await uow.matches.replace_boards(first, boards)
        await uow.matches.finish(first, finished)
        await uow.matches.set_at_start(first, AtStartRecord(clubs["A"], 40, 1500.0, 2, START))
        updated = await uow.matches.get(first)
        assert updated is not None
        view = uow.view()
        again = (await load_season_facts(view, record, for_judging=True)).season
        read = await with_match_read(view, before.season, updated, len(boards))
        uow.abandon()
    assert read == again
    judged = SeasonJudging(before.season).with_match(read, "T-1-1").at(finished)
    assert judged == SeasonJudging(again).at(finished)
    assert [(b.club, b.rule) for b in judged.breaches if b.match == "T-1-1"] == [
        ("A", "CL-20"),
        ("B", "CL-20"),
    ]
