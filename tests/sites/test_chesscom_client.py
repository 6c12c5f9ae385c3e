"""The chess.com client against a real aiohttp server on 127.0.0.1 serving recorded payloads."""

from __future__ import annotations

import asyncio
import socket
from fractions import Fraction

import aiohttp
import pytest
from pydantic import BaseModel, ConfigDict

from bot.chesscom.client import VERSION, ChessComClient, ClientSettings
from bot.chesscom.reader import RatingSource, read_club_at_start
from bot.runtime.polite_http import (
    ApiNotFound,
    ApiPayloadError,
    ApiRefused,
    ApiTimeout,
    ApiUnavailable,
)
from tests.support.chesscom_fake import FakeChessCom

CONTACT = "ops@example.org"
USER_AGENT = f"Arbiter/{VERSION} ({CONTACT})"


class Sleeps:
    """An injected sleep that records the delays asked for and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def client_for(
    fake: FakeChessCom, sleeps: Sleeps, *, timeout: float = 5.0, retries: int = 3
) -> ChessComClient:
    settings = ClientSettings(
        contact=CONTACT, base_url=fake.base_url, timeout_seconds=timeout, max_retries=retries
    )
    return ChessComClient(settings, sleep=sleeps, backoff_seconds=1.0)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_every_request_carries_the_configured_user_agent(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        await client.team_match(12803)
        await client.team_match(5833, live=True)
        await client.club("chess-com-developer-community")
        await client.player("FarzyPlaysChess")
        await client.player_stats("erik")
    assert len(fake.requests) == 5
    assert {request.user_agent for request in fake.requests} == {USER_AGENT}


async def test_requests_are_serialised_one_in_flight(fake: FakeChessCom) -> None:
    fake.delay = 0.02
    async with client_for(fake, Sleeps()) as client:
        results = await asyncio.gather(
            client.team_match(12803),
            client.team_match(1000001),
            client.club("chess-com-developer-community"),
            client.club_members("chess-com-developer-community"),
            client.player("farzyplayschess"),
            client.player_stats("erik"),
        )
    assert len(results) == 6
    assert len(fake.requests) == 6
    assert fake.max_in_flight == 1
    # The fake does notice overlap: two clients (two locks) do run in parallel.
    fake.max_in_flight = 0
    async with client_for(fake, Sleeps()) as one, client_for(fake, Sleeps()) as other:
        await asyncio.gather(one.player("erik"), other.player("carol"))
    assert fake.max_in_flight == 2


async def test_etag_is_sent_back_and_a_304_returns_the_cached_body(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        first = await client.club("chess-com-developer-community")
        second = await client.club("chess-com-developer-community")
    requests = fake.seen("club/chess-com-developer-community")
    assert [request.status for request in requests] == [200, 304]
    assert requests[0].if_none_match is None
    assert requests[1].if_none_match is not None
    assert second == first
    assert second.members_count == 14905


async def test_changed_payload_replaces_the_cached_body(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        await client.player("erik")
        fake.serve("player/erik", {"username": "erik", "status": "closed:abuse"})
        changed = await client.player("erik")
    assert [request.status for request in fake.seen("player/erik")] == [200, 200]
    assert changed.is_closed


async def test_429_is_retried_after_the_retry_after_delay(fake: FakeChessCom) -> None:
    fake.fail("player/erik", 429, headers={"Retry-After": "7"})
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        profile = await client.player("erik")
    assert profile.status == "staff"
    assert [request.status for request in fake.seen("player/erik")] == [429, 200]
    assert sleeps.delays == [7.0]


async def test_5xx_is_retried_with_exponential_back_off(fake: FakeChessCom) -> None:
    fake.fail("match/12803", 503, times=2)
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        match = await client.team_match(12803)
    assert match.status == "finished"
    assert sleeps.delays == [1.0, 2.0]


async def test_retries_exhausted_raise_unavailable(fake: FakeChessCom) -> None:
    fake.fail("match/12803", 500, times=5)
    sleeps = Sleeps()
    async with client_for(fake, sleeps, retries=2) as client:
        with pytest.raises(ApiUnavailable, match=r"HTTP 500 \(after 3 attempts\)"):
            await client.team_match(12803)
    assert len(fake.seen("match/12803")) == 3
    assert sleeps.delays == [1.0, 2.0]


async def test_404_raises_not_found_at_once_with_chess_com_message(fake: FakeChessCom) -> None:
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        with pytest.raises(ApiNotFound) as caught:
            await client.player("nonexistent_user_xyz_123")
    assert caught.value.status == 404
    assert caught.value.message == 'User "nonexistent_user_xyz_123" not found.'
    assert caught.value.url.endswith("/pub/player/nonexistent_user_xyz_123")
    assert len(fake.requests) == 1
    assert sleeps.delays == []


async def test_410_is_not_found_too(fake: FakeChessCom) -> None:
    fake.fail("match/12803", 410)
    async with client_for(fake, Sleeps()) as client:
        with pytest.raises(ApiNotFound):
            await client.team_match(12803)


async def test_403_is_refused_without_retry(fake: FakeChessCom) -> None:
    fake.fail("player/erik", 403)
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        with pytest.raises(ApiRefused):
            await client.player("erik")
    assert sleeps.delays == []


async def test_slow_response_times_out(fake: FakeChessCom) -> None:
    fake.hang.add("player/slowpoke")
    sleeps = Sleeps()
    async with client_for(fake, sleeps, timeout=0.2, retries=1) as client:
        with pytest.raises(ApiTimeout, match=r"no answer within 0\.2 s"):
            await client.player("slowpoke")
    assert sleeps.delays == [1.0]


async def test_unreachable_server_raises_unavailable() -> None:
    settings = ClientSettings(
        contact=CONTACT, base_url=f"http://127.0.0.1:{closed_port()}/pub", max_retries=1
    )
    sleeps = Sleeps()
    async with ChessComClient(settings, sleep=sleeps) as client:
        with pytest.raises(ApiUnavailable, match="after 2 attempts"):
            await client.player("erik")
    assert sleeps.delays == [1.0]


async def test_unexpected_payload_is_a_payload_error(fake: FakeChessCom) -> None:
    fake.serve("match/999", {"teams": "not an object"})
    async with client_for(fake, Sleeps()) as client:
        with pytest.raises(ApiPayloadError, match="TeamMatch payload at teams"):
            await client.team_match(999)


async def test_a_body_that_is_not_json_is_a_payload_error_naming_it(fake: FakeChessCom) -> None:
    fake.serve_bytes("match/998", b"<html>maintenance</html>")
    async with client_for(fake, Sleeps()) as client:
        with pytest.raises(ApiPayloadError, match=r"^the answer is not JSON \(") as caught:
            await client.team_match(998)
    assert caught.value.status == 200 and caught.value.url.endswith("/pub/match/998")


async def test_a_shared_session_is_left_open(fake: FakeChessCom) -> None:
    async with aiohttp.ClientSession() as session:
        settings = ClientSettings(contact=CONTACT, base_url=fake.base_url)
        async with ChessComClient(settings, session=session) as client:
            await client.player("erik")
        assert not session.closed


async def test_any_settings_object_with_the_four_fields_plugs_in(fake: FakeChessCom) -> None:
    class ChessComSection(BaseModel):  # the shape of config.toml's [chesscom] section
        model_config = ConfigDict(frozen=True)
        base_url: str
        contact: str
        timeout_seconds: int
        max_retries: int

    section = ChessComSection(
        base_url=fake.base_url + "/", contact="hq@example.org", timeout_seconds=5, max_retries=0
    )
    async with ChessComClient(section) as client:
        assert (await client.player("erik")).username == "erik"
    assert fake.requests[0].path == "player/erik"
    assert fake.requests[0].user_agent == f"Arbiter/{VERSION} (hq@example.org)"


def test_a_contact_is_required() -> None:
    with pytest.raises(ValueError, match="contact"):
        ChessComClient(ClientSettings(contact="  "))


async def test_bad_ids_are_refused_before_any_request(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        with pytest.raises(ValueError, match="digits only"):
            await client.team_match("12803/../club")
    assert fake.requests == []


async def test_boards_are_read(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        daily = await client.match_board(12803, 1)
        live = await client.match_board(5833, 1, live=True)
    assert daily.board_scores == {"sorinel": Fraction(1), "kllr": Fraction(1)}
    assert [game.white.result for game in daily.games] == ["agreed", "repetition"]
    assert len(live.games) == 2


async def test_cl_5_cl_6_club_at_start_from_profile(fake: FakeChessCom) -> None:
    async with client_for(fake, Sleeps()) as client:
        profile, facts = await read_club_at_start(client, "chess-com-developer-community")
    assert profile.admins[:2] == ["bcurtis", "erik"]
    assert facts.members == 14905
    assert facts.avg_rating == 928
    assert len(fake.requests) == 1


async def test_cl_6_average_rating_computed_from_members(fake: FakeChessCom) -> None:
    members = ["34r7y4", "630r61k4mch3v5k1", "abat999", "0xjulian", "000rumbo000"]
    for name, rating in zip(members, [1000, 1501, 1200], strict=False):
        fake.serve(f"player/{name}/stats", {"chess_daily": {"last": {"rating": rating}}})
    fake.serve("player/0xjulian/stats", {"chess_blitz": {"last": {"rating": 2500}}})
    # "000rumbo000" and the other trimmed members are not served: 404, left out.
    async with client_for(fake, Sleeps()) as client:
        _, facts = await read_club_at_start(
            client, "chess-com-developer-community", RatingSource.MEMBERS
        )
    assert facts.members == 14905
    assert facts.avg_rating == float(Fraction(1000 + 1501 + 1200, 3))
    assert len(fake.seen("club/chess-com-developer-community/members")) == 1
    assert len([r for r in fake.requests if r.path.endswith("/stats")]) == 15


async def test_429_with_an_infinite_retry_after_falls_back_on_the_back_off(
    fake: FakeChessCom,
) -> None:
    # `float("inf")` parses, and asyncio.sleep(inf) would never return: the CLI would hang.
    fake.fail("player/erik", 429, headers={"Retry-After": "inf"})
    sleeps = Sleeps()
    async with client_for(fake, sleeps) as client:
        profile = await client.player("erik")
    assert profile.status == "staff"
    assert sleeps.delays == [1.0]
