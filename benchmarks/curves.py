"""Benchmark: the scaling curves of issue 34, drawn as PNGs.

Three curves, each a PNG and the figures in `curves.json` beside them:

- `guilds.png`: p50 and p99 latency and the bot's CPU per interaction against the guilds of
  one shard (100 to 2,500), from `benchmarks/gateway.py` in closed loop (one interaction at a
  time, the gateway's mix, the real `arbiter run` against the Discord double).
- `rounds.png`: the same against the season's length (round 1 to 13), in process
  (`benchmarks/interactions.py`): each kind of the mix on guilds whose season is in that
  round, the first time the season is asked (cold) and after (warm).
- `demo.png`: `arbiter demo`'s wall and CPU seconds against its clubs (4 to 13 per division,
  12 to 39 clubs).

Run from the worktree root: `python3 benchmarks/curves.py` (about 15 minutes on two cores;
it writes docs/performance/). `--quick` runs two points of each curve at a small size into a
temporary folder, a smoke check of a minute or so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import gateway
from benchmarks.interactions import KINDS, Bench, with_bench

ROOT = Path(__file__).resolve().parents[1]
FONT = ROOT / "bot" / "rendering" / "common" / "fonts" / "DejaVuSans.ttf"
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
FULL = {"guilds": (100, 500, 1000, 2500), "rounds": tuple(range(1, 14)), "clubs": (4, 7, 10, 13)}
QUICK = {"guilds": (10, 20), "rounds": (1, 13), "clubs": (4,)}


def chart(
    path: Path,
    title: str,
    x_label: str,
    xs: Sequence[float],
    left: dict[str, Sequence[float]],
    left_label: str,
    right: dict[str, Sequence[float]] | None = None,
    right_label: str = "",
) -> None:
    """A line chart of `left` (and `right`, on its own axis at the right) against `xs`."""
    width, height, margin = 900, 520, 80
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 14)
    big = ImageFont.truetype(str(FONT), 18)
    box = (margin, 60, width - margin, height - 70)
    draw.rectangle(box, outline="black")
    draw.text((margin, 8), title, fill="black", font=big)
    draw.text(((box[0] + box[2]) // 2 - 60, height - 35), x_label, fill="black", font=font)
    low, high = min(xs), max(xs)
    span = (high - low) or 1

    def x_at(x: float) -> float:
        return box[0] + (x - low) / span * (box[2] - box[0])

    for x in xs:
        draw.line((x_at(x), box[3], x_at(x), box[3] + 5), fill="black")
        draw.text((x_at(x) - 10, box[3] + 8), f"{x:g}", fill="black", font=font)
    sides: list[tuple[dict[str, Sequence[float]], str, bool]] = [(left, left_label, False)]
    if right:
        sides.append((right, right_label, True))
    colour = 0
    legend_y = box[1] + 8
    for series, label, on_right in sides:
        top = max((v for values in series.values() for v in values), default=1) * 1.15 or 1

        def y_at(v: float, top: float = top) -> float:
            return box[3] - v / top * (box[3] - box[1])

        for step in range(6):
            value = top * step / 5
            y = y_at(value)
            edge = box[2] if on_right else box[0]
            draw.line((edge - 5, y, edge + 5, y), fill="black")
            text = f"{value:.1f}" if top < 20 else f"{value:.0f}"
            draw.text((edge + 8 if on_right else edge - 50, y - 8), text, fill="black", font=font)
        draw.text(
            (box[2] - 60 if on_right else box[0], box[1] - 20), label, fill="black", font=font
        )
        for name, values in series.items():
            fill = COLOURS[colour % len(COLOURS)]
            colour += 1
            points = [(x_at(x), y_at(v)) for x, v in zip(xs, values, strict=True)]
            if len(points) > 1:
                draw.line(points, fill=fill, width=3 if not on_right else 2)
            for px, py in points:
                draw.ellipse((px - 4, py - 4, px + 4, py + 4), fill=fill)
            side = " (right axis)" if on_right else ""
            draw.line((box[0] + 12, legend_y + 8, box[0] + 40, legend_y + 8), fill=fill, width=3)
            draw.text((box[0] + 46, legend_y), name + side, fill="black", font=font)
            legend_y += 20
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile."""
    return gateway.percentile(list(values), share)


def guild_curve(points: Sequence[int], count: int) -> list[dict[str, Any]]:
    """`benchmarks/gateway.py --closed` at each guild count: `count` interactions each."""
    found = []
    for guilds in points:
        args = argparse.Namespace(
            guilds=guilds,
            members=40,
            rate=100.0,
            seconds=count / 100,
            shards=1,
            settle=0.0,
            workdir=None,
            closed=True,
            profile=None,
            log=None,
        )
        results = asyncio.run(gateway.run(args))
        every = results["latency_ms"]["all"]
        found.append(
            {
                "guilds": guilds,
                "p50_ms": every["p50"],
                "p99_ms": every["p99"],
                "cpu_ms": results["bot_cpu_ms_per_interaction"],
                "errors": results["errors"],
            }
        )
        print(f"guilds {guilds}: {found[-1]}", flush=True)
    return found


async def _round(bench: Bench, repeat: int) -> dict[str, Any]:
    """Each kind cold on its own guilds, then `repeat` warm passes; the mix's CPU from each
    kind's median, weighted by the gateway's shares, and the warm latencies."""
    share = len(bench.guilds) // len(KINDS)
    mix: dict[str, float] = {"cold": 0.0, "warm": 0.0}
    wall: list[float] = []
    for k, kind in enumerate(KINDS):
        guilds = bench.guilds[k * share : (k + 1) * share]
        weight = gateway.MIX[kind] / 100
        for state, passes in (("cold", 1), ("warm", repeat)):
            spent = []
            for _ in range(passes):
                for guild_id in guilds:
                    began = time.perf_counter()
                    spent.append(await bench.send(kind, guild_id) * 1000)
                    if state == "warm":
                        wall += [(time.perf_counter() - began) * 1000] * gateway.MIX[kind]
            mix[state] += statistics.median(spent) * weight
    return {
        "cold_cpu_ms": round(mix["cold"], 2),
        "warm_cpu_ms": round(mix["warm"], 2),
        "p50_ms": round(percentile(wall, 0.5), 2),
        "p99_ms": round(percentile(wall, 0.99), 2),
    }


def round_curve(points: Sequence[int], guilds: int, repeat: int) -> list[dict[str, Any]]:
    """CPU per interaction of the mix, cold and warm, and the warm p50 and p99, for a season
    in each round of `points`. Each kind counts by its median: one slow sample on a shared
    machine would move a mean."""
    found = []
    for number in points:

        async def work(bench: Bench) -> dict[str, Any]:
            return await _round(bench, repeat)

        figures = asyncio.run(with_bench(guilds, number - 1, work))
        found.append({"round": number} | figures)
        print(f"round {number}: {found[-1]}", flush=True)
    return found


def demo_curve(points: Sequence[int]) -> list[dict[str, Any]]:
    """`arbiter demo --clubs N`: its wall and CPU seconds (user + system) at each N."""
    found = []
    for clubs in points:
        with tempfile.TemporaryDirectory() as folder:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            began = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "bot", "demo", "--clubs", str(clubs), "--out", folder],
                cwd=ROOT,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wall = time.perf_counter() - began
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        found.append({"clubs": clubs * 3, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1)})
        print(f"demo --clubs {clubs}: {found[-1]}", flush=True)
    return found


def draw(figures: dict[str, Any], out: Path) -> None:
    """The three PNGs from `figures`."""
    if figures.get("guilds"):
        rows = figures["guilds"]
        chart(
            out / "guilds.png",
            "One shard, closed loop: latency and bot CPU per interaction against guilds",
            "guilds",
            [r["guilds"] for r in rows],
            {"p50 ms": [r["p50_ms"] for r in rows], "p99 ms": [r["p99_ms"] for r in rows]},
            "ms",
            {"CPU ms per interaction": [r["cpu_ms"] for r in rows]},
            "CPU ms",
        )
    if figures.get("rounds"):
        rows = figures["rounds"]
        chart(
            out / "rounds.png",
            "In process: CPU per interaction (the gateway's mix) against the season's round",
            "round of the season",
            [r["round"] for r in rows],
            {
                "CPU ms, cold": [r["cold_cpu_ms"] for r in rows],
                "CPU ms, warm": [r["warm_cpu_ms"] for r in rows],
            },
            "CPU ms",
            {
                "p50 ms, warm": [r["p50_ms"] for r in rows],
                "p99 ms, warm": [r["p99_ms"] for r in rows],
            },
            "wall ms",
        )
    if figures.get("demo"):
        rows = figures["demo"]
        chart(
            out / "demo.png",
            "arbiter demo: seconds against clubs (three divisions)",
            "clubs",
            [r["clubs"] for r in rows],
            {"wall s": [r["wall_s"] for r in rows], "CPU s": [r["cpu_s"] for r in rows]},
            "s",
        )


def main() -> int:
    """Parse the options, measure, draw."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two small points of each curve")
    parser.add_argument("--out", help="folder for the PNGs (default docs/performance/)")
    parser.add_argument(
        "--only", choices=("guilds", "rounds", "demo"), action="append", help="one curve"
    )
    parser.add_argument("--count", type=int, default=1500, help="interactions per guilds point")
    args = parser.parse_args()
    points = QUICK if args.quick else FULL
    default = Path(tempfile.mkdtemp(prefix="curves-")) if args.quick else ROOT / "docs/performance"
    out = Path(args.out) if args.out else default
    wanted = args.only or ["guilds", "rounds", "demo"]
    saved = out / "curves.json"
    figures: dict[str, Any] = json.loads(saved.read_text()) if saved.exists() else {}
    if "guilds" in wanted:
        figures["guilds"] = guild_curve(points["guilds"], 200 if args.quick else args.count)
    if "rounds" in wanted:
        figures["rounds"] = round_curve(
            points["rounds"], 8 if args.quick else 12, 2 if args.quick else 5
        )
    if "demo" in wanted:
        figures["demo"] = demo_curve(points["clubs"])
    out.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(figures, indent=1) + "\n")
    draw(figures, out)
    print(f"curves in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
