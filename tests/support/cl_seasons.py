"""Small hand-made CL season files for the league tests (dicts, as read from JSON)."""

from __future__ import annotations

import datetime as dt
from typing import Any

ROUND_ONE = dt.datetime(2017, 10, 1, 18, 0, tzinfo=dt.UTC)


def iso(instant: dt.datetime) -> str:
    """ISO 8601 in UTC with a Z, as season files write instants."""
    return instant.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def match(
    id: str,
    home: str,
    away: str,
    boards: list[tuple[str, str, float]] | None = None,
    *,
    round: int = 1,
    week: int | None = None,
    division: str = "P",
    start: dt.datetime | None = None,
    finished: bool = True,
    challenge: str | None = "accepted",
    at_start: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A match; `boards` as (home player, away player, home points) with 2 games a board.
    It starts in week `week` of the season (default: its `round`), unless `start` is given:
    a test that orders more matches than a round robin has rounds uses `week`.

    Without boards it gets one board per default pairing (h1-a1 … h3-a3) won by home 2:0.
    `challenge`: "accepted" (on time), "issued" (never accepted), None (never issued).
    """
    start = start or ROUND_ONE + dt.timedelta(weeks=(week or round) - 1)
    if boards is None:
        boards = [(f"{home}{i}", f"{away}{i}", 1) for i in range(1, 4)]
    data: dict[str, Any] = {
        "id": id,
        "division": division,
        "round": round,
        "home": home,
        "away": away,
        "start": iso(start),
        "boards": [
            {"home_player": h, "away_player": a, "home_points": p, "away_points": 2 - p}
            for h, a, p in boards
        ],
    }
    if finished:
        data["finished"] = iso(start + dt.timedelta(days=20))
    if challenge is not None:
        issued = start - dt.timedelta(days=10)
        data["challenge"] = {"issued_by": home, "issued": iso(issued)}
        if challenge == "accepted":
            data["challenge"]["accepted"] = iso(issued + dt.timedelta(hours=1))
    if at_start is not None:
        data["at_start"] = at_start
    return data


def unplayed(
    id: str,
    home: str,
    away: str,
    boards: list[tuple[str, str, float]] | None = None,
    *,
    round: int,
    start: dt.datetime,
    challenge: str | None = None,
) -> dict[str, Any]:
    """A match of round `round` starting at `start`, not finished (no challenge unless
    `challenge` says so)."""
    return match(
        id, home, away, boards, round=round, start=start, finished=False, challenge=challenge
    )


def season(
    matches: list[dict[str, Any]],
    divisions: dict[str, list[str]] | None = None,
    min_players: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """A season file with one division P of clubs A-D unless `divisions` says otherwise."""
    divisions = divisions or {"P": ["A", "B", "C", "D"]}
    return {
        "name": "Test season",
        "divisions": [
            {"name": name, "min_players": min_players, "clubs": clubs}
            for name, clubs in divisions.items()
        ],
        "matches": matches,
        **extra,
    }


def unchallenged_pair(deadline: dt.datetime, notice_hours: int) -> dict[str, Any]:
    """Two clubs and one match, never challenged, whose CL-15 challenge deadline is
    `deadline` (its start `notice_hours` later): a deadline the bot must judge as missed."""
    start = deadline + dt.timedelta(hours=notice_hours)
    match = {"id": "1", "division": "P", "round": 1, "home": "Home", "away": "Away"}
    return {
        "name": "Shard Season",
        "divisions": [{"name": "P", "min_players": 1, "clubs": ["Home", "Away"]}],
        "matches": [match | {"start": iso(start), "boards": []}],
    }
