"""The lichess client against the lichess stand-in, a real aiohttp server on 127.0.0.1 serving
the export written from lichess's documentation (tests/data/lichess): the headers and query it
sends, ETag/304, at least a minute waited after a 429 (the injected sleep says how long),
5xx retried then given up, an outage an error and never a result."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs

import pytest

from bot.lichess.client import LichessClient, LichessClientSettings
from bot.offline.lichess_standin import LichessStandIn
from bot.runtime.polite_http import (
    VERSION,
    ApiNotFound,
    ApiPayloadError,
    ApiRefused,
    ApiUnavailable,
)
from tests.support.paths import ROOT

EXPORT = (
    ROOT
    / "tests"
    / "data"
    / "lichess"
    / "games_user_alba-rook_vs_Bruno_Knight_WRITTEN_FROM_DOCS.ndjson"
)
CONTACT = "tour-hq@example.org"
SESSION = datetime(2021, 2, 7, 17, tzinfo=UTC)
USER = "api/games/user/alba-rook"


class Sleeps:
    """An injected sleep that records the delays asked for and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@dataclass
class SlowLichess(LichessStandIn):
    """The stand-in, each answer delayed so overlapping requests would show."""

    delay: float = 0.0

    async def before_answer(self, path: str) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)


@pytest.fixture
async def lichess() -> AsyncIterator[SlowLichess]:
    standin = SlowLichess()
    standin.add_ndjson(EXPORT.read_bytes())
    await standin.start()
    yield standin
    await standin.stop()


def client_for(url: str, sleeps: Sleeps, retries: int = 3) -> LichessClient:
    settings = LichessClientSettings(contact=CONTACT, base_url=url, max_retries=retries)
    return LichessClient(settings, sleep=sleeps, backoff_seconds=1.0)


async def test_the_export_is_asked_for_with_the_contact_ndjson_and_the_window(
    lichess: SlowLichess,
) -> None:
    async with client_for(lichess.base_url, Sleeps()) as client:
        games = await client.user_games(
            "alba-rook", vs="Bruno_Knight", since=SESSION, until=SESSION + timedelta(hours=3)
        )
    assert [game.id for game in games] == ["kR4tQw2Z", "Hx2vN8cE"]  # the aborted one is older
    assert all(game.pgn for game in games)
    (seen,) = lichess.requests
    assert seen.path == USER
    assert seen.user_agent == f"Arbiter/{VERSION} ({CONTACT})"
    assert seen.accept == "application/x-ndjson"
    query = parse_qs(seen.query)
    assert query["vs"] == ["Bruno_Knight"] and query["pgnInJson"] == ["true"]
    assert query["since"] == [str(int(SESSION.timestamp() * 1000))]
    assert query["until"] == [str(int((SESSION + timedelta(hours=3)).timestamp() * 1000))]


async def test_an_etag_is_sent_back_and_a_304_returns_the_remembered_games(
    lichess: SlowLichess,
) -> None:
    async with client_for(lichess.base_url, Sleeps()) as client:
        first = await client.user_games("alba-rook", vs="Bruno_Knight")
        second = await client.user_games("alba-rook", vs="Bruno_Knight")
    assert [seen.status for seen in lichess.requests] == [200, 304]
    assert lichess.requests[0].if_none_match is None
    assert lichess.requests[1].if_none_match is not None
    assert second == first and len(second) == 3


@pytest.mark.parametrize(
    ("retry_after", "waited"), [("5", LichessClient.RATE_LIMIT_WAIT), ("90", 90.0)]
)
async def test_a_429_waits_at_least_a_full_minute(
    lichess: SlowLichess, retry_after: str, waited: float
) -> None:
    lichess.fail(USER, 429, headers={"Retry-After": retry_after})
    sleeps = Sleeps()
    async with client_for(lichess.base_url, sleeps) as client:
        games = await client.user_games("alba-rook")
    assert len(games) == 3
    assert sleeps.delays == [waited] and waited >= 60
    assert [seen.status for seen in lichess.requests] == [429, 200]


async def test_a_429_without_retry_after_waits_a_minute_too(lichess: SlowLichess) -> None:
    lichess.fail(USER, 429)
    sleeps = Sleeps()
    async with client_for(lichess.base_url, sleeps) as client:
        await client.user_games("alba-rook")
    assert sleeps.delays == [60.0]


async def test_5xx_is_retried_with_back_off_then_given_up(lichess: SlowLichess) -> None:
    lichess.fail(USER, 503, times=2)
    sleeps = Sleeps()
    async with client_for(lichess.base_url, sleeps, retries=2) as client:
        assert len(await client.user_games("alba-rook")) == 3
        assert sleeps.delays == [1.0, 2.0]
        lichess.fail(USER, 502, times=5)
        with pytest.raises(ApiUnavailable, match=r"HTTP 502 \(after 3 attempts\)"):
            await client.user_games("alba-rook")
    assert sleeps.delays == [1.0, 2.0, 1.0, 2.0]
    assert [seen.status for seen in lichess.requests][-3:] == [502, 502, 502]


async def test_an_outage_is_an_error_never_a_result() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleeps = Sleeps()
    async with client_for(f"http://127.0.0.1:{port}", sleeps, retries=1) as client:
        with pytest.raises(ApiUnavailable, match="after 2 attempts"):
            await client.user_games("alba-rook")
    assert sleeps.delays == [1.0]


async def test_an_unknown_user_is_not_found_at_once(lichess: SlowLichess) -> None:
    sleeps = Sleeps()
    async with client_for(lichess.base_url, sleeps) as client:
        with pytest.raises(ApiNotFound, match="Not found") as caught:
            await client.user_games("nobody-here")
    assert caught.value.status == 404 and sleeps.delays == []


async def test_a_bad_request_is_refused_and_a_bad_line_is_a_payload_error(
    lichess: SlowLichess,
) -> None:
    lichess.fail(USER, 400)
    async with client_for(lichess.base_url, Sleeps()) as client:
        with pytest.raises(ApiRefused):
            await client.user_games("alba-rook")
        lichess.add_game({"createdAt": 1, "players": {"white": {"user": {"id": "carla"}}}})
        with pytest.raises(ApiPayloadError, match="line 1: unexpected game at id"):
            await client.user_games("carla")


async def test_requests_are_serialised_one_in_flight(lichess: SlowLichess) -> None:
    lichess.delay = 0.02
    async with client_for(lichess.base_url, Sleeps()) as client:
        await asyncio.gather(*(client.user_games("alba-rook", vs="Bruno_Knight") for _ in range(4)))
    assert lichess.max_in_flight == 1 and len(lichess.requests) == 4


@pytest.mark.parametrize("name", ["", "a b", "x" * 31, "../admin", "-dash", "ü"])
async def test_a_name_that_is_not_a_lichess_username_is_refused_before_any_request(
    lichess: SlowLichess, name: str
) -> None:
    async with client_for(lichess.base_url, Sleeps()) as client:
        with pytest.raises(ValueError, match="not a lichess username"):
            await client.user_games(name)
        with pytest.raises(ValueError, match="not a lichess username"):
            await client.user_games("alba-rook", vs=name)
    assert lichess.requests == []


def test_a_contact_is_required() -> None:
    with pytest.raises(ValueError, match="lichess requires a contact"):
        LichessClient(LichessClientSettings(contact=" "))
