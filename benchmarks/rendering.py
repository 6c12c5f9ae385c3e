"""Benchmark: rendering a 13-club division (the generated season of the rendering tests)
as the standings PNG, the crosstable PNG, the embed text pages and the CSV.

Run from the worktree root: `python3 benchmarks/rendering.py [--repeat N]`. Reports p50 and
p99 over N renders (default 100) each; the target for the whole `/standings format:image`
command is p99 ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rendering.league.crosstable_image import crosstable_png  # noqa: E402
from bot.rendering.league.division_view import division_view  # noqa: E402
from bot.rendering.league.standings_csv import standings_csv  # noqa: E402
from bot.rendering.league.standings_image import standings_png  # noqa: E402
from bot.rendering.league.standings_table import standings_pages  # noqa: E402
from tests.support.rendering_season import generated_report  # noqa: E402


def timings(render: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of each of `repeat` calls (after one warm-up call)."""
    render()
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        render()
        out.append((time.perf_counter() - start) * 1000)
    return out


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()
    report = generated_report()
    view = division_view(report, "P")
    cases: dict[str, Callable[[], object]] = {
        "view from report": lambda: division_view(report, "P"),
        "standings PNG": lambda: standings_png(view),
        "crosstable PNG": lambda: crosstable_png(view),
        "embed pages": lambda: standings_pages([view]),
        "CSV": lambda: standings_csv(view),
    }
    print(f"13-club division, {args.repeat} renders each (ms)")
    for name, render in cases.items():
        ms = timings(render, args.repeat)
        print(
            f"{name:18} p50 {statistics.median(ms):7.2f}  p99 {percentile(ms, 0.99):7.2f}"
            f"  max {max(ms):7.2f}"
        )
    print(f"standings PNG {len(standings_png(view))} bytes, crosstable {len(crosstable_png(view))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
