"""A chess.com stand-in: a real aiohttp server on 127.0.0.1 (a free port) answering
`/pub/<path>` with what it was told to serve, so the real chess.com client runs offline.

Each path answers a JSON body (with an ETag, 304 on a matching `If-None-Match`), or a bare
HTTP status from now on (`serve_status`), or the next N times only (`fail`); an unknown path
is chess.com's 404. It records every request and the most requests in flight at once. The
replay runs it in its own event loop (`start`/`stop`); the tests run it in a thread.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

PREFIX = "/pub/"


@dataclass
class Seen:
    """One request the stand-in received."""

    path: str
    user_agent: str | None
    if_none_match: str | None
    status: int


def api_path(path: str) -> str:
    """The key of a chess.com URL path: `/pub/match/12803` → `match/12803`."""
    return path.removeprefix(PREFIX).strip("/")


@dataclass
class ChessComStandIn:
    """What the stand-in serves, what it has seen, and its server once started."""

    payloads: dict[str, bytes] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)
    failures: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    base_url: str = ""
    in_flight: int = 0
    max_in_flight: int = 0
    _runner: web.AppRunner | None = None

    def serve(self, path: str, payload: Any) -> None:
        """Serve a JSON payload at `/pub/<path>` from now on."""
        self.serve_bytes(path, json.dumps(payload).encode())

    def serve_bytes(self, path: str, body: bytes) -> None:
        """Serve `body` (as JSON) at `/pub/<path>` from now on."""
        key = api_path(path)
        self.statuses.pop(key, None)
        self.payloads[key] = body

    def serve_status(self, path: str, status: int) -> None:
        """Answer `/pub/<path>` with the HTTP status `status` from now on."""
        self.statuses[api_path(path)] = status

    def fail(
        self, path: str, status: int, times: int = 1, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the next `times` requests for `path` with `status` (and headers)."""
        self.failures.setdefault(api_path(path), []).extend([(status, headers or {})] * times)

    def seen(self, path: str) -> list[Seen]:
        """The requests received for one path."""
        return [request for request in self.requests if request.path == api_path(path)]

    async def before_answer(self, path: str) -> None:
        """A hook run before each answer, while the request counts as in flight."""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one GET `/pub/<path>`."""
        path = request.match_info["path"]
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await self.before_answer(path)
            response = self.answer(path, request.headers.get("If-None-Match"))
        finally:
            self.in_flight -= 1
        self.requests.append(
            Seen(
                path,
                request.headers.get("User-Agent"),
                request.headers.get("If-None-Match"),
                response.status,
            )
        )
        return response

    def answer(self, path: str, if_none_match: str | None) -> web.Response:
        """The response to `/pub/<path>` as things stand."""
        scripted = self.failures.get(path)
        if scripted:
            status, headers = scripted.pop(0)
            return web.json_response(
                {"code": 0, "message": "scripted"}, status=status, headers=headers
            )
        if path in self.statuses:
            status = self.statuses[path]
            return web.json_response({"code": 0, "message": f"HTTP {status}"}, status=status)
        body = self.payloads.get(path)
        if body is None:
            name = path.split("/")[1] if "/" in path else path
            message = {"code": 0, "message": f'User "{name}" not found.'}
            return web.json_response(message, status=404)
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if if_none_match == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(body=body, content_type="application/json", headers={"ETag": etag})

    def application(self) -> web.Application:
        """The aiohttp application serving `/pub/{path}`."""
        app = web.Application()
        app.router.add_get("/pub/{path:.+}", self.handle)
        return app

    async def start(self) -> str:
        """Listen on 127.0.0.1 (a free port) in the running loop; returns the base URL."""
        self._runner = web.AppRunner(self.application())
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}/pub"
        return self.base_url

    async def stop(self) -> None:
        """Stop listening (idempotent)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
