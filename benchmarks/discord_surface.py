"""Benchmark: the Discord command surface through the real tree (the offline Discord stub
delivers raw interaction payloads to `bot.app.tree`): `/standings` as an embed and as an image,
`/match show`, a club autocomplete and the `/vote cast` motion autocomplete, on a generated
3 x 13-club season with results and 300 director motions.

Run from the worktree root: `python3 benchmarks/discord_surface.py [--runs N]`, or on an
existing database (e.g. the demo's): `--db PATH --guild ID [--season NAME]`. Reports p50 and
p99 in ms over N runs (default 200) after a warm-up; targets p99 <= 15 ms (embed), <= 150 ms
(image), <= 10 ms (autocompletes). A command not in the tree yet is reported as such.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app.arbiter import ArbiterBot
from bot.formats.season_file import load_season
from bot.kernel.config import Config, DatabaseConfig
from bot.league.store import import_season
from bot.offline.discord_stub import DiscordStub
from core.league.schedule import division_schedule
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.motions import NewMotion

GUILD = 800_000_000_000_000_001
DIVISIONS, CLUBS, BOARDS = 3, 13, 12
MOTIONS = 300
TARGETS = {
    "standings embed": 15.0,
    "standings image": 150.0,
    "club autocomplete": 10.0,
    "motion autocomplete": 10.0,
}


def iso(instant: dt.datetime) -> str:
    """ISO 8601 in UTC with a Z."""
    return instant.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def generated(seed: int) -> dict[str, Any]:
    """A season file: 3 divisions of 13 clubs (Berger pairings), 12 boards a match, every
    round but the last two played."""
    rnd = random.Random(seed)
    calendar = [dt.date(2017, 9, 3) + dt.timedelta(weeks=w) for w in range(CLUBS)]
    divisions, matches = [], []
    for d in range(DIVISIONS):
        name = f"Division {d + 1}"
        clubs = [f"Club {d + 1}-{c:02d}" for c in range(CLUBS)]
        divisions.append({"name": name, "min_players": BOARDS, "clubs": clubs})
        for fixture in division_schedule(name, clubs, calendar, id_prefix=f"D{d}").fixtures:
            played = fixture.round <= CLUBS - 2
            entry: dict[str, Any] = {
                "id": fixture.id,
                "division": name,
                "round": fixture.round,
                "home": fixture.home,
                "away": fixture.away,
                "start": iso(fixture.start),
                "challenge": {
                    "issued_by": fixture.home,
                    "issued": iso(fixture.start - dt.timedelta(days=8)),
                    "accepted": iso(fixture.start - dt.timedelta(days=7)),
                },
                "boards": [],
            }
            if played:
                entry["finished"] = iso(fixture.start + dt.timedelta(days=30))
                for b in range(BOARDS):
                    points = rnd.choice((0, 0.5, 1, 1, 1.5, 2))
                    entry["boards"].append(
                        {
                            "home_player": f"h{d}{clubs.index(fixture.home)}p{b}",
                            "away_player": f"a{d}{clubs.index(fixture.away)}p{b}",
                            "home_points": points,
                            "away_points": 2 - points,
                        }
                    )
            matches.append(entry)
    return {"name": "Benchmark season", "divisions": divisions, "matches": matches}


async def populate(path: Path, seed: int) -> None:
    """A new database at `path` with the generated season imported into `GUILD`."""
    database = await Database.open(path)
    try:
        await database.migrate()
        async with GuildStore(database, GUILD).change(None, "season.import", "bench") as uow:
            await import_season(uow, load_season(generated(seed)))
            for n in range(MOTIONS):  # every third one open, three directors' votes each
                motion = await uow.motions.open(
                    NewMotion("other", f"motion {n}", (1, 2, 3), uow.now, 2, 1)
                )
                for director in (1, 2, 3):
                    await uow.motions.vote(motion, director, (n + director) % 2 == 0)
                if n % 3:
                    await uow.motions.close(motion, "rejected", "bench")
    finally:
        await database.close()


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def timed(run: Callable[[], Awaitable[Any]], runs: int) -> list[float]:
    """Milliseconds of each of `runs` calls, after one warm-up call."""
    await run()
    out = []
    for _ in range(runs):
        began = time.perf_counter()
        await run()
        out.append((time.perf_counter() - began) * 1000)
    return out


async def measure(where: Path | DatabaseConfig, guild: int, season: str | None, runs: int) -> int:
    """Drive the commands through the tree on the database `where` (a SQLite file, or any
    `[database]` section: benchmarks/postgres.py passes a PostgreSQL one); print the figures."""
    section = where if isinstance(where, DatabaseConfig) else DatabaseConfig(path=where)
    bot = ArbiterBot(Config(database=section), run_jobs=False)
    async with bot:
        await bot.setup_hook()
        stub = DiscordStub(bot)
        stub.add_guild(guild)
        user = stub.member(guild_id=guild)
        store = bot.guild_store(guild)
        async with store.read() as view:
            seasons = await view.seasons.all()
            record = next((s for s in seasons if s.name == season), None) if season else None
            record = record or (seasons[-1] if seasons else None)
            if record is None:
                print(f"no season in guild {guild}", file=sys.stderr)
                return 2
            division = (await view.seasons.divisions(record.id))[0].name
            match = (await view.matches.of_season(record.id))[0].id
            club = (await view.clubs.all())[0].name
            motions = await view.motions.recent("open", 1)

        def command(path: str, options: dict[str, Any], *, kind: int = 2, focused: str = ""):
            async def run() -> None:
                payload = stub.command_payload(path, user, options, kind=kind, focused=focused)
                outcome = await stub.run(payload)
                if outcome.errors or not outcome.replies or outcome.unanswered:
                    raise RuntimeError(f"/{path} failed: {outcome}")
                if options.get("format") == "image" and not any(
                    name.endswith(".png") for reply in outcome.replies for name in reply.files
                ):
                    raise RuntimeError(f"/{path} format:image sent no PNG: {outcome.replies}")
                if kind == 4 and not outcome.reply.choices:
                    raise RuntimeError(f"/{path} offered no choices")

            return run

        standing = {"season": record.name, "division": division}
        cases = {
            "standings embed": ("standings", standing | {"format": "embed"}, 2, ""),
            "standings image": ("standings", standing | {"format": "image"}, 2, ""),
            "match show": ("match show", {"match": match}, 2, ""),
            "club autocomplete": ("club info", {"club": club[:4]}, 4, "club"),
        }
        if motions:
            cases["motion autocomplete"] = ("vote cast", {"motion": motions[0].id}, 4, "motion")
        print(f"{record.name}: {runs} runs each through the real tree (ms)")
        missed = 0
        for name, (path, options, kind, focused) in cases.items():
            try:
                stub.find_command(path)
            except LookupError:
                print(f"  {name:19} /{path} is not in the tree")
                continue
            values = await timed(command(path, options, kind=kind, focused=focused), runs)
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            target = TARGETS.get(name)
            verdict = "" if target is None else (" ok" if p99 <= target else f" MISSED {target}")
            missed += target is not None and p99 > target
            print(f"  {name:19} p50 {p50:7.2f}  p99 {p99:7.2f}{verdict}")
    return 1 if missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--db", type=Path, help="an existing database (default: generate one)")
    parser.add_argument("--guild", type=int, default=GUILD, help="the guild id in --db")
    parser.add_argument("--season", help="the season's name (default: the latest)")
    args = parser.parse_args()
    if args.db is not None:
        return asyncio.run(measure(args.db, args.guild, args.season, args.runs))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "surface.db"
        asyncio.run(populate(path, args.seed))
        return asyncio.run(measure(path, GUILD, None, args.runs))


if __name__ == "__main__":
    raise SystemExit(main())
