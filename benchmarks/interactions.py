"""Benchmark: the CPU one interaction costs inside the bot, per kind, cold and warm.

The real command tree runs in this process through the offline Discord
(`bot.offline.discord_stub`), on a database of a few guilds each holding the gateway
benchmark's 13-club season. For each kind of the gateway's mix (standings, match show,
autocomplete, result report) it times, in CPU seconds of the whole process (the database
thread included), the first interaction on a guild (cold: its season asked for the first
time) and the next ones (warm). With `--profile FOLDER` it writes one cProfile file per kind
and state, on CPU time, and prints the top functions.

Run from the worktree root: `python3 benchmarks/interactions.py [--guilds N] [--played R]
[--profile FOLDER]`. `--played` is how many rounds the season has played (0 to 12).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.gateway import CLUBS, SEASON, season_file
from bot.app.arbiter import ArbiterBot
from bot.formats.season_file import load_season
from bot.kernel.config import ChessComConfig, Config, DatabaseConfig
from bot.league.store import import_season
from bot.offline.chesscom_standin import ChessComStandIn
from bot.offline.discord_members import Member
from bot.offline.discord_stub import DiscordStub
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.report_season import chesscom_match

KINDS = ("standings", "match show", "autocomplete", "report")
FIRST_GUILD = 900_000_000_000_000_000


class Bench:
    """A bot on the offline Discord with `guilds` seeded guilds, and one interaction of each
    kind ready to send to any of them."""

    def __init__(self, bot: ArbiterBot, stub: DiscordStub) -> None:
        self.bot = bot
        self.stub = stub
        self.guilds: list[int] = []
        self.member: dict[int, Member] = {}
        self.arbiter: dict[int, Member] = {}
        self.matches: dict[int, list[int]] = {}
        self.report: dict[int, tuple[int, int]] = {}

    async def seed(self, guilds: int, played: int, chesscom: ChessComStandIn) -> None:
        """Each guild's settings, 13 clubs and the season with `played` rounds played; the
        first unplayed match served finished by chess.com."""
        season = load_season(season_file(1, played))
        for n in range(guilds):
            guild_id = FIRST_GUILD + n
            self.stub.add_guild(guild_id, roles=("HQ", "Arbiters"))
            async with GuildStore(self.bot.database, guild_id).change(None, "bench", "l") as uow:
                await uow.settings.update(
                    hq_role_id=self.stub.role("HQ", guild_id),
                    arbiter_role_id=self.stub.role("Arbiters", guild_id),
                    announcements_channel_id=self.stub.channel("announcements", guild_id),
                )
                for c in range(CLUBS):
                    await uow.clubs.register(f"Club {c:02d}", f"g{n}-club-{c}", status="approved")
                record = await import_season(uow, season)
                matches = await uow.matches.of_season(record.id)
            self.guilds.append(guild_id)
            self.member[guild_id] = self.stub.member(guild_id=guild_id, name=f"m{n}")
            self.arbiter[guild_id] = self.stub.member("Arbiters", guild_id=guild_id)
            self.matches[guild_id] = [m.id for m in matches]
            unplayed = next(m for m in matches if m.finished_at is None)
            fixture = next(f for f in season.matches if f.id == unplayed.key)
            number = 9_000_000 + n
            self.report[guild_id] = (unplayed.id, number)
            home = f"g{n}-club-{int(fixture.home.split()[1])}"
            away = f"g{n}-club-{int(fixture.away.split()[1])}"
            chesscom.serve_bytes(f"match/{number}", chesscom_match(number, home, away))

    def payload(self, kind: str, guild_id: int) -> dict[str, Any]:
        """The raw interaction of `kind` in `guild_id`."""
        stub, member = self.stub, self.member[guild_id]
        if kind == "standings":
            return stub.command_payload("standings", member, {"season": SEASON})
        if kind == "match show":
            return stub.command_payload("match show", member, {"match": self.matches[guild_id][0]})
        if kind == "autocomplete":
            return stub.command_payload(
                "match show", member, {"match": "3"}, kind=4, focused="match"
            )
        match, number = self.report[guild_id]
        options = {"match": match, "chesscom_match": str(number)}
        return stub.command_payload("match report", self.arbiter[guild_id], options)

    async def send(self, kind: str, guild_id: int) -> float:
        """Send one interaction and return the process's CPU seconds it took."""
        payload = self.payload(kind, guild_id)
        began = time.process_time()
        outcome = await self.stub.run(payload)
        spent = time.process_time() - began
        if outcome.errors or not outcome.replies:
            raise RuntimeError(f"{kind} in {guild_id}: {outcome.errors or 'no reply'}")
        return spent


def config(path: Path, base_url: str) -> Config:
    """The bot's config on the database `path`, chess.com at `base_url`."""
    return Config(
        database=DatabaseConfig(path=path),
        chesscom=ChessComConfig(base_url=base_url, contact="bench", max_retries=0),
    )


async def with_bench(
    guilds: int, played: int, work: Callable[[Bench], Awaitable[dict[str, Any]]]
) -> dict[str, Any]:
    """Run `work` on a fresh bench of `guilds` guilds with `played` rounds played."""
    chesscom = ChessComStandIn()
    await chesscom.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "arbiter.db"
            database = await Database.open(path)
            bot = ArbiterBot(config(path, chesscom.base_url), database=database, run_jobs=False)
            stub = DiscordStub(bot)
            async with bot:
                await bot.setup_hook()
                bench = Bench(bot, stub)
                await bench.seed(guilds, played, chesscom)
                return await work(bench)
    finally:
        await chesscom.stop()


def summary(profile: cProfile.Profile, top: int) -> str:
    """The `top` functions of `profile` by cumulative CPU time."""
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


async def per_kind(
    bench: Bench, repeat: int, profile: Path | None, top: int
) -> dict[str, dict[str, float]]:
    """Per kind: the CPU ms of the cold first interaction (median over guilds of its own)
    and of the warm ones. Each kind gets `len(guilds) // 4` guilds to itself for its cold
    runs, so a cold run is the first time that guild's season is asked."""
    share = len(bench.guilds) // len(KINDS)
    figures: dict[str, dict[str, float]] = {}
    for k, kind in enumerate(KINDS):
        guilds = bench.guilds[k * share : (k + 1) * share]
        cold_profile = cProfile.Profile(time.thread_time) if profile else None
        cold = []
        for guild_id in guilds:
            if cold_profile:
                cold_profile.enable()
            cold.append(await bench.send(kind, guild_id))
            if cold_profile:
                cold_profile.disable()
        warm_profile = cProfile.Profile(time.thread_time) if profile else None
        warm = []
        for _ in range(repeat):
            for guild_id in guilds:
                if warm_profile:
                    warm_profile.enable()
                warm.append(await bench.send(kind, guild_id))
                if warm_profile:
                    warm_profile.disable()
        figures[kind] = {
            "cold_ms": round(statistics.median(cold) * 1000, 2),
            "warm_ms": round(statistics.median(warm) * 1000, 2),
            "warm_mean_ms": round(statistics.fmean(warm) * 1000, 2),
        }
        if profile and cold_profile and warm_profile:
            profile.mkdir(parents=True, exist_ok=True)
            slug = kind.replace(" ", "-")
            for state, prof in (("cold", cold_profile), ("warm", warm_profile)):
                prof.dump_stats(profile / f"{slug}-{state}.prof")
                print(f"== {kind}, {state} ==\n{summary(prof, top)}")
    return figures


def main() -> int:
    """Parse the options, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guilds", type=int, default=40, help="guilds (a quarter per kind)")
    parser.add_argument("--played", type=int, default=4, help="rounds played (0 to 12)")
    parser.add_argument("--repeat", type=int, default=5, help="warm runs per guild and kind")
    parser.add_argument("--profile", help="folder for one cProfile file per kind and state")
    parser.add_argument("--top", type=int, default=25, help="functions shown per profile")
    args = parser.parse_args()
    profile = Path(args.profile) if args.profile else None

    async def work(bench: Bench) -> dict[str, Any]:
        return await per_kind(bench, args.repeat, profile, args.top)

    figures = asyncio.run(with_bench(args.guilds, args.played, work))
    print(f"{args.guilds} guilds, round {args.played + 1}: CPU ms per interaction")
    for kind, f in figures.items():
        print(f"  {kind:13} cold {f['cold_ms']:6.2f}  warm {f['warm_ms']:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
