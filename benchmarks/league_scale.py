"""Benchmark: standings of a large CL season (10 divisions × 20 clubs, 50 boards of 2 games,
a full single round robin ≈ 190,000 games) next to one bare pass over all games.

Run from the worktree root: `python3 benchmarks/league_scale.py [--repeat N] [--seed S]`.
Reports (best of N) reading the file into domain values (pydantic validation, conversion,
cross-checks), the standings of every division
computed from the validated season, and a bare pass summing every board's points.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.formats.season_file import load_season
from core.league import league_report
from core.league.schedule import division_schedule
from core.league.season import Season

DIVISIONS = 10
CLUBS = 20
BOARDS = 50
SQUAD = 60


def iso(instant: dt.datetime) -> str:
    """An instant as season files write it."""
    return instant.isoformat().replace("+00:00", "Z")


def generate(seed: int) -> dict[str, Any]:
    """The season file as decoded JSON: Berger pairings, random boards, 1 % late
    challenges, 0.5 % clubs over 400 members at start, 0.5 % one player short, 40 closed
    accounts and 30 players who also play for two other clubs."""
    rnd = random.Random(seed)
    calendar = [dt.date(2017, 9, 3) + dt.timedelta(weeks=w) for w in range(CLUBS - 1)]
    names = [f"Division {d:02d}" for d in range(DIVISIONS)]
    divisions = []
    matches: list[dict[str, Any]] = []
    squads: dict[str, list[str]] = {}
    for d, name in enumerate(names):
        clubs = [f"Club {d:02d}-{c:02d}" for c in range(CLUBS)]
        divisions.append({"name": name, "min_players": BOARDS, "clubs": clubs})
        for club in clubs:
            squads[club] = [f"{club.replace(' ', '_')}_p{i}" for i in range(SQUAD)]
        schedule = division_schedule(name, clubs, calendar, id_prefix=f"D{d}")
        for fixture in schedule.fixtures:
            matches.append(
                {
                    "id": fixture.id,
                    "division": name,
                    "round": fixture.round,
                    "home": fixture.home,
                    "away": fixture.away,
                    "start": iso(fixture.start),
                    "finished": iso(fixture.start + dt.timedelta(days=30)),
                    "challenge": {
                        "issued_by": fixture.home,
                        "issued": iso(fixture.start - dt.timedelta(days=8)),
                        "accepted": iso(fixture.start - dt.timedelta(days=7)),
                    },
                    "at_start": {},
                    "boards": [],
                }
            )
    wanderers = [p for club in list(squads)[:30] for p in squads[club][:1]]
    for m in matches:
        home = rnd.sample(squads[m["home"]], BOARDS)
        away = rnd.sample(squads[m["away"]], BOARDS)
        if rnd.random() < 0.02:  # a multi-team player turns up for another club
            home[0] = rnd.choice(wanderers)
        m["boards"] = [
            {
                "home_player": h,
                "away_player": a,
                "home_points": (points := rnd.choice((0, 0.5, 1, 1, 1.5, 2))),
                "away_points": 2 - points,
            }
            for h, a in zip(home, away, strict=True)
        ]
        roll = rnd.random()
        if roll < 0.01:
            m["challenge"]["accepted"] = None  # the away club never accepted
        elif roll < 0.015:
            m["at_start"][m["home"]] = {"members": 401, "avg_rating": 1500, "players": BOARDS}
        elif roll < 0.02:
            m["at_start"][m["away"]] = {"players": BOARDS - 1}
            m["boards"].pop()
    closed = rnd.sample(sorted({p for club in squads.values() for p in club}), 40)
    return {
        "name": "Benchmark season",
        "divisions": divisions,
        "matches": matches,
        "closed_accounts": closed,
    }


def bare_pass(season: Season) -> Fraction:
    """One pass over every board of every match summing both clubs' points."""
    total = Fraction(0)
    for m in season.matches:
        for b in m.boards:
            total += Fraction(b.home_half + b.away_half, 2)
    return total


def best(repeat: int, work: Any) -> tuple[float, Any]:
    """The fastest of `repeat` timed runs and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        began = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - began)
    return min(times), result


def main() -> int:
    """Generate, validate, compute, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    data = generate(args.seed)
    games = sum(len(m["boards"]) for m in data["matches"]) * 2
    validate_time, season = best(max(1, args.repeat // 2), lambda: load_season(data))
    bare_time, total = best(args.repeat, lambda: bare_pass(season))
    league_time, report = best(args.repeat, lambda: league_report(season))
    print(
        f"season: {len(data['matches'])} matches, {games} games, "
        f"{sum(len(t) for _, t in report.divisions)} clubs; {total} game points in total"
    )
    print(
        f"forfeits: {len(report.forfeits)}; multi-team players: "
        f"{len(report.multi_team_players)}; adjusted players: {len(report.adjusted_players)}; "
        f"disqualified: {len(report.disqualified)}"
    )
    print(f"reading the file (load_season)  : {validate_time:8.3f} s")
    print(f"bare pass over all games        : {bare_time:8.3f} s")
    print(
        f"standings of every division     : {league_time:8.3f} s "
        f"({league_time / bare_time:.2f}× the bare pass)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
