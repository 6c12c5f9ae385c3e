"""Benchmark: the tour's Discord surface through the real tree (the offline Discord stub
delivers raw interaction payloads to `bot.app.tree`) on one guild holding a 16-player
Regular (preliminary played, knock-out under way), a 12-player Major and a Finals (drawn,
open): `/event standings` as an embed, `/event bracket`, the `/game report` game
autocomplete, and a player's `/game report` plus the opponent's Confirm click (each run a
new game: the Major's preliminary games, then the Finals' games).

Run from the worktree root: `python3 benchmarks/tour_surface.py [--runs N]`. Reports p50
and p99 in ms over N runs (default 200) after a warm-up; targets p99 <= 15 ms (standings
embed), <= 150 ms (bracket image), <= 10 ms (autocomplete), <= 20 ms (report + confirm).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import Config, DatabaseConfig
from bot.offline.discord_members import Member
from bot.offline.discord_stub import DiscordStub
from bot.tour.events import service as events
from bot.tour.game_targets import GameTarget, open_targets
from bot.tour.games import service as games
from bot.tour.series.service import choose_colour
from bot.tour.store import load_event
from core.results import Result
from core.tour.ranking import EventType
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.tour_world import (
    ARBITER,
    ORGANISER,
    by_order,
    player_names,
    preliminary_played,
    tour_with_event,
)

GUILD = 800_000_000_000_000_001
FIRST_USER = 1000
TARGETS = {
    "standings embed": 15.0,
    "bracket": 150.0,
    "game autocomplete": 10.0,
    "report + confirm": 20.0,
}
NAMES = player_names(16)


async def populate(path: Path) -> None:
    """The tour: Regular (16, every preliminary game in, knock-out started, QF1's first two
    games played), Major (12, drawn, nothing played); and a Finals (10, drawn, nothing
    played) in a tour of its own (CCT-8f: Finals are drawn once the events before them are
    over); the first 16 players linked to members FIRST_USER + n."""
    database = await Database.open(path)
    try:
        await database.migrate()
        store = GuildStore(database, GUILD)
        async with store.change(None, "bench.setup", "guild") as uow:
            await uow.settings.update(hq_role_id=11, arbiter_role_id=12)
        await tour_with_event(store, tour="Bench", event="Regular", first_user=FIRST_USER)
        await preliminary_played(store, "Regular", by_order(NAMES))
        await events.start_knockout(store, ORGANISER, "Regular", confirm=True)
        await choose_colour(store, ARBITER, "Regular", "QF1", "white")
        for game in ("QF1 day 1 game 1", "QF1 day 1 game 2"):
            await games.report_game(store, ARBITER, "Regular", game, Result.DRAW)
        await tour_with_event(
            store, tour="Bench", event="Major", kind=EventType.MAJOR, players=NAMES[:12]
        )
        await tour_with_event(
            store, tour="Bench Finals", event="Finals", kind=EventType.FINALS, players=NAMES[:10]
        )
    finally:
        await database.close()


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


Timing = tuple[list[float], list[float]]
"""Milliseconds per run: wall clock, and the process's CPU time (its share of a loaded
machine does not stretch it: the figures of a busy CI box stay comparable)."""


async def timed(run: Callable[[], Awaitable[Any]], runs: int, warm: bool = True) -> Timing:
    """The wall and CPU milliseconds of each of `runs` calls, after one warm-up call."""
    if warm:
        await run()
    wall, cpu = [], []
    for _ in range(runs):
        began, spent = time.perf_counter(), time.process_time()
        await run()
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - spent) * 1000)
    return wall, cpu


async def measure(path: Path, runs: int) -> int:
    """Drive the commands through the tree on the database at `path`; print the figures."""
    bot = ArbiterBot(Config(database=DatabaseConfig(path=path)), run_jobs=False)
    async with bot:
        await bot.setup_hook()
        stub = DiscordStub(bot)
        stub.add_guild(GUILD)
        players = {
            name: stub.member(guild_id=GUILD, user_id=FIRST_USER + i, name=name.lower())
            for i, name in enumerate(NAMES)
        }
        reader = stub.member(guild_id=GUILD, user_id=9, name="reader")

        async def run(path: str, user: Member, options: dict[str, Any], **kw: Any) -> Any:
            outcome = await stub.run(stub.command_payload(path, user, options, **kw))
            if outcome.errors or not outcome.replies or outcome.unanswered:
                raise RuntimeError(f"/{path} failed: {outcome.replies} {outcome.errors}")
            return outcome

        async def standings() -> None:
            await run("event standings", reader, {"event": "Regular"})

        async def bracket() -> None:
            await run("event bracket", reader, {"event": "Regular"})

        async def autocomplete() -> None:
            outcome = await run(
                "game report",
                players["P01"],
                {"event": "Major", "game": ""},
                kind=4,
                focused="game",
            )
            if not outcome.reply.choices:
                raise RuntimeError("no game offered")

        async def next_game() -> tuple[str, GameTarget]:
            store = bot.guild_store(GUILD)
            for event in ("Major", "Finals"):
                async with store.read() as view:
                    loaded = await load_event(view, (await view.tour_events.by_name(event))[0])
                found = [
                    t for t in open_targets(loaded) if t.row is None or t.row.report.result is None
                ]
                if found:
                    return event, found[0]
            raise RuntimeError("no open game left")

        async def report_and_confirm(event: str, target: GameTarget) -> None:
            reported = await run(
                "game report",
                players[target.white],
                {"event": event, "game": target.name, "result": "½-½"},
            )
            reply = reported.reply
            button = next(
                c for row in reply.components for c in row["components"] if c["label"] == "Confirm"
            )
            payload = stub.click_payload(
                button["custom_id"],
                players[target.black],
                reply.message_id or 0,
                message=reply.data,
            )
            clicked = await stub.run(payload)
            if "confirmed" not in (clicked.reply.content or ""):
                raise RuntimeError(f"not confirmed: {clicked.replies}")

        cases: dict[str, tuple[Callable[[], Awaitable[None]], bool]] = {
            "standings embed": (standings, True),
            "bracket": (bracket, True),
            "game autocomplete": (autocomplete, True),
        }
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"tour surface: {runs} runs each through the real tree (ms), load {load:.1f}")
        missed = 0
        for name, (work, warm) in cases.items():
            missed += _report(name, await timed(work, runs, warm))
        # Report + confirm, each run a new game: only the two interactions are timed
        # (finding the next open game is the benchmark's own read).
        wall, cpu = [], []
        for _ in range(runs + 1):
            event, target = await next_game()
            began, spent = time.perf_counter(), time.process_time()
            await report_and_confirm(event, target)
            wall.append((time.perf_counter() - began) * 1000)
            cpu.append((time.process_time() - spent) * 1000)
        missed += _report("report + confirm", (wall[1:], cpu[1:]))  # the first warms up
    return 1 if missed else 0


def _report(name: str, timing: Timing) -> int:
    """Print one case's wall and CPU percentiles; 1 when the wall p99 misses its target."""
    wall, cpu = timing
    p50, p99 = percentile(wall, 0.5), percentile(wall, 0.99)
    target = TARGETS[name]
    verdict = " ok" if p99 <= target else f" MISSED {target}"
    print(
        f"  {name:21} p50 {p50:7.2f}  p99 {p99:7.2f}{verdict:14}"
        f" cpu p50 {percentile(cpu, 0.5):6.2f}  p99 {percentile(cpu, 0.99):6.2f}"
    )
    return int(p99 > target)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tour.db"
        asyncio.run(populate(path))
        return asyncio.run(measure(path, args.runs))


if __name__ == "__main__":
    raise SystemExit(main())
