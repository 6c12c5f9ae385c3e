"""A lichess.org stand-in, so the real lichess client runs offline.

It is a real aiohttp server on a free port of 127.0.0.1 answering the game export
`/api/games/user/{username}` from the games it was given, as lichess does.

Games are lichess's exported JSON objects, added with `add_game` or `add_ndjson`. A user's export
holds the games they played, matched by `players.*.user.id` ignoring case. It filters them as
lichess does: by `vs` for the opponent, by `since` and `until` on `createdAt` in milliseconds,
inclusive, by `finished` or `ongoing`, and by `max`. A game still `created` or `started` is ongoing.
Games come most recent first as NDJSON, without the `pgn` field unless `pgnInJson=true`. A user with
no game is lichess's 404, unless named with `add_user`. `serve_status` and `fail`, by path such as
`/api/games/user/alice`, script failures as the chess.com stand-in does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.offline.standin_server import Body, Seen, StandInServer, json_body

__all__ = ["LichessStandIn", "Seen"]

EXPORT = "api/games/user/"
ONGOING = frozenset({"created", "started"})


def _user_ids(game: dict[str, Any]) -> tuple[str, str]:
    """The lowercase user ids of White and Black. The computer's is ""."""

    def user_id(side: str) -> str:
        players = game.get("players")
        player = players.get(side) if isinstance(players, dict) else None
        user = player.get("user") if isinstance(player, dict) else None
        if not isinstance(user, dict):
            return ""
        return str(user.get("id") or user.get("name") or "").casefold()

    return user_id("white"), user_id("black")


def _flag(query: Any, name: str, default: bool) -> bool:
    value = query.get(name)
    return default if value is None else value.lower() in ("true", "1", "yes")


@dataclass
class LichessStandIn(StandInServer):
    """The games the stand-in serves, the users it knows, what it has seen, and its server."""

    games: list[dict[str, Any]] = field(default_factory=list)
    users: set[str] = field(default_factory=set)

    route = "/{path:.+}"
    prefix = ""

    def key(self, path: str) -> str:
        return path.strip("/")

    def add_game(self, game: dict[str, Any]) -> None:
        """Serves one exported game, lichess's JSON object, from now on."""
        self.games.append(game)

    def add_ndjson(self, body: bytes) -> None:
        """Serves every game of an NDJSON export, one JSON object a line, from now on."""
        for line in body.decode().splitlines():
            if line.strip():
                self.add_game(json.loads(line))

    def add_user(self, name: str) -> None:
        """Makes `name` a known user even without games, so their export is empty rather than a
        404.
        """
        self.users.add(name.casefold())

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"error": message}

    def _known(self, user: str) -> bool:
        return user in self.users or any(user in _user_ids(game) for game in self.games)

    def exported(self, user: str, query: Any) -> list[dict[str, Any]]:
        """The games of `user`'s export for a request's query, most recent first."""
        vs = (query.get("vs") or "").casefold()
        since = int(query["since"]) if query.get("since") else None
        until = int(query["until"]) if query.get("until") else None
        finished = _flag(query, "finished", True)
        ongoing = _flag(query, "ongoing", False)
        chosen = []
        for game in self.games:
            white, black = _user_ids(game)
            if user not in (white, black):
                continue
            if vs and vs != (black if white == user else white):
                continue
            created = int(game.get("createdAt", 0))
            if (since is not None and created < since) or (until is not None and created > until):
                continue
            running = game.get("status") in ONGOING
            if (running and not ongoing) or (not running and not finished):
                continue
            chosen.append(game)
        chosen.sort(key=lambda game: -int(game.get("createdAt", 0)))
        if query.get("max"):
            chosen = chosen[: int(query["max"])]
        return chosen

    def answer_body(self, key: str, request: web.Request) -> Body:
        if not key.startswith(EXPORT) or "/" in key.removeprefix(EXPORT):
            return json_body({"error": "Not found"}, status=404)
        user = key.removeprefix(EXPORT).casefold()
        if not self._known(user):
            return json_body({"error": "Not found"}, status=404)
        with_pgn = _flag(request.query, "pgnInJson", False)
        try:
            games = self.exported(user, request.query)
        except ValueError as error:
            return json_body({"error": f"bad query: {error}"}, status=400)
        lines = []
        for game in games:
            shown = game if with_pgn else {k: v for k, v in game.items() if k != "pgn"}
            lines.append(json.dumps(shown, separators=(",", ":")))
        data = "".join(line + "\n" for line in lines).encode()
        return Body(data, "application/x-ndjson")
