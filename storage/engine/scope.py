"""What a repository is bound to: one guild and the open connection.

Repositories put `guild_id = ?` in every statement.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar

from storage.engine.connection import Connection, Cursor, Row

T = TypeVar("T")


class ReadScope:
    """The connection a guild's read-only repositories use, and the guild they are bound to."""

    def __init__(self, connection: Connection, guild_id: int) -> None:
        self.connection = connection
        self.guild_id = guild_id

    async def fetchone(self, sql: str, parameters: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.fetchall(sql, parameters)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[Row]:
        """Every row of a query."""
        return await self.connection.execute_fetchall(sql, tuple(parameters))

    async def one(
        self, make: Callable[[Row], T], sql: str, parameters: Iterable[Any] = ()
    ) -> T | None:
        """The first row of a query made into a value by `make`, or None."""
        row = await self.fetchone(sql, parameters)
        return None if row is None else make(row)

    async def each(
        self, make: Callable[[Row], T], sql: str, parameters: Iterable[Any] = ()
    ) -> list[T]:
        """Every row of a query, each made into a value by `make`."""
        return [make(row) for row in await self.fetchall(sql, parameters)]


ROWS_PER_INSERT = 100
"""Rows in one multi-row INSERT, far below either engine's limit on parameters."""


class WriteScope(ReadScope):
    """A guild's scope inside an open unit of work, with its instant `now` and its audit details."""

    def __init__(
        self,
        connection: Connection,
        guild_id: int,
        now: datetime,
        details: dict[str, Any],
    ) -> None:
        super().__init__(connection, guild_id)
        self.now = now
        self.details = details
        self.bumped_seasons: set[int] = set()
        """Seasons whose version this unit of work bumped, once each at its first change."""
        self.deleted_versions: dict[int, int] = {}
        """The last version of each season this unit deleted, which a new season of that id counts
        on from."""

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> Cursor:
        """Run one statement inside the unit of work's transaction."""
        return await self.connection.execute(sql, tuple(parameters))

    async def insert(self, sql: str, parameters: Iterable[Any] = ()) -> int:
        """Run one INSERT of a row into a table with an `id` column. Returns the new row's id."""
        rows = await self.connection.execute_fetchall(sql + " RETURNING id", tuple(parameters))
        return int(rows[0][0])

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement over many rows inside the unit of work's transaction."""
        await self.connection.executemany(sql, [tuple(row) for row in rows])

    async def insert_rows(self, head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
        """INSERT the rows after `head`, then `tail`. No two rows may share a key `tail` updates."""
        if not rows:
            return
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("every row of one insert has the same columns")
        after = f" {tail}" if tail else ""
        one = "(" + ", ".join(["?"] * width) + ")"
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start : start + ROWS_PER_INSERT]
            values = ", ".join([one] * len(chunk))
            parameters = [value for row in chunk for value in row]
            await self.execute(f"{head} {values}{after}", parameters)

    def record(self, key: str, entry: dict[str, Any]) -> None:
        """Append `entry` to the audit details under `key`."""
        self.details.setdefault(key, []).append(entry)

    @asynccontextmanager
    async def savepoint(self, name: str = "part") -> AsyncIterator[None]:
        """A part of the unit of work that is undone alone if the block raises, then re-raises."""
        details = copy.deepcopy(self.details)
        bumped = set(self.bumped_seasons)
        await self.connection.execute(f"SAVEPOINT {name}")
        failed = self.connection.failed  # one caught before the part stays the unit's
        try:
            yield
        except BaseException:
            await self.connection.execute(f"ROLLBACK TO SAVEPOINT {name}")
            self.connection.failed = failed  # the part's own failure is undone
            await self.connection.execute(f"RELEASE SAVEPOINT {name}")
            self.details.clear()
            self.details.update(details)
            self.bumped_seasons.clear()
            self.bumped_seasons.update(bumped)
            raise
        await self.connection.execute(f"RELEASE SAVEPOINT {name}")
