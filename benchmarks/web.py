"""Benchmark: the public web site under a fixed request rate, and its 304s at full speed.

The site is served over a demo's database on 127.0.0.1 by a process of its own, started as
`arbiter run` starts it (`bot.cli.web.start_site`; `--read-only`: the database opened as
`arbiter web --db` opens it); this process is the load generator, on raw keep-alive
HTTP/1.1 connections. Each page gets two runs:
- offered load: `--rate` requests a second for `--seconds` (default 200/s for 30 s), each
  timed from the moment it was due (a late send counts against the site): p50/p95/p99, errors
  (anything but 200) and the rate achieved. Target: p99 <= 20 ms and 0 errors.
- conditional: `--connections` connections send `If-None-Match` with the page's ETag as fast as
  they are answered for `--conditional-seconds`: the 304s a second and their p99. Target:
  >= 2,000 a second.

The pages are `--page PATH` (repeatable), else found from the guild's home page: a season page
and a division page (the league demo), or an event's page with its bracket (`--tour`), those the
site has. The site's `requests_per_minute` is set
to the most the configuration takes, since one address sends everything.

Run from the worktree root:
`python3 benchmarks/web.py [--db PATH] [--tour] [--page PATH]... [--rate N] [--seconds S]
[--connections C] [--conditional-seconds S] [--read-only] [--profile FILE]`
Without --db it plays `arbiter demo --clubs 4` (or `arbiter demo --tour`) into a temporary folder.
--profile: the server runs under cProfile, its statistics are written to FILE and summarised.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.cli.web import start_site
from bot.offline.demo.season_script import GUILD as LEAGUE_GUILD
from bot.offline.demo.tour_script import GUILD as TOUR_GUILD
from bot.offline.discord_messages import stable_id
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.web_sites import published_guilds

UNREACHABLE = 1_000_000
"""The site's requests_per_minute here, the most the configuration takes: the generator is one
address."""
PAGES = [
    ("season", r"/g/[^/]+/seasons/\d+"),
    ("division", r"/g/[^/]+/seasons/\d+/divisions/\d+"),
    ("event", r"/g/[^/]+/events/\d+"),
]
"""The pages measured when no --page is given: the first link of each kind found. An event's
page shows its bracket (`--tour`)."""


def prepared(args: argparse.Namespace, folder: Path) -> Path:
    """A copy of the database to serve, a guild published on it."""
    path = folder / "arbiter.db"
    if args.db is not None:
        shutil.copy(args.db, path)
    else:
        out = folder / "demo"
        kind = ["--tour"] if args.tour else ["--clubs", "4"]
        print(f"playing `arbiter demo {' '.join(kind)}` into {out} ...", flush=True)
        subprocess.run(
            [sys.executable, "-m", "bot", "demo", *kind, "--out", str(out)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        shutil.copy(out / "arbiter.db", path)
    asyncio.run(_publish(path, stable_id("guild", TOUR_GUILD if args.tour else LEAGUE_GUILD)))
    return path


async def _publish(path: Path, guild_id: int) -> None:
    database = await Database.open(path)
    try:
        await database.migrate()
        if not await published_guilds(database):
            async with GuildStore(database, guild_id).change(None, "setup.web", "bench") as uow:
                await uow.web_sites.publish("demo")
    finally:
        await database.close()


def _serve(path: str, read_only: bool, profile: str | None, pipe: Connection) -> None:
    """The server process: the site over `path`, started as `arbiter run` starts it (or, with
    `read_only`, over the database opened as `arbiter web --db` opens it), until told to stop."""
    import cProfile
    import pstats

    from bot.cli.web import open_site_database, start_site
    from bot.kernel.config import WebConfig

    profiler = cProfile.Profile() if profile else None

    async def run() -> None:
        if read_only:
            database = await open_site_database(Path(path))
        else:
            database = await Database.open(path)
        settings = WebConfig(host="127.0.0.1", port=0, requests_per_minute=UNREACHABLE)
        runner = await start_site(database, None, settings)
        pipe.send(runner.addresses[0][1])
        if profiler is not None:
            profiler.enable()
        await asyncio.get_running_loop().run_in_executor(None, _answer, pipe)
        if profiler is not None:
            profiler.disable()
        await runner.cleanup()
        await database.close()

    asyncio.run(run())
    if profiler is not None and profile is not None:
        profiler.dump_stats(profile)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
    pipe.send("stopped")


def _answer(pipe: Connection) -> None:
    """Tells the server's CPU time when asked, until told to stop."""
    while pipe.recv() == "cpu":
        pipe.send(time.process_time())


@dataclass
class Server:
    """The site's process: its port, and its CPU time on request."""

    port: int
    pipe: Connection

    def cpu(self) -> float:
        self.pipe.send("cpu")
        return float(self.pipe.recv())


@contextlib.contextmanager
def served(path: Path, read_only: bool, profile: str | None) -> Iterator[Server]:
    """The site over `path` in a process of its own, for the block."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    arguments = (str(path), read_only, profile, theirs)
    process = context.Process(target=_serve, args=arguments, daemon=True)
    process.start()
    try:
        if not ours.poll(60):
            raise RuntimeError("the site's process did not start")
        yield Server(int(ours.recv()), ours)
    finally:
        ours.send("stop")
        ours.poll(60)
        process.join(10)


class Client:
    """One keep-alive HTTP/1.1 connection to the site."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def get(self, path: str, etag: str | None = None) -> tuple[int, dict[str, str], bytes]:
        """GET `path`: the status, the headers (lower-case names) and the body."""
        condition = f"If-None-Match: {etag}\r\n" if etag else ""
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n{condition}\r\n".encode())
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = {}
        for line in head[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        if "chunked" in headers.get("transfer-encoding", ""):
            raise RuntimeError("a chunked reply: this client reads Content-Length only")
        body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return int(head[0].split()[1]), headers, body

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


@dataclass
class Tally:
    """What one run measured."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    slow: list[float] = field(default_factory=list)
    """When, in seconds from the start, each request over 20 ms was due."""
    statuses: dict[int, int] = field(default_factory=dict)
    failures: int = 0

    def count(self, status: int, seconds: float) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.latencies.append(seconds)

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[max(0, math.ceil(share * len(ordered)) - 1)] * 1000

    def line(self, wanted: int) -> str:
        done = len(self.latencies)
        errors = self.failures + done - self.statuses.get(wanted, 0)
        return (
            f"{done} answered in {self.seconds:.1f} s = {done / self.seconds:,.0f}/s; "
            f"p50 {self.percentile(0.5):.2f} ms, p95 {self.percentile(0.95):.2f} ms, "
            f"p99 {self.percentile(0.99):.2f} ms, max {max(self.latencies) * 1000:.1f} ms; "
            f"errors {errors} (statuses {dict(sorted(self.statuses.items()))})"
        )


async def offered(port: int, path: str, rate: float, seconds: float, connections: int) -> Tally:
    """`rate` GETs a second for `seconds`, each timed from when it was due."""
    clients = [await Client.open(port) for _ in range(connections)]
    due: asyncio.Queue[float | None] = asyncio.Queue()
    tally = Tally()

    async def work(client: Client) -> None:
        while (when := await due.get()) is not None:
            try:
                status, _, _ = await client.get(path)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                tally.failures += 1
                client = await Client.open(port)
                continue
            tally.count(status, time.perf_counter() - when)
            if time.perf_counter() - when > 0.020:
                tally.slow.append(when - start)

    start = time.perf_counter()
    workers = [asyncio.create_task(work(client)) for client in clients]
    for n in range(int(rate * seconds)):
        when = start + n / rate
        await asyncio.sleep(max(0.0, when - time.perf_counter()))
        due.put_nowait(when)
    for _ in workers:
        due.put_nowait(None)
    await asyncio.gather(*workers)
    tally.seconds = time.perf_counter() - start
    for client in clients:
        await client.close()
    return tally


async def conditional(port: int, path: str, etag: str, seconds: float, connections: int) -> Tally:
    """As many `If-None-Match` GETs as are answered in `seconds`, on `connections` at once."""
    clients = [await Client.open(port) for _ in range(connections)]
    tally = Tally()
    stop = time.perf_counter() + seconds

    async def work(client: Client) -> None:
        while (sent := time.perf_counter()) < stop:
            status, _, _ = await client.get(path, etag)
            tally.count(status, time.perf_counter() - sent)

    start = time.perf_counter()
    await asyncio.gather(*(work(client) for client in clients))
    tally.seconds = time.perf_counter() - start
    for client in clients:
        await client.close()
    return tally


async def found_pages(port: int) -> list[tuple[str, str]]:
    """The first page of each kind of `PAGES` among the links of the home pages and of those."""
    client = await Client.open(port)
    _, _, front = await client.get("/")
    homes = re.findall(r'href="(/g/[^/"]+/)"', front.decode())
    if not homes:
        raise SystemExit("the site shows no guild")
    seen: set[str] = set()
    links: list[str] = homes[:1]
    found: list[tuple[str, str]] = []
    while links and len(seen) < 20:
        page = links.pop(0)
        if page in seen:
            continue
        seen.add(page)
        status, headers, body = await client.get(page)
        if status == 200 and headers.get("content-type", "").startswith("text/html"):
            links += re.findall(r'href="(/g/[^"?#]+)"', body.decode(errors="replace"))
    await client.close()
    for kind, pattern in PAGES:
        matches = sorted({link for link in seen | set(links) if re.fullmatch(pattern, link)})
        if matches:
            found.append((kind, matches[0]))
        else:
            print(f"  no {kind} page on this site ({pattern})")
    return found


def cpu_line(server: Server, before: tuple[float, float], answered: int) -> str:
    """The CPU each request cost the site and the generator since `before`."""
    site, generator = server.cpu() - before[0], time.process_time() - before[1]
    return (
        f"  CPU a request: the site {site / answered * 1000:.3f} ms,"
        f" the generator {generator / answered * 1000:.3f} ms"
    )


async def measure(server: Server, args: argparse.Namespace) -> None:
    port = server.port
    pages = [("page", page) for page in args.page] or await found_pages(port)
    for kind, path in pages:
        client = await Client.open(port)
        status, headers, body = await client.get(path)
        await client.close()
        if status != 200:
            raise SystemExit(f"{path}: {status} {body[:200]!r}")
        print(f"\n{kind} {path} ({len(body):,} bytes, ETag {headers['etag']})")
        if args.rate > 0:
            before = (server.cpu(), time.process_time())
            tally = await offered(port, path, args.rate, args.seconds, args.connections)
            print(f"  {args.rate:g}/s offered for {args.seconds:g} s: {tally.line(200)}")
            print(cpu_line(server, before, len(tally.latencies)))
            seconds = sorted({int(when) for when in tally.slow})
            print(f"  {len(tally.slow)} over 20 ms, due in the seconds {seconds}")
            good = tally.percentile(0.99) <= 20 and tally.line(200).count("errors 0 ") == 1
            print(f"  target p99 <= 20 ms, 0 errors: {'met' if good else 'MISSED'}")
        if args.conditional_seconds > 0:
            before = (server.cpu(), time.process_time())
            tally = await conditional(
                port, path, headers["etag"], args.conditional_seconds, args.connections
            )
            rate = len(tally.latencies) / tally.seconds
            print(f"  If-None-Match on {args.connections} connections: {tally.line(304)}")
            print(cpu_line(server, before, len(tally.latencies)))
            print(f"  target >= 2,000 304s a second: {'met' if rate >= 2000 else 'MISSED'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="a database to serve (a copy is used)")
    parser.add_argument("--tour", action="store_true", help="play the tour demo, not the league")
    parser.add_argument("--page", action="append", default=[], help="a path to measure")
    parser.add_argument("--rate", type=float, default=200.0, help="requests a second offered")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the rate is offered")
    parser.add_argument("--connections", type=int, default=8, help="keep-alive connections")
    parser.add_argument("--conditional-seconds", type=float, default=10.0)
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="open the database as `arbiter web --db` does (else as `arbiter run` does)",
    )
    parser.add_argument("--profile", help="profile the server into this file")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 minutes)")
    with tempfile.TemporaryDirectory() as folder:
        path = prepared(args, Path(folder))
        print(f"site: requests_per_minute set to {UNREACHABLE:,} for the benchmark (one address)")
        opened = "as `arbiter web --db` does" if args.read_only else "as `arbiter run` does"
        print(f"the site is served by a process of its own ({start_site.__module__}.start_site),")
        print(f"its database opened {opened}; this process generates the load")
        with served(path, args.read_only, args.profile) as server:
            asyncio.run(measure(server, args))
    print(f"\nload after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 minutes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
