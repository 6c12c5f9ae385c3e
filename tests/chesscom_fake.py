"""A fake chess.com API: a real aiohttp server on 127.0.0.1 serving the recorded payloads.

It runs in its own thread and event loop, so both async client tests and the synchronous CLI
(which calls `asyncio.run`) can talk to it. It records every request, the most requests in
flight at once, and serves ETags (304 on a matching `If-None-Match`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

ROUTES = {
    "match/12803": "team_match_daily_finished_12803.json",
    "match/12803/1": "team_match_board_12803_1.json",
    "match/1000001": "team_match_daily_in_progress_SYNTHETIC.json",
    "match/873060": "team_match_daily_registration_873060_EXCERPT.json",
    "match/live/5833": "team_match_live_finished_5833.json",
    "match/live/5833/1": "team_match_live_board_5833_1.json",
    "club/chess-com-developer-community": "club_profile_chess-com-developer-community.json",
    "club/chess-com-developer-community/members": (
        "club_members_chess-com-developer-community_TRIMMED.json"
    ),
    "club/chess-com-developer-community/matches": (
        "club_matches_chess-com-developer-community.json"
    ),
    "player/farzyplayschess": "player_profile_farzyplayschess.json",
    "player/erik/stats": "player_stats_erik.json",
}
"""API path (after `/pub/`) → recorded payload in `../shared/fixtures/chesscom`."""

SYNTHETIC: dict[str, Any] = {
    # A player who never played daily chess has no `chess_daily` at all.
    "player/farzyplayschess/stats": {"chess_rapid": {"record": {"win": 1, "loss": 0}}},
    "player/erik": {"username": "erik", "status": "staff"},
    "player/carol": {"username": "carol", "status": "closed:fair_play_violations"},
}


@dataclass
class Seen:
    """One request the fake received."""

    path: str
    user_agent: str | None
    if_none_match: str | None
    status: int


@dataclass
class FakeChessCom:
    """The fake's state: payloads, scripted failures and what it has seen."""

    payloads: dict[str, bytes]
    base_url: str = ""
    delay: float = 0.0
    failures: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=dict)
    hang: set[str] = field(default_factory=set)
    requests: list[Seen] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    release: asyncio.Event | None = None

    def serve(self, path: str, payload: Any) -> None:
        """Serve a JSON payload at `/pub/<path>`."""
        self.payloads[path] = json.dumps(payload).encode()

    def fail(
        self, path: str, status: int, times: int = 1, headers: dict[str, str] | None = None
    ) -> None:
        """Answer the next `times` requests for `path` with `status` (and headers)."""
        self.failures.setdefault(path, []).extend([(status, headers or {})] * times)

    def seen(self, path: str) -> list[Seen]:
        """The requests received for one path."""
        return [request for request in self.requests if request.path == path]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.match_info["path"]
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if path in self.hang and self.release is not None:
                await self.release.wait()
            response = self._answer(path, request.headers.get("If-None-Match"))
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

    def _answer(self, path: str, if_none_match: str | None) -> web.Response:
        scripted = self.failures.get(path)
        if scripted:
            status, headers = scripted.pop(0)
            return web.json_response(
                {"code": 0, "message": "scripted"}, status=status, headers=headers
            )
        body = self.payloads.get(path)
        if body is None:
            name = path.split("/")[1] if "/" in path else path
            message = {"code": 0, "message": f'User "{name}" not found.'}
            return web.json_response(message, status=404)
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if if_none_match == etag:
            return web.Response(status=304, headers={"ETag": etag})
        return web.Response(body=body, content_type="application/json", headers={"ETag": etag})


@contextmanager
def running_fake(fixtures_dir: Path) -> Iterator[FakeChessCom]:
    """Run a fake chess.com on a free 127.0.0.1 port in a thread, for the `with` block."""
    folder = fixtures_dir / "chesscom"
    payloads = {path: (folder / name).read_bytes() for path, name in ROUTES.items()}
    payloads |= {path: json.dumps(body).encode() for path, body in SYNTHETIC.items()}
    fake = FakeChessCom(payloads)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    app = web.Application()
    app.router.add_get("/pub/{path:.+}", fake.handle)
    runner = web.AppRunner(app)

    async def start() -> None:
        fake.release = asyncio.Event()
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        fake.base_url = f"http://{host}:{port}/pub"

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert started.wait(10), "the fake chess.com did not start"
    try:
        yield fake
    finally:
        assert fake.release is not None
        loop.call_soon_threadsafe(fake.release.set)
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
