"""The chess.com stand-in (`bot.offline.chesscom_standin`) for tests: loaded with the recorded
payloads of `tests/fixtures/chesscom`, run in its own thread and event loop (so both async
client tests and the synchronous CLI, which calls `asyncio.run`, can talk to it), with a
per-request `delay` and paths that `hang` until the test ends."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.offline.chesscom_standin import ChessComStandIn, Seen

__all__ = ["ROUTES", "SYNTHETIC", "FakeChessCom", "Seen", "running_fake"]

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
"""API path (after `/pub/`) → recorded payload in `tests/fixtures/chesscom`."""

SYNTHETIC: dict[str, Any] = {
    # A player who never played daily chess has no `chess_daily` at all.
    "player/farzyplayschess/stats": {"chess_rapid": {"record": {"win": 1, "loss": 0}}},
    "player/erik": {"username": "erik", "status": "staff"},
    "player/carol": {"username": "carol", "status": "closed:fair_play_violations"},
}


@dataclass
class FakeChessCom(ChessComStandIn):
    """The stand-in, slowed by `delay` seconds per request; paths in `hang` wait for the end."""

    delay: float = 0.0
    hang: set[str] = field(default_factory=set)
    release: asyncio.Event | None = None

    async def before_answer(self, path: str) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if path in self.hang and self.release is not None:
            await self.release.wait()


@contextmanager
def running_fake(fixtures_dir: Path) -> Iterator[FakeChessCom]:
    """Run a fake chess.com on a free 127.0.0.1 port in a thread, for the `with` block."""
    folder = fixtures_dir / "chesscom"
    fake = FakeChessCom()
    for path, name in ROUTES.items():
        fake.serve_bytes(path, (folder / name).read_bytes())
    for path, body in SYNTHETIC.items():
        fake.serve_bytes(path, json.dumps(body).encode())
    loop = asyncio.new_event_loop()
    started = threading.Event()

    async def start() -> None:
        fake.release = asyncio.Event()
        await fake.start()

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
        asyncio.run_coroutine_threadsafe(fake.stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
