"""What the offline stand-ins of chess.com and lichess.org share.

It is a real aiohttp server on a free port of 127.0.0.1. It records every request and the most
requests in flight at once. It answers scripted failures first, with `fail` for the next N requests
of a path, and bare statuses from now on with `serve_status`. It marks bodies with an ETag, and
answers 304 on a matching `If-None-Match`. Each stand-in says in `answer_body` what a path answers
otherwise.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web


@dataclass
class Seen:
    """One request a stand-in received. `query` is the URL's query string, "" without one."""

    path: str
    user_agent: str | None
    if_none_match: str | None
    status: int
    query: str = ""
    accept: str | None = None


@dataclass
class Body:
    """An answer's body: bytes, their content type and status."""

    data: bytes
    content_type: str = "application/json"
    status: int = 200


@functools.lru_cache(maxsize=4096)
def etag_of(data: bytes) -> str:
    """The ETag a stand-in gives a body. The same body gets the same tag.

    Each body is hashed once, so serving a payload again costs the stand-in nothing, nor a benchmark
    timing it.
    """
    return '"' + hashlib.sha256(data).hexdigest()[:16] + '"'


@dataclass
class StandInServer:
    """The server part of a stand-in: statuses and failures by path key, requests seen."""

    statuses: dict[str, int] = field(default_factory=dict)
    failures: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    requests: list[Seen] = field(default_factory=list)
    base_url: str = ""
    in_flight: int = 0
    max_in_flight: int = 0
    _runner: web.AppRunner | None = None

    route = "/{path:.+}"
    """The aiohttp route the stand-in answers. Its `path` part is the key."""
    prefix = ""
    """What `base_url` adds after `http://host:port`, such as `/pub` for chess.com."""

    def key(self, path: str) -> str:
        """The key of a request path under which statuses and failures are set."""
        return path.strip("/")

    def serve_status(self, path: str, status: int) -> None:
        """Answer `path` with the HTTP status `status` from now on."""
        self.statuses[self.key(path)] = status

    def fail(
        self, path: str, status: int, times: int = 1, headers: dict[str, str] | None = None
    ) -> None:
        """Answers the next `times` requests for `path` with `status` and the given headers."""
        self.failures.setdefault(self.key(path), []).extend([(status, headers or {})] * times)

    def seen(self, path: str) -> list[Seen]:
        """The requests received for one path."""
        return [request for request in self.requests if request.path == self.key(path)]

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        """The JSON an error answer carries. Each site has its own shape."""
        return {"error": message}

    def answer_body(self, key: str, request: web.Request) -> Body:
        """The answer for `key` when no failure or status is set for it."""
        raise NotImplementedError

    async def before_answer(self, path: str) -> None:
        """A hook run before each answer, while the request counts as in flight."""

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one GET."""
        key = self.key(request.match_info["path"])
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await self.before_answer(key)
            response = self.answer(key, request)
        finally:
            self.in_flight -= 1
        self.requests.append(
            Seen(
                key,
                request.headers.get("User-Agent"),
                request.headers.get("If-None-Match"),
                response.status,
                request.query_string,
                request.headers.get("Accept"),
            )
        )
        return response

    def answer(self, key: str, request: web.Request) -> web.Response:
        """The response to the request for `key` as things stand."""
        scripted = self.failures.get(key)
        if scripted:
            status, headers = scripted.pop(0)
            return web.json_response(
                self.error_body(status, "scripted"), status=status, headers=headers
            )
        if key in self.statuses:
            status = self.statuses[key]
            return web.json_response(self.error_body(status, f"HTTP {status}"), status=status)
        body = self.answer_body(key, request)
        if body.status != 200:
            return web.Response(body=body.data, status=body.status, content_type=body.content_type)
        etag = etag_of(body.data)
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(body=body.data, content_type=body.content_type, headers={"ETag": etag})

    def application(self) -> web.Application:
        """The aiohttp application serving the stand-in's route."""
        app = web.Application()
        app.router.add_get(self.route, self.handle)
        return app

    async def start(self) -> str:
        """Listens on a free port of 127.0.0.1 in the running loop, and returns the base URL."""
        self._runner = web.AppRunner(self.application())
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}{self.prefix}"
        return self.base_url

    async def stop(self) -> None:
        """Stops listening. Calling it again does nothing."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def json_body(payload: Any, status: int = 200) -> Body:
    """A JSON answer."""
    return Body(json.dumps(payload).encode(), "application/json", status)
