"""What a repository is bound to: one guild, the open connection, and (for writes) the unit of
work's instant and audit details. Repositories put `guild_id = ?` in every statement."""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import AsyncIterator, Awaitable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TypeVar, overload

from storage.connection import Connection, Cursor, Row

A = TypeVar("A")
B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
E = TypeVar("E")
F = TypeVar("F")


class _Step:
    """One read of `ReadScope.together`, run step by step in the caller's task (as a task
    would run it, without a task or a pass of the event loop per query): what it waits on
    now, and its result or error once done."""

    __slots__ = ("coroutine", "done", "error", "result", "waiting")

    def __init__(self, read: Awaitable[Any]) -> None:
        self.coroutine = read.__await__()
        self.done = False
        self.result: Any = None
        self.error: BaseException | None = None
        self.waiting: asyncio.Future[Any] | None = None

    def advance(self) -> None:
        """Run the read on to what it waits on next, or to its end."""
        try:
            waiting = self.coroutine.send(None)
        except StopIteration as stop:
            self.done, self.result, self.waiting = True, stop.value, None
        except Exception as error:
            self.done, self.error, self.waiting = True, error, None
        else:
            self.waiting = waiting

    def cancel(self) -> None:
        """Stop a read that will not run on (together failed or was cancelled) as a task
        stops: what it waits on cancelled and CancelledError thrown in at its `await`, so a
        lock handed to it is passed on; closed if it still goes on."""
        if self.done:
            return
        self.done = True
        if self.waiting is not None:
            self.waiting.cancel()
        try:
            self.coroutine.throw(asyncio.CancelledError())
        except (Exception, asyncio.CancelledError):  # it ended, as asked, or failing on the way
            return
        self.coroutine.close()


def _close(reads: Iterable[Awaitable[Any]]) -> None:
    """Close the coroutines among reads that will never run (not left unawaited)."""
    for read in reads:
        if inspect.iscoroutine(read):
            read.close()


class ReadScope:
    """The connection a guild's read-only repositories use, and the guild they are bound to."""

    def __init__(self, connection: Connection, guild_id: int) -> None:
        self.connection = connection
        self.guild_id = guild_id
        self._asked: list[tuple[str, tuple[Any, ...], asyncio.Future[list[Row]]]] | None = None
        """The queries `together`'s reads have asked and wait for (None: not in `together`)."""
        self._asking: asyncio.Task[Any] | None = None
        """The task running `together` (its reads run in it): another task's query on this
        scope meanwhile is its own, sent at once."""

    @overload
    async def together(self, a: Awaitable[A], b: Awaitable[B], /) -> tuple[A, B]: ...

    @overload
    async def together(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], /
    ) -> tuple[A, B, C]: ...

    @overload
    async def together(
        self, a: Awaitable[A], b: Awaitable[B], c: Awaitable[C], d: Awaitable[D], /
    ) -> tuple[A, B, C, D]: ...

    @overload
    async def together(
        self,
        a: Awaitable[A],
        b: Awaitable[B],
        c: Awaitable[C],
        d: Awaitable[D],
        e: Awaitable[E],
        f: Awaitable[F],
        /,
    ) -> tuple[A, B, C, D, E, F]: ...

    async def together(self, *reads: Awaitable[Any]) -> tuple[Any, ...]:
        """Run independent reads of this scope's repositories (coroutines not yet awaited)
        with their queries sent together: each read runs until it asks a query, the queries
        asked go in one trip (`Connection.fetch_together`), and so on until every read is
        done. Their results in order; the first read to fail (in argument order) raises,
        once all are done. The reads must not depend on each other; a write among them is
        one whose rows are read (RETURNING) and that none of the others depends on."""
        if self._asked is not None:
            _close(reads)
            raise RuntimeError("together() inside together(): give it every read at once")
        steps: list[_Step] = []
        try:
            steps.extend(_Step(read) for read in reads)
        except BaseException:
            _close(reads)
            raise
        asked: list[tuple[str, tuple[Any, ...], asyncio.Future[list[Row]]]] = []
        self._asked, self._asking = asked, asyncio.current_task()
        try:
            for step in steps:  # each runs to its first query (or its end), in this task
                step.advance()
            while not all(step.done for step in steps):
                if asked:  # the queries asked go first: a read may wait on another's rows
                    await self._send_asked(asked)
                    for step in steps:
                        if not step.done and step.waiting is not None and step.waiting.done():
                            step.advance()
                    continue
                # every read still running waits on something else: the first that is done
                waiting = [step for step in steps if not step.done]
                futures = [step.waiting for step in waiting if step.waiting is not None]
                if len(futures) < len(waiting):
                    await asyncio.sleep(0)  # a read gave up one pass of the loop
                else:
                    await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
                for step in waiting:
                    if step.waiting is None or step.waiting.done():
                        step.advance()
        finally:
            self._asked, self._asking = None, None
            for step in steps:
                step.cancel()
        for step in steps:
            if step.error is not None:
                raise step.error
        return tuple(step.result for step in steps)

    async def _send_asked(
        self, asked: list[tuple[str, tuple[Any, ...], asyncio.Future[list[Row]]]]
    ) -> None:
        """Send the queries `together`'s reads asked, in one trip, and answer each."""
        batch = asked[:]
        del asked[:]
        try:
            outcomes = await self.connection.fetch_together([(q, p) for q, p, _ in batch])
        except Exception as failure:  # the deferred statements failed: every read
            outcomes = [failure] * len(batch)
        for (_, _, future), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def fetchone(self, sql: str, parameters: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, or None (for queries of at most a few rows: all are read,
        in one trip to the database thread)."""
        rows = await self.fetchall(sql, parameters)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> list[Row]:
        """Every row of a query, executed and fetched in one trip to the database thread (in
        `together`, in the trip of every query its reads ask at once)."""
        asked = self._asked
        if asked is None or asyncio.current_task() is not self._asking:
            return await self.connection.execute_fetchall(sql, tuple(parameters))
        future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        asked.append((sql, tuple(parameters), future))
        return await future


ROWS_PER_INSERT = 100
"""Rows in one multi-row INSERT (`WriteScope.insert_rows_later`): a few statement texts for
the usual sizes, far below either engine's limit on parameters (SQLite 32,766; PostgreSQL
65,535) whatever the columns."""


class WriteScope(ReadScope):
    """A guild's scope inside an open unit of work: its instant (`now`, also the audit row's
    `at`) and the audit details the repositories and the block add to."""

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
        """Seasons whose version this unit of work bumped (the pin refresher follows them);
        a season's version goes up once per unit of work, at its first change."""
        self.season_changes: dict[int, int] = {}
        """Each season's changes so far in this unit of work (every `bump`, the first or not):
        what the unit computed of a season stays true only while this count stands."""
        self.deleted_versions: dict[int, int] = {}
        """The last version of each season this unit deleted: a season created with the
        same id (SQLite gives it again) counts on from it."""
        self.epoch = 0
        """Goes up whenever rows this unit of work read may be gone (`forget_reads`): a
        repository caching what it read in the unit keeps the cache for one epoch only."""

    async def execute(self, sql: str, parameters: Iterable[Any] = ()) -> Cursor:
        """Run one statement inside the unit of work's transaction."""
        return await self.connection.execute(sql, tuple(parameters))

    async def insert(self, sql: str, parameters: Iterable[Any] = ()) -> int:
        """Run one INSERT of a row into a table with an `id` column; the new row's id
        (`RETURNING id`, on both engines)."""
        rows = await self.connection.execute_fetchall(sql + " RETURNING id", tuple(parameters))
        return int(rows[0][0])

    def execute_later(self, sql: str, parameters: Iterable[Any] = ()) -> None:
        """Run one statement whose cursor nobody reads, with the unit of work's next statement
        (one trip less; an error in it surfaces there, and rolls back the whole unit)."""
        self.connection.defer(sql, tuple(parameters))

    def executemany_later(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """`execute_later` for one statement over many rows."""
        self.connection.defer_many(sql, [tuple(row) for row in rows])

    def insert_rows_later(self, head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
        """`execute_later` of `head` (`INSERT INTO t (a, b) VALUES`) with the rows as one
        multi-row VALUES list — `ROWS_PER_INSERT` rows a statement — and `tail` (e.g. an ON
        CONFLICT clause) after it: one step on the database thread a statement, not one a
        row as `executemany_later` takes (each step hands the interpreter lock back to the
        event loop and waits to get it again: behind a busy loop, a wait of its own). On a
        connection that sends an `executemany` in one round trip (PostgreSQL), that instead.
        No two rows may share a key the tail updates (PostgreSQL refuses a statement that
        updates one row twice; SQLite would apply both)."""
        if not rows:
            return
        width = len(rows[0])
        if any(len(row) != width for row in rows):
            raise ValueError("every row of one insert has the same columns")
        after = f" {tail}" if tail else ""
        one = "(" + ", ".join(["?"] * width) + ")"
        if not self.connection.multi_row_inserts:
            self.executemany_later(f"{head} {one}{after}", rows)
            return
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start : start + ROWS_PER_INSERT]
            values = ", ".join([one] * len(chunk))
            parameters = [value for row in chunk for value in row]
            self.execute_later(f"{head} {values}{after}", parameters)

    def forget_reads(self) -> None:
        """Rows read earlier in the unit of work may be gone (deleted, or a savepoint undone):
        repositories' caches of them start over (`epoch`)."""
        self.epoch += 1

    def record(self, key: str, entry: dict[str, Any]) -> None:
        """Append `entry` to the audit details under `key` (e.g. every job scheduled)."""
        self.details.setdefault(key, []).append(entry)

    @asynccontextmanager
    async def savepoint(self, name: str = "part") -> AsyncIterator[None]:
        """A part of the unit of work that is undone alone if the block raises (SAVEPOINT …
        ROLLBACK TO): its writes, audit details and bumped seasons; then re-raises."""
        details = copy.deepcopy(self.details)
        bumped = set(self.bumped_seasons)
        await self.connection.execute(f"SAVEPOINT {name}")  # sends the earlier deferred ones
        failed = self.connection.failed  # one caught before the part stays the unit's
        try:
            yield
            await self.connection.flush()  # a deferred statement failing is the part failing
        except BaseException:
            self.connection.discard_deferred()  # the part's own: undone anyway
            await self.connection.execute(f"ROLLBACK TO SAVEPOINT {name}")
            self.connection.failed = failed  # the part's own failure is undone
            await self.connection.execute(f"RELEASE SAVEPOINT {name}")
            self.details.clear()
            self.details.update(details)
            self.bumped_seasons.clear()
            self.bumped_seasons.update(bumped)
            self.forget_reads()  # what the part read or wrote may be undone
            raise
        await self.connection.execute(f"RELEASE SAVEPOINT {name}")
