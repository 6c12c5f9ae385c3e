"""The chess.com Published-Data payloads of the demo world, shaped as the real API answers.

They follow the recordings in `tests/fixtures/chesscom`: club profiles and match lists, team matches
in registration, in progress and finished with their boards, and player profiles and stats.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.offline.demo.world import Club, Player

API = "https://api.chess.com/pub"
WEB = "https://www.chess.com"
DAILY = {
    "rules": "chess",
    "time_class": "daily",
    "time_control": "1/259200",
    "min_team_players": 1,
    "min_required_games": 0,
    "autostart": False,
}

RESULT_CODES = {1: "win", 0: "resigned"}
"""A game's result code for the player it is reported for: 1 a win, ½ `agreed`, 0 a loss."""


def _stamp(instant: dt.datetime) -> int:
    return int(instant.timestamp())


def club_profile(
    club: Club, *, members: int | None = None, average: int | None = None
) -> dict[str, Any]:
    """`/pub/club/{url-id}`: the profile with its member count and average daily rating by CL-5 and
    CL-6.

    Both may be overridden for a club over a limit at one match start.
    """
    return {
        "@id": f"{API}/club/{club.url_id}",
        "name": club.name,
        "club_id": club.chesscom_id,
        "country": f"{API}/country/XX",
        "average_daily_rating": club.average_rating if average is None else average,
        "members_count": club.members_count if members is None else members,
        "created": 1500000000,
        "last_activity": 1500000000,
        "admin": [f"{API}/player/{club.players[0].username}"],
        "visibility": "public",
        "description": f"<p>The chess club of {club.name.removesuffix(' Fans')} supporters.</p>",
        "url": f"{WEB}/club/{club.url_id}",
    }


@dataclass(frozen=True)
class Board:
    """One board of a demo match: the two players and each game's points for the home player.

    Points are 1, 0.5 or 0, white game first.
    """

    home: Player
    away: Player
    home_scores: tuple[float, float]


def _code(points: float) -> str:
    return "agreed" if points == 0.5 else RESULT_CODES[int(points)]


def _team(
    club: Club,
    match_id: int,
    boards: Sequence[Board],
    side: str,
    status: str,
    unpaired: Sequence[Player],
) -> dict[str, Any]:
    home = side == "home"
    players = []
    for number, board in enumerate(boards, start=1):
        player = board.home if home else board.away
        entry: dict[str, Any] = {
            "username": player.username,
            "stats": f"{API}/player/{player.username}/stats",
            "status": player.status,
        }
        if status == "registration":
            entry |= {"rating": player.rating, "timeout_percent": player.timeout_percent}
        else:
            entry["board"] = f"{API}/match/{match_id}/{number}"
        if status == "finished":
            white, black = board.home_scores
            if home:
                entry |= {"played_as_white": _code(white), "played_as_black": _code(black)}
            else:
                entry |= {"played_as_white": _code(1 - black), "played_as_black": _code(1 - white)}
        players.append(entry)
    for player in unpaired:  # signed up, but left without an opponent: no board
        players.append(
            {
                "username": player.username,
                "stats": f"{API}/player/{player.username}/stats",
                "status": player.status,
            }
        )
    team: dict[str, Any] = {
        "@id": f"{API}/club/{club.url_id}",
        "name": club.name,
        "url": f"{WEB}/club/{club.url_id}",
        "players": players,
        "fair_play_removals": [],
    }
    if status == "finished":
        mine = sum(sum(b.home_scores) for b in boards)
        score = mine if home else 2 * len(boards) - mine
        other = 2 * len(boards) - score
        team["score"] = score
        team["result"] = "win" if score > other else "lose" if score < other else "draw"
    else:
        team["score"] = 0
    return team


def team_match(
    match_id: int,
    name: str,
    home: Club,
    away: Club,
    boards: Sequence[Board],
    status: str,
    start: dt.datetime,
    unpaired: Mapping[str, Sequence[Player]],
    end: dt.datetime | None = None,
) -> dict[str, Any]:
    """`/pub/match/{id}` in `registration`, `in_progress` or `finished`, with the boards' results.

    Home is team1, the club that issued the challenge. `unpaired` lists players signed up without a
    board, by club url-id, for an opponent club short of players under CL-20.
    """
    payload: dict[str, Any] = {
        "@id": f"{API}/match/{match_id}",
        "name": name,
        "url": f"{WEB}/club/matches/{match_id}",
        "start_time": _stamp(start),
        "status": status,
        "boards": len(boards),
        "settings": DAILY,
        "teams": {
            "team1": _team(home, match_id, boards, "home", status, unpaired.get(home.url_id, ())),
            "team2": _team(away, match_id, boards, "away", status, unpaired.get(away.url_id, ())),
        },
    }
    if status == "finished" and end is not None:
        payload["end_time"] = _stamp(end)
    return payload


@dataclass(frozen=True)
class ListedMatch:
    """A team match as it appears in a club's match list."""

    match_id: int
    name: str
    opponent: Club
    start: dt.datetime
    state: str
    """`registered`, `in_progress` or `finished`."""
    result: str | None = None


def club_matches(listed: Sequence[ListedMatch]) -> dict[str, Any]:
    """`/pub/club/{url-id}/matches`: the club's matches by state."""
    lists: dict[str, list[dict[str, Any]]] = {"finished": [], "in_progress": [], "registered": []}
    for item in listed:
        entry: dict[str, Any] = {
            "name": item.name,
            "@id": f"{API}/match/{item.match_id}",
            "opponent": f"{API}/club/{item.opponent.url_id}",
            "start_time": _stamp(item.start),
            "time_class": "daily",
        }
        if item.result is not None:
            entry["result"] = item.result
        lists[item.state].append(entry)
    return lists


def player_profile(player: Player, number: int) -> dict[str, Any]:
    """`/pub/player/{username}`: the account and its status, `closed` for CL-19."""
    return {
        "@id": f"{API}/player/{player.username}",
        "url": f"{WEB}/member/{player.username}",
        "username": player.username,
        "player_id": 50_000_000 + number,
        "status": player.status,
        "joined": 1400000000,
        "last_online": 1500000000,
    }


def player_stats(player: Player) -> dict[str, Any]:
    """`/pub/player/{username}/stats`: the daily rating and the CL-21 timeout ratio."""
    return {
        "chess_daily": {
            "last": {"rating": player.rating, "date": 1500000000, "rd": 45},
            "record": {
                "win": 40,
                "loss": 30,
                "draw": 5,
                "time_per_move": 13036,
                "timeout_percent": player.timeout_percent,
            },
        }
    }
