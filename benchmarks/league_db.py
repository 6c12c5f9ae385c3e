"""Benchmark: the 1,900-match / 190k-game season of league_scale.py through the database:
import (one unit of work), standings cold (load from SQLite + compute) and warm (cached),
next to `arbiter league`'s work on the same file (parse + validate + compute) in the same run.

Run from the worktree root: `python3 benchmarks/league_db.py [--seed S]`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from league_scale import generate

from bot.formats.season_file import load_season
from bot.league.store import StandingsCache, import_season
from core.league import league_report
from storage.engine.database import Database
from storage.guild import GuildStore

AS_OF = dt.date(2018, 6, 1)


async def measure(text: str, folder: Path) -> dict[str, float]:
    """Seconds for import, cold standings and warm standings."""
    season = load_season(text)
    database = await Database.open(folder / "bench.db")
    try:
        await database.migrate()
        store = GuildStore(database, 1)
        began = time.perf_counter()
        async with store.change(None, "season.import", "bench", {"actor": "cli"}) as uow:
            record = await import_season(uow, season)
        imported = time.perf_counter() - began
        cache = StandingsCache()
        began = time.perf_counter()
        await cache.report(store, record, as_of=AS_OF)
        cold = time.perf_counter() - began
        began = time.perf_counter()
        for _ in range(100):
            await cache.report(store, record, as_of=AS_OF)
        warm = (time.perf_counter() - began) / 100
        assert cache.computed == 1
        return {"import": imported, "cold": cold, "warm": warm}
    finally:
        await database.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    text = json.dumps(generate(args.seed))
    began = time.perf_counter()
    league_report(load_season(text), as_of=AS_OF)
    league = time.perf_counter() - began
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(text, Path(folder)))
    print(f"arbiter league (parse + validate + compute): {league:.3f} s")
    print(f"import into the database:                    {figures['import']:.3f} s  (target < 5 s)")
    print(
        f"standings cold (load + compute):             {figures['cold']:.3f} s"
        f"  (target < 1.5 s, {figures['cold'] / league:.2f}x arbiter league, target <= 3x)"
    )
    warm_ms = figures["warm"] * 1000
    print(f"standings warm (cached):                     {warm_ms:.3f} ms (target < 5 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
