"""Helpers of the service tests: a dump of every table, and the two checks every service
must pass — a refused call writes nothing, a valid one writes exactly one audit row naming
its actor."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from tests.support.migrated import open_migrated

T = TypeVar("T")

HQ_USER = 101
DIRECTOR_USER = 102
ARBITER_USER = 103
PLAYER_USER = 104
ADMIN_A = (201, 202)
ADMIN_B = (211, 212)
HQ = Actor(HQ_USER, frozenset({Role.HQ}))
DIRECTOR = Actor(DIRECTOR_USER, frozenset({Role.DIRECTOR}))
ARBITER = Actor(ARBITER_USER, frozenset({Role.ARBITER}))


async def dump(database: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, sorted: two dumps are equal iff nothing was written."""
    tables = await database.tables()
    async with database.read() as connection:
        found: dict[str, list[tuple[Any, ...]]] = {}
        for table in sorted(tables):
            cursor = await connection.execute(f'SELECT * FROM "{table}"')
            found[table] = sorted((tuple(row) for row in await cursor.fetchall()), key=repr)
    return found


async def audit(database: Database) -> list[tuple[Any, ...]]:
    """The audit rows (guild, actor, action, subject), oldest first."""
    async with database.read() as connection:
        cursor = await connection.execute(
            "SELECT guild_id, actor_id, action, subject FROM audit ORDER BY id"
        )
        return [tuple(row) for row in await cursor.fetchall()]


async def refused(database: Database, call: Awaitable[Any], *words: str) -> str:
    """The call raises UserError (its message holding `words`) and writes nothing."""
    before = await dump(database)
    with pytest.raises(UserError) as caught:
        await call
    assert await dump(database) == before
    for word in words:
        assert word.lower() in caught.value.message.lower(), caught.value.message
    return caught.value.message


async def audited(database: Database, call: Awaitable[T], actor_id: int | None, action: str) -> T:
    """The call succeeds and writes exactly one audit row: this actor, this action."""
    before = await audit(database)
    result = await call
    after = await audit(database)
    assert len(after) == len(before) + 1, after[len(before) :]
    assert after[-1][1] == actor_id and after[-1][2] == action, after[-1]
    return result


NOW = dt.datetime(2024, 1, 15, 12, tzinfo=dt.UTC)
"""The services' clock in these tests: before the test seasons start."""


async def open_database(path: Path, now: dt.datetime = NOW) -> Database:
    """A migrated database on `path` whose clock (a `VirtualClock`) stands at `now`."""
    return await open_migrated(path, VirtualClock(now))
