"""A deferred statement's error surfaces at a later statement, which may belong to someone else:
a caller that catches that later statement's error (a savepoint's part, as closing a motion
does) must not let the unit commit without the deferred write. Whoever catches it, the unit
of work fails with the deferred statement's error and writes nothing."""

from __future__ import annotations

import contextlib
import datetime as dt

import pytest

from storage.database import Database
from storage.errors import IntegrityError
from storage.guild import GuildStore
from storage.matches import BoardRecord
from tests.storage.test_unit_of_work_costs import _season
from tests.support.services_world import dump

GUILD = 31
FINISH = dt.datetime(2024, 3, 4, 19, 0, tzinfo=dt.UTC)
BAD = [BoardRecord(1, "a", "b", 5, 0)]  # 5 + 0 is not 2 × 2 games: the boards' CHECK refuses
GOOD = [BoardRecord(1, "a", "b", 3, 1)]


async def _boards(database: Database, match: int) -> list[tuple[int, int]]:
    async with database.read() as connection:
        rows = await connection.execute_fetchall(
            "SELECT home_half, away_half FROM boards WHERE match_id = ?", (match,)
        )
    return [(row[0], row[1]) for row in rows]


async def test_a_deferred_failure_caught_as_a_savepoint_part_failing_does_not_commit(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "motion.close", "motion:1") as uow:
            await uow.matches.replace_boards(match, BAD)  # deferred: fails at the next trip
            try:  # as motions.apply_passed: a failing action must not fail the closing
                async with uow.savepoint():
                    await uow.settings.update(hq_role_id=3)
            except Exception:
                uow.details["not_applied"] = "the action failed"
            await uow.matches.finish(match, FINISH)
    assert await dump(database) == before  # no finish, no audit row, old boards kept


async def test_a_deferred_failure_caught_at_a_later_statement_does_not_commit(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "t", "x") as uow:
            await uow.matches.replace_boards(match, BAD)
            # the caller thinks its own write was refused, and carries on
            with contextlib.suppress(IntegrityError):
                await uow.settings.update(hq_role_id=4)
    assert await dump(database) == before
    async with store.change(1, "t", "x") as uow:  # the next unit is not blamed
        await uow.matches.replace_boards(match, GOOD)
    assert await _boards(database, match) == [(3, 1)]


async def test_a_part_whose_own_deferred_write_fails_is_undone_and_the_unit_commits(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, GOOD)
        with pytest.raises(IntegrityError):
            async with uow.savepoint():
                await uow.matches.replace_boards(match, BAD)
        await uow.matches.finish(match, FINISH)
    assert await _boards(database, match) == [(3, 1)]
    async with store.read() as view:
        assert (await view.matches.get(match)).finished_at == FINISH  # type: ignore[union-attr]


async def test_an_earlier_caught_failure_is_not_forgiven_by_a_later_part_rolling_back(
    database: Database,
) -> None:
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    with pytest.raises(IntegrityError):
        async with store.change(1, "t", "x") as uow:
            await uow.matches.replace_boards(match, BAD)
            with contextlib.suppress(IntegrityError):
                await uow.settings.update(hq_role_id=4)
            with pytest.raises(RuntimeError):
                async with uow.savepoint():
                    raise RuntimeError("the part failed")
    assert await dump(database) == before


async def test_deferred_writes_followed_only_by_abandon_are_never_sent(database: Database) -> None:
    """`uow.abandon()` after deferred writes (even a failing one): nothing of them, no audit
    row, no error, and the next unit neither carries them nor is blamed for them."""
    store = GuildStore(database, GUILD)
    _, match, _ = await _season(store)
    before = await dump(database)
    async with store.change(1, "t", "x") as uow:
        await uow.matches.replace_boards(match, GOOD)
        await uow.matches.replace_boards(match, BAD)
        uow.abandon()
    assert await dump(database) == before
    async with store.change(1, "setup.set", "guild_settings") as uow:
        await uow.settings.update(hq_role_id=6)
    assert await _boards(database, match) == []
