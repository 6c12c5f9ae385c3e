"""An aiosqlite connection that can hold back statements whose outcome nobody reads (a BEGIN, an
audit row, a version bump) and send them with the next statement in one trip to its thread.

Every trip to aiosqlite's thread costs a hand-off there and back through the event loop, and a
unit of work's trips are serial, so a loop busy with other tasks stretches every one of them.
Deferred statements run in order, before whatever the connection does next (a query, a write,
COMMIT), so a read in the same transaction still sees them; an error in one surfaces there.
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

Parameters = Sequence[Any]


class BatchingConnection(aiosqlite.Connection):
    """`aiosqlite.Connection` with `defer`: statements held until the next trip, then run first
    in that same trip (on the connection's thread, in the order deferred)."""

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self._deferred: list[tuple[str, Parameters | Iterable[Parameters], bool]] = []
        self._cursors: weakref.WeakSet[sqlite3.Cursor] = weakref.WeakSet()
        """The cursors handed out and still referenced (`end_snapshot` closes them)."""
        self.failed: BaseException | None = None
        """The error of a deferred statement since the transaction began (None: none failed).
        It surfaced at someone else's statement, who may have caught it: the transaction
        must not commit (`transaction()` raises it again instead)."""

    def defer(self, sql: str, parameters: Parameters = ()) -> None:
        """Run `sql` before the next statement, in its trip (its cursor is not returned)."""
        self._deferred.append((sql, tuple(parameters), False))

    def defer_many(self, sql: str, rows: Iterable[Parameters]) -> None:
        """`executemany(sql, rows)` before the next statement, in its trip."""
        self._deferred.append((sql, [tuple(row) for row in rows], True))

    @property
    def deferred(self) -> int:
        """How many statements wait for the next trip."""
        return len(self._deferred)

    def discard_deferred(self) -> None:
        """Forget the statements not sent yet (before a rollback: they must not run)."""
        self._deferred.clear()

    async def flush(self) -> None:
        """Send the deferred statements now (one trip; none when nothing waits)."""
        if self._deferred:
            await self._execute(_nothing)

    async def end_snapshot(self) -> None:
        """End the transaction, if one is open, by ROLLBACK after closing the cursors handed
        out (a statement not read to its end keeps its snapshot even after ROLLBACK: the next
        BEGIN on this connection would read that old snapshot again, and a BEGIN IMMEDIATE
        fail once another connection committed). One trip; the deferred statements dropped."""
        self._deferred.clear()

        def run() -> None:
            self._close_cursors()
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")

        await self._execute(run)

    async def commit_transaction(self) -> None:
        """Send the deferred statements, close the cursors handed out (see `end_snapshot`) and
        COMMIT, in one trip."""

        def run() -> None:
            self._close_cursors()
            self._conn.execute("COMMIT")

        await self._execute(run)

    def _close_cursors(self) -> None:
        """On the thread: close (reset) every cursor handed out and still referenced."""
        for cursor in list(self._cursors):
            cursor.close()
        self._cursors.clear()

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """aiosqlite's one door to its thread: the deferred statements go first, same trip;
        the cursors it hands out are noted (for `end_snapshot`)."""
        if not self._deferred:
            return await super()._execute(self._noting, fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        batch, self._deferred = self._deferred, []

        def run() -> Any:
            connection = self._conn
            try:
                for sql, parameters, many in batch:
                    if many:
                        connection.executemany(sql, parameters)
                    else:
                        connection.execute(sql, parameters)  # type: ignore[arg-type]
            except BaseException as error:
                self.failed = error
                raise
            return self._noting(fn, *args, **kwargs)

        return await super()._execute(run)  # type: ignore[no-untyped-call]

    def _noting(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`fn(*args, **kwargs)` on the thread, noting a cursor it returns."""
        result = fn(*args, **kwargs)
        if isinstance(result, sqlite3.Cursor):
            self._cursors.add(result)
        return result


def _nothing() -> None:
    """The trip `flush` makes to run only the deferred statements."""


async def connect(path: Path) -> BatchingConnection:
    """Open `path` (or `:memory:`) in autocommit mode: transactions are opened explicitly."""
    location = str(path)

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(location, isolation_level=None)

    connection = BatchingConnection(connector)
    await connection  # starts its thread and connects
    return connection
