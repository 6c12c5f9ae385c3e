"""Benchmark: the tour's pure renders (issue 22) from core/tour values — a 16-player Regular's
preliminary (standings embed, PNG, crosstable, CSV), the 12-player Airthings Masters'
knock-out bracket with blitz and Armageddon series (in progress and nearly finished), the
10-player Finals and the tour standings (embed, PNG, CSV), the qualification list and the
prizes. No storage and no Discord: `benchmarks/tour_surface.py` measures the commands.

Run from the worktree root: `python3 benchmarks/tour_render.py [--repeat N]`. Reports p50,
p99 and max over N renders (default 200) each, after one warm-up. Targets: bracket image
p99 ≤ 150 ms, standings embed p99 ≤ 15 ms, wall clock (exit 1 when a target is missed);
the CPU columns say what a render costs when other processes share the machine."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.rendering.tour.bracket import bracket_view  # noqa: E402
from bot.rendering.tour.bracket_image import bracket_png  # noqa: E402
from bot.rendering.tour.crosstable_image import preliminary_crosstable_png  # noqa: E402
from bot.rendering.tour.prizes_embeds import (  # noqa: E402
    AmbassadorPool,
    EventPrizes,
    prizes_embeds,
)
from bot.rendering.tour.qualification_embeds import qualification_embeds  # noqa: E402
from bot.rendering.tour.standings_csv import (  # noqa: E402
    finals_csv,
    preliminary_csv,
    tour_standings_csv,
)
from bot.rendering.tour.standings_embeds import (  # noqa: E402
    finals_embeds,
    preliminary_embeds,
    tour_standings_embeds,
)
from bot.rendering.tour.standings_image import (  # noqa: E402
    finals_png,
    preliminary_png,
    tour_standings_png,
)
from bot.rendering.tour.views import (  # noqa: E402
    finals_view,
    preliminary_view,
    tour_standings_view,
)
from core.standings import standings  # noqa: E402
from core.tour.prizes import REGULAR_PRIZES, ambassador_shares, distribute_prizes  # noqa: E402
from tests.support.tour_events import (  # noqa: E402
    major_bracket,
    regular_preliminary,
    tour_file_report,
)

TARGETS = {"bracket PNG (in progress)": 150.0, "standings embed (view + embed)": 15.0}
"""Issue 22: p99 targets in milliseconds."""


def timings(render: Callable[[], object], repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each of `repeat` calls (after one warm-up call):
    on a loaded machine the CPU time is what the render itself costs."""
    render()
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        render()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def cases() -> dict[str, Callable[[], object]]:
    """Every render, each from values built once (as a service hands them over)."""
    regular = regular_preliminary()
    view = preliminary_view(regular.name, regular.rows, regular.games)
    bracket, statuses = major_bracket()
    in_progress = bracket_view("Airthings Masters", bracket, statuses=statuses)
    _, finished = major_bracket(finished=True)
    report = tour_file_report()
    assert report.finals is not None
    finals = finals_view("Finals", report.finals)
    tour = tour_standings_view(report.name, report.ranking, qualification=report.qualification)
    event = report.events[0].event
    prizes = [
        EventPrizes(event.name, REGULAR_PRIZES, distribute_prizes(REGULAR_PRIZES, event.finishes()))
    ]
    pool = AmbassadorPool(200_000, ambassador_shares(200_000, ["A", "B", "C"]))
    return {
        "core standings (16 players)": lambda: standings(regular.players, regular.games),
        "standings embed (view + embed)": lambda: preliminary_embeds(
            preliminary_view(regular.name, regular.rows, regular.games)
        ),
        "standings embed": lambda: preliminary_embeds(view),
        "standings PNG": lambda: preliminary_png(view),
        "crosstable PNG": lambda: preliminary_crosstable_png(view),
        "standings CSV": lambda: preliminary_csv(view),
        "bracket view": lambda: bracket_view("Airthings Masters", bracket, statuses=statuses),
        "bracket PNG (in progress)": lambda: bracket_png(in_progress),
        "bracket PNG (view + image, finished)": lambda: bracket_png(
            bracket_view("Airthings Masters", bracket, statuses=finished)
        ),
        "finals embed": lambda: finals_embeds(finals),
        "finals PNG": lambda: finals_png(finals),
        "finals CSV": lambda: finals_csv(finals),
        "tour standings embed": lambda: tour_standings_embeds(tour),
        "tour standings PNG": lambda: tour_standings_png(tour),
        "tour standings CSV": lambda: tour_standings_csv(tour),
        "qualification embed": lambda: qualification_embeds("Finals", report.qualification),
        "prizes embed": lambda: prizes_embeds(report.name, prizes, pool),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    loads = " ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        f"tour renders, {args.repeat} runs each (ms); load average {loads}, {os.cpu_count()} CPUs"
    )
    missed = []
    for name, render in cases().items():
        ms, cpu = timings(render, args.repeat)
        p99 = percentile(ms, 0.99)
        target = TARGETS.get(name)
        verdict = (
            "" if target is None else f"  target {target:g}: {'ok' if p99 <= target else 'MISSED'}"
        )
        if target is not None and p99 > target:
            missed.append(name)
        print(
            f"{name:38} p50 {statistics.median(ms):7.2f}  p99 {p99:7.2f}  max {max(ms):7.2f}"
            f"  cpu p50 {statistics.median(cpu):6.2f} p99 {percentile(cpu, 0.99):6.2f}" + verdict
        )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
