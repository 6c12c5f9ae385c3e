"""Benchmark: 200 result imports on concurrent tasks through the service
(`bot.league.matches.results.import_chesscom_result`: chess.com read from the 127.0.0.1 stand-in,
facts, one audited unit of work with the boards, finish, fielded players, outbox and jobs)
next to raw aiosqlite transactions writing the same board rows and finishes, in the same run
on copies of the same database. Target: the service at >= 50 % of the raw rate; every board
stored exactly once (counted).

The stand-in runs in a process of its own, as chess.com's server does: the CPU of serving
the 200 matches is not charged to the service's event loop (`served_apart`).

Both sides are measured in `--rounds` rounds (default 7) on fresh copies, alternating which
goes first; the median share is judged (one round is at the mercy of a busy moment).

Run from the worktree root:
`python3 benchmarks/reports.py [--seed S] [--imports N] [--rounds R] [--db PATH]`
(--db: also copy the service's database there, e.g. for benchmarks/discord_surface.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import multiprocessing
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from bot.chesscom.client import ChessComClient, ClientSettings
from bot.kernel.actor import Actor, Role
from bot.kernel.config import ClDefaults
from bot.league.matches.results import import_chesscom_result
from bot.league.seasons import schedule
from bot.league.seasons import service as seasons
from bot.offline.chesscom_standin import ChessComStandIn
from bot.offline.demo.chesscom_payloads import Board, team_match
from bot.offline.demo.season_script import CHESSCOM_BASE
from bot.offline.demo.world import DIVISIONS, generate
from storage.engine.database import Database
from storage.engine.locations import open_database
from storage.guild import GuildStore

GUILD = 1
HQ = Actor(1, frozenset({Role.HQ}))
NOW = dt.datetime(2018, 1, 10, tzinfo=dt.UTC)
SEASON = "Bench"
CHANNEL = 42
"""The announcements channel: every import queues its announcement in the outbox."""


@dataclass(frozen=True)
class Planned:
    """One match to import: its id, season, clubs, chess.com id, and its boards as rows."""

    match_id: int
    season_id: int
    clubs: tuple[int, int]
    chesscom: int
    rows: list[tuple[int, str, str, int, int]]
    finished: dt.datetime


async def build(path: Path, seed: int, count: int, standin: ChessComStandIn) -> list[Planned]:
    """A scheduled demo season (39 clubs, 234 matches) and `count` finished chess.com
    matches served by the stand-in."""
    world = generate(seed)
    database = await Database.open(path, clock=lambda: NOW - dt.timedelta(days=200))
    try:
        await database.migrate()
        store = GuildStore(database, GUILD)
        async with store.change(None, "bench.clubs", "clubs") as uow:
            await uow.settings.update(announcements_channel_id=CHANNEL)
            for club in world.clubs:
                await uow.clubs.register(club.name, club.url_id, status="approved")
        await seasons.create_season(store, HQ, ClDefaults(), SEASON, dt.date(2017, 9, 5))
        for club in world.clubs:
            await seasons.add_club(store, HQ, SEASON, DIVISIONS[club.division][0], club.name)
        scheduled = await schedule.schedule_season(store, HQ, SEASON, confirm=True)
        async with store.read() as view:
            matches = await view.matches.of_season(scheduled.season.id)
            club_names = {c.id: c.name for c in await view.clubs.all()}
    finally:
        await database.close()
    rng = random.Random(seed)
    names = {c.name: c for c in world.clubs}
    planned = []
    for match in sorted(matches, key=lambda m: m.id)[:count]:
        home, away = names[club_names[match.home_club_id]], names[club_names[match.away_club_id]]
        size = DIVISIONS[home.division][1] + 2
        boards = [
            Board(h, a, (rng.choice((0.0, 0.5, 1.0)), rng.choice((0.0, 0.5, 1.0))))
            for h, a in zip(home.players[:size], away.players[:size], strict=False)
        ]
        chesscom = CHESSCOM_BASE + match.id
        end = match.start + dt.timedelta(days=6)
        payload = team_match(
            chesscom, f"M{match.id}", home, away, boards, "finished", match.start, {}, end
        )
        standin.serve(f"match/{chesscom}", payload)
        rows = [
            (
                n,
                b.home.username,
                b.away.username,
                int(2 * sum(b.home_scores)),
                int(4 - 2 * sum(b.home_scores)),
            )
            for n, b in enumerate(boards, start=1)
        ]
        clubs = (match.home_club_id, match.away_club_id)
        planned.append(Planned(match.id, match.season_id, clubs, chesscom, rows, end))
    return planned


def _serve(payloads: dict[str, bytes], connection: Any) -> None:
    """In the stand-in's own process: serve `payloads` on 127.0.0.1, send the base URL, and
    stop when the benchmark says so."""

    async def main() -> None:
        standin = ChessComStandIn()
        standin.payloads.update(payloads)
        connection.send(await standin.start())
        await asyncio.get_running_loop().run_in_executor(None, connection.recv)
        await standin.stop()

    asyncio.run(main())


@contextlib.contextmanager
def served_apart(standin: ChessComStandIn) -> Iterator[str]:
    """What `standin` was told to serve, served by a process of its own (a fresh
    interpreter, nothing of this one's state): its base URL for the block."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    process = context.Process(target=_serve, args=(standin.payloads, theirs), daemon=True)
    process.start()
    try:
        if not ours.poll(60):
            raise RuntimeError("the chess.com stand-in's process did not start")
        yield str(ours.recv())
    finally:
        with contextlib.suppress(OSError):
            ours.send("stop")
        process.join(10)
        if process.is_alive():
            process.kill()


@dataclass
class Trips:
    """Hand-offs to the database threads a side made: the service's as its `Database` counts
    them (`Database.trips`, every call into aiosqlite), the raw side's one per awaited call."""

    count: int = 0


async def chesscom_only(planned: list[Planned], base_url: str) -> float:
    """Seconds for the service's chess.com part alone: the 200 team matches fetched and
    parsed by the one client, concurrently."""
    settings = ClientSettings(contact="benchmarks/reports.py", base_url=base_url, max_retries=0)
    async with ChessComClient(settings) as client:
        began = time.perf_counter()
        await asyncio.gather(*(client.team_match(p.chesscom) for p in planned))
        return time.perf_counter() - began


async def through_service(
    path: Path | str,
    planned: list[Planned],
    base_url: str,
    statements: list[str] | None = None,
    trips: Trips | None = None,
) -> float:
    """Seconds for every import on its own task, through the service (the SQL statements
    run appended to `statements`, by the connection's trace callback; the trips the imports
    made added to `trips`). `path` may also be a PostgreSQL URL (benchmarks/postgres.py)."""
    database = await open_database(path, clock=lambda: NOW)
    store = GuildStore(database, GUILD)
    settings = ClientSettings(contact="benchmarks/reports.py", base_url=base_url, max_retries=0)
    if statements is not None:  # both connections: the reader's reads, the writer's changes
        async with database.read() as connection:
            await connection.set_trace_callback(statements.append)
        async with database.writer() as connection:
            await connection.set_trace_callback(statements.append)
    try:
        async with ChessComClient(settings) as client:
            before = database.trips
            began = time.perf_counter()
            await asyncio.gather(
                *(
                    import_chesscom_result(store, client, Actor.system(), p.match_id, p.chesscom)
                    for p in planned
                )
            )
            seconds = time.perf_counter() - began
            if trips is not None:
                trips.count += database.trips - before
            return seconds
    finally:
        await database.close()


async def raw(
    path: Path,
    planned: list[Planned],
    statements: list[str] | None = None,
    trips: Trips | None = None,
) -> float:
    """Seconds for the same rows as raw aiosqlite transactions, one per match, on concurrent
    tasks sharing one connection (a lock keeps the transactions apart): the season's version
    bump, the boards, the finish and chess.com link, both clubs' players fielded, the poll job
    cancelled, the announcement in the outbox and the audit row — what the service writes
    (its trips, one per awaited statement, added to `trips`)."""
    lock = asyncio.Lock()
    statements_per_import = 10  # BEGIN, the eight statements below, COMMIT: one trip each
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        if statements is not None:
            await connection.set_trace_callback(statements.append)
        # the pragmas storage.engine.database.Database sets (WAL, the default synchronous=FULL)
        await connection.execute("PRAGMA journal_mode = WAL")
        await connection.execute("PRAGMA foreign_keys = ON")

        async def write(p: Planned) -> None:
            now = NOW.isoformat(timespec="seconds")
            home, away = sum(r[3] for r in p.rows), sum(r[4] for r in p.rows)
            details = {
                "boards_replaced": [{"count": len(p.rows), "match": p.match_id}],
                "matches_finished": [{"match": p.match_id}],
                "matches_linked": [{"chesscom": p.chesscom, "match": p.match_id}],
                "at_start_recorded": [{"club": c, "match": p.match_id} for c in p.clubs],
            }
            async with lock:
                await connection.execute("BEGIN IMMEDIATE")
                await connection.execute(
                    "UPDATE seasons SET version = version + 1 WHERE guild_id = ? AND id = ?",
                    (GUILD, p.season_id),
                )
                await connection.execute(
                    "DELETE FROM boards WHERE guild_id = ? AND match_id = ?", (GUILD, p.match_id)
                )
                await connection.executemany(
                    "INSERT INTO boards (guild_id, match_id, board, home_player, away_player,"
                    " home_half, away_half, games_per_board) VALUES (?, ?, ?, ?, ?, ?, ?, 2)",
                    [(GUILD, p.match_id, *row) for row in p.rows],
                )
                await connection.execute(
                    "UPDATE matches SET finished_at = ?, chesscom_match_id = ?"
                    " WHERE guild_id = ? AND id = ?",
                    (p.finished.isoformat(), p.chesscom, GUILD, p.match_id),
                )
                await connection.executemany(
                    "INSERT INTO match_at_start (guild_id, match_id, club_id, players)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (match_id, club_id)"
                    " DO UPDATE SET players = excluded.players",
                    [(GUILD, p.match_id, club, len(p.rows)) for club in p.clubs],
                )
                await connection.execute(
                    "UPDATE scheduled_jobs SET status = 'cancelled', finished_at = ?"
                    " WHERE guild_id = ? AND kind = 'cl.poll' AND subject = ?"
                    " AND status = 'pending'",
                    (now, GUILD, f"match:{p.match_id}"),
                )
                await connection.execute(
                    "INSERT INTO outbox (guild_id, channel_id, content, embeds, created_at)"
                    " VALUES (?, ?, ?, '[]', ?)",
                    (GUILD, CHANNEL, f"Result: {home / 2:g}–{away / 2:g}", now),
                )
                await connection.execute(
                    "INSERT INTO audit (guild_id, actor_id, action, subject, details, at)"
                    " VALUES (?, NULL, 'match.import', ?, ?, ?)",
                    (GUILD, f"match:{p.match_id}", json.dumps(details, sort_keys=True), now),
                )
                await connection.execute("COMMIT")

        began = time.perf_counter()
        await asyncio.gather(*(write(p) for p in planned))
        seconds = time.perf_counter() - began
        if trips is not None:
            trips.count += statements_per_import * len(planned)
        return seconds


OTHER_ROWS = {
    "linked": "SELECT count(*) FROM matches WHERE chesscom_match_id IS NOT NULL",
    "fielded": "SELECT count(*) FROM match_at_start WHERE players IS NOT NULL",
    "polls cancelled": "SELECT count(*) FROM scheduled_jobs WHERE status = 'cancelled'",
    "outbox": "SELECT count(*) FROM outbox",
    "audit": "SELECT count(*) FROM audit WHERE action = 'match.import'",
    "season versions": "SELECT sum(version) FROM seasons",
}
"""The other rows an import writes, counted in both databases (they must agree)."""


async def counted(path: Path) -> tuple[int, int, int, dict[str, int]]:
    """(boards, distinct (match, board), finished matches, the `OTHER_ROWS` counts)."""
    async with aiosqlite.connect(path) as connection:
        cursor = await connection.execute(
            "SELECT count(*), count(DISTINCT match_id || '/' || board) FROM boards"
        )
        boards, distinct = await cursor.fetchone()  # type: ignore[misc]
        cursor = await connection.execute(
            "SELECT count(*) FROM matches WHERE finished_at IS NOT NULL"
        )
        (finished,) = await cursor.fetchone()  # type: ignore[misc]
        others = {}
        for name, sql in OTHER_ROWS.items():
            cursor = await connection.execute(sql)
            (value,) = await cursor.fetchone()  # type: ignore[misc]
            others[name] = int(value)
    return int(boards), int(distinct), int(finished), others


async def run(seed: int, count: int, folder: Path, keep: Path | None, rounds: int = 1) -> int:
    """`rounds` rounds on fresh copies of one built database, the service first in odd
    rounds and raw first in even ones (neither always runs on a warmer machine); every copy
    counted; the share judged is the median of the rounds'."""
    standin = ChessComStandIn()
    built = folder / "built.db"
    shares: list[float] = []
    ok = True
    planned = await build(built, seed, count, standin)
    with served_apart(standin) as base_url:
        fetch_seconds = await chesscom_only(planned, base_url)
        for number in range(1, rounds + 1):
            service_db, raw_db = folder / f"service-{number}.db", folder / f"raw-{number}.db"
            shutil.copy(built, service_db)
            shutil.copy(built, raw_db)
            service_sql: list[str] = []
            raw_sql: list[str] = []
            service_trips, raw_trips = Trips(), Trips()

            service = through_service(service_db, planned, base_url, service_sql, service_trips)
            raw_run = raw(raw_db, planned, raw_sql, raw_trips)
            if number % 2:
                service_seconds, raw_seconds = await service, await raw_run
            else:
                raw_seconds, service_seconds = await raw_run, await service
            print(f"round {number} ({'service' if number % 2 else 'raw'} first):")
            ok &= await _checked(service_db, raw_db, planned, count)
            service_rate, raw_rate = count / service_seconds, count / raw_seconds
            shares.append(service_rate / raw_rate)
            print(
                f"  service: {count} imports on concurrent tasks in {service_seconds:.3f} s"
                f" = {service_rate:.0f}/s; raw: {count} transactions in {raw_seconds:.3f} s"
                f" = {raw_rate:.0f}/s; service / raw: {shares[-1]:.0%}"
            )
            if number == 1:
                print(
                    f"  for scale: chess.com alone (the {count} matches fetched and parsed):"
                    f" {fetch_seconds:.3f} s; per import: trips to the database threads:"
                    f" service {service_trips.count / count:.1f}, raw"
                    f" {raw_trips.count / count:.1f}; SQL statements traced (each board row"
                    f" one): service {len(service_sql) / count:.1f},"
                    f" raw {len(raw_sql) / count:.1f}"
                )
                if keep is not None:
                    shutil.copy(service_db, keep)
                    print(f"  the service's database: {keep}")
    ordered = sorted(shares)
    median = statistics.median(ordered)
    print(
        f"service / raw over {rounds} round(s): median {median:.0%}"
        f" (min {ordered[0]:.0%}, max {ordered[-1]:.0%}; target >= 50%)"
    )
    return 0 if ok else 1


async def _checked(service_db: Path, raw_db: Path, planned: list[Planned], count: int) -> bool:
    """Every board stored exactly once and every match finished in both databases, and the
    other rows an import writes the same in both (printed)."""
    expected = sum(len(p.rows) for p in planned)
    ok = True
    rows_written = []
    for name, path in (("service", service_db), ("raw", raw_db)):
        boards, distinct, finished, others = await counted(path)
        rows_written.append(others)
        good = boards == distinct == expected and finished == count
        ok &= good
        print(
            f"  {name:8} boards {boards} (distinct {distinct}, expected {expected}),"
            f" finished matches {finished}/{count}: {'ok' if good else 'LOST OR DOUBLED'}"
        )
    same = rows_written[0] == rows_written[1]
    print(
        "  other rows (service = raw): "
        + ", ".join(f"{k} {v}" for k, v in rows_written[0].items())
        + ("" if same else f" BUT raw: {rows_written[1]}")
    )
    return ok and same


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--imports", type=int, default=200)
    parser.add_argument("--db", type=Path, help="keep the service's database here")
    parser.add_argument(
        "--rounds", type=int, default=7, help="rounds measured; the median share is judged"
    )
    args = parser.parse_args()
    if not 1 <= args.rounds <= 50:
        parser.error("--rounds takes a whole number from 1 to 50")
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(run(args.seed, args.imports, Path(folder), args.db, args.rounds))


if __name__ == "__main__":
    raise SystemExit(main())
