"""A chess.com stand-in, so the real chess.com client runs offline.

It is a real aiohttp server on a free port of 127.0.0.1, answering `/pub/<path>` with what it was
told to serve. Each path answers a JSON body with an ETag, and a 304 on a matching `If-None-Match`.
`serve_status` makes a path answer a bare HTTP status from now on, and `fail` does so for the next N
times only.

Games added with `add_game` are served in both players' monthly archives at
`player/{name}/games/{YYYY}/{MM}`, by the month the game ended, oldest first. A month without games
is `{"games": []}` for a player the stand-in knows. A payload served at an archive's path wins over
the added games. Any other path is chess.com's 404. It records every request and the most requests
in flight at once. The replay runs it in its own event loop with `start` and `stop`, and the tests
run it in a thread.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from bot.offline.standin_server import Body, Seen, StandInServer, json_body

__all__ = ["PREFIX", "ChessComStandIn", "Seen", "api_path"]

PREFIX = "/pub/"
ARCHIVE = re.compile(r"^player/(?P<name>[^/]+)/games/(?P<year>\d{4})/(?P<month>\d{2})$")


def api_path(path: str) -> str:
    """The key of a chess.com URL path: `/pub/match/12803` → `match/12803`."""
    return path.removeprefix(PREFIX).strip("/")


@dataclass
class ChessComStandIn(StandInServer):
    """What the stand-in serves, what it has seen, and its server once started."""

    payloads: dict[str, bytes] = field(default_factory=dict)
    archives: dict[tuple[str, int, int], list[dict[str, Any]]] = field(default_factory=dict)
    players: set[str] = field(default_factory=set)

    route = "/pub/{path:.+}"
    prefix = "/pub"

    def key(self, path: str) -> str:
        return api_path(path)

    def serve(self, path: str, payload: Any) -> None:
        """Serve a JSON payload at `/pub/<path>` from now on."""
        self.serve_bytes(path, json.dumps(payload).encode())

    def serve_bytes(self, path: str, body: bytes) -> None:
        """Serves `body` as JSON at `/pub/<path>` from now on."""
        key = api_path(path)
        self.statuses.pop(key, None)
        self.payloads[key] = body

    def add_game(self, game: dict[str, Any]) -> None:
        """Adds a finished game to both players' archives of the month it ended in.

        The game is an archive game's JSON, with `white` and `black` holding a `username`, and
        `end_time` in seconds.
        """
        ended = datetime.fromtimestamp(int(game["end_time"]), tz=UTC)
        for side in ("white", "black"):
            name = str(game[side]["username"]).casefold()
            self.players.add(name)
            games = self.archives.setdefault((name, ended.year, ended.month), [])
            games.append(game)
            games.sort(key=lambda item: int(item["end_time"]))

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"code": 0, "message": message}

    def answer_body(self, key: str, request: web.Request) -> Body:
        body = self.payloads.get(key)
        if body is not None:
            return Body(body)
        archive = ARCHIVE.match(key)
        if archive is not None and archive["name"].casefold() in self.players:
            month = (archive["name"].casefold(), int(archive["year"]), int(archive["month"]))
            return json_body({"games": self.archives.get(month, [])})
        name = key.split("/")[1] if "/" in key else key
        return json_body({"code": 0, "message": f'User "{name}" not found.'}, status=404)
