"""Benchmark: `arbiter tour` on a tour of ten 16-player events (seven Regular, three Major,
every knock-out round with daily scores, some play-offs) and a 10-player Finals.

Run from the worktree root: `python3 benchmarks/tour_file.py [--repeat N] [--seed S]`.
Reports (best of N) the whole command in a fresh interpreter (`python3 -m bot tour FILE`,
start-up included) and, in process, reading the file plus computing the report.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.formats.tour_file import load_tour  # noqa: E402
from bot.rendering.tour.report_text import tour_text  # noqa: E402
from core.tour.report import tour_report  # noqa: E402

PLAYERS = [f"Player {i:02d}" for i in range(1, 25)]


def _round(rng: random.Random, name: str, a: str, b: str) -> tuple[dict[str, Any], str]:
    """A round with daily scores: a wins 2½-1½ and draws, or a play-off at 1-1 then Armageddon."""
    winner_is_a = rng.random() < 0.6
    if rng.random() < 0.5:
        days = ["2.5-1.5", "2-2"] if winner_is_a else ["1.5-2.5", "2-2"]
        entry = {"round": name, "a": a, "b": b, "days": days}
    else:
        playoff = {"blitz": "1-1", "armageddon": "a" if winner_is_a else "b"}
        entry = {"round": name, "a": a, "b": b, "days": ["2-2", "2-2"], "playoff": playoff}
    return entry, a if winner_is_a else b


def _event(rng: random.Random, number: int) -> dict[str, Any]:
    order = rng.sample(PLAYERS, 16)
    knockout: list[dict[str, Any]] = []
    winners: dict[str, str] = {}
    losers: dict[str, str] = {}
    pairs = {"QF1": (0, 7), "QF2": (1, 6), "QF3": (2, 5), "QF4": (3, 4)}
    for name, (i, j) in pairs.items():
        entry, won = _round(rng, name, order[i], order[j])
        knockout.append(entry)
        winners[name] = won
    for name, (x, y) in {"SF1": ("QF1", "QF4"), "SF2": ("QF2", "QF3")}.items():
        entry, won = _round(rng, name, winners[x], winners[y])
        knockout.append(entry)
        winners[name] = won
        losers[name] = winners[x] if won == winners[y] else winners[y]
    knockout.append(_round(rng, "F", winners["SF1"], winners["SF2"])[0])
    knockout.append(_round(rng, "3rd", losers["SF1"], losers["SF2"])[0])
    kind = "major" if number in (4, 7, 10) else "regular"
    return {
        "name": f"Event {number}",
        "type": kind,
        "preliminary": {"order": order},
        "knockout": knockout,
    }


def tour_document(seed: int) -> dict[str, Any]:
    """Ten events and a Finals of 10 players with all 45 matches decided."""
    rng = random.Random(seed)
    finalists = PLAYERS[:10]
    matches = [
        {"a": a, "b": b, "winner": rng.choice((a, b)), "decided": rng.choice(("rapid", "tiebreak"))}
        for i, a in enumerate(finalists)
        for b in finalists[i + 1 :]
    ]
    return {
        "name": "Benchmark tour",
        "events": [_event(rng, n) for n in range(1, 11)],
        "finals": {"players": finalists, "matches": matches},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2021)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tour.json"
        path.write_text(json.dumps(tour_document(args.seed)))
        command = [sys.executable, "-m", "bot", "tour", str(path)]
        best_cli = best_core = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            best_cli = min(best_cli, time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(done.stderr)
            start = time.perf_counter()
            tour, tables = load_tour(path)
            tour_text(tour_report(tour, None, tables))
            best_core = min(best_core, time.perf_counter() - start)
    print(f"arbiter tour, 10 events + Finals, fresh interpreter: {best_cli * 1000:.0f} ms")
    print(f"  read + validate + report + text, in process:      {best_core * 1000:.1f} ms")


if __name__ == "__main__":
    main()
