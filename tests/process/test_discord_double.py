"""The Discord double's own behaviour, protocol by protocol, with a bare aiohttp client (no
bot): each rule of Discord's gateway and REST API that the double claims, so a test of the
bot against it proves something about Discord's rules and not about the double's whims."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from bot.offline.discord_messages import message_limit_problems
from bot.offline.discord_stub import DiscordStub
from tests.discord_double import DiscordDouble
from tests.discord_double.gateway import GUILD_MEMBERS
from tests.discord_double.ratelimits import Fault
from tests.discord_double.world import shard_of

TOKEN = "double-token"
AUTH = {"Authorization": f"Bot {TOKEN}"}
INTENTS = discord.Intents.default().value | GUILD_MEMBERS


@pytest.fixture
async def double() -> AsyncIterator[DiscordDouble]:
    """A double with a short heartbeat interval and no IDENTIFY throttling."""
    server = DiscordDouble(token=TOKEN, heartbeat_interval_ms=200, identify_window=0.0)
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    """An aiohttp client session."""
    async with aiohttp.ClientSession() as client:
        yield client


class Socket:
    """A bare gateway client: JSON frames, or zlib-stream decoded as discord.py does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, compressed: bool) -> None:
        self.ws = ws
        self.inflate = discord.utils._ActiveDecompressionContext() if compressed else None

    async def receive(self, timeout: float = 2.0) -> dict[str, Any]:
        """The next payload; fails if the socket closes instead."""
        while True:
            message = await self.ws.receive(timeout=timeout)
            assert message.type in (aiohttp.WSMsgType.TEXT, aiohttp.WSMsgType.BINARY), message
            if message.type is aiohttp.WSMsgType.BINARY:
                assert self.inflate is not None
                text = self.inflate.decompress(message.data)
                if text is None:
                    continue
                return dict(json.loads(text))
            return dict(json.loads(message.data))

    async def closed(self, timeout: float = 2.0) -> int | None:
        """Read until the double closes the socket; its close code."""
        while True:
            message = await self.ws.receive(timeout=timeout)
            if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                return self.ws.close_code

    async def send(self, op: int, data: Any) -> None:
        """Send one payload."""
        await self.ws.send_str(json.dumps({"op": op, "d": data}))

    async def identify(self, intents: int = INTENTS, shard: list[int] | None = None) -> None:
        """Send IDENTIFY with the double's token."""
        data: dict[str, Any] = {"token": TOKEN, "intents": intents, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await self.send(2, data)


async def connect(
    session: aiohttp.ClientSession, double: DiscordDouble, *, compress: bool = False, v: str = "10"
) -> Socket:
    """A socket on the URL `GET /gateway/bot` gives, HELLO read."""
    async with session.get(f"{double.api_base}/gateway/bot", headers=AUTH) as response:
        url = (await response.json())["url"]
    query = f"?v={v}&encoding=json" + ("&compress=zlib-stream" if compress else "")
    socket = Socket(await session.ws_connect(url + query), compress)
    if v == "10":
        hello = await socket.receive()
        assert hello["op"] == 10
        assert hello["d"]["heartbeat_interval"] == double.gateway.heartbeat_interval_ms
    return socket


async def ready(socket: Socket) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """READY and the GUILD_CREATEs that follow it (until the socket is quiet)."""
    first = await socket.receive()
    assert first["t"] == "READY", first
    guilds = []
    for _ in first["d"]["guilds"]:
        event = await socket.receive()
        assert event["t"] == "GUILD_CREATE"
        guilds.append(event["d"])
    return first["d"], guilds


async def test_heartbeats_are_acknowledged(double: DiscordDouble, session: Any) -> None:
    socket = await connect(session, double)
    for _ in range(3):
        await socket.send(1, None)
        assert (await socket.receive())["op"] == 11
    assert double.gateway.connections[0].heartbeats == 3


async def test_a_heartbeat_timeout_closes_the_socket_with_4009(
    double: DiscordDouble, session: Any
) -> None:
    socket = await connect(session, double)
    began = time.monotonic()
    assert await socket.closed() == 4009  # no heartbeat for 1.5 intervals (of 200 ms)
    assert 0.25 <= time.monotonic() - began < 1.5


async def test_identify_gives_ready_then_the_guilds_of_that_shard_only(
    double: DiscordDouble, session: Any
) -> None:
    guilds = [double.add_guild(f"G{n}") for n in range(6)]
    for shard in (0, 1):
        socket = await connect(session, double)
        await socket.identify(shard=[shard, 2])
        data, created = await ready(socket)
        mine = sorted(g.id for g in guilds if shard_of(g.id, 2) == shard)
        assert sorted(int(g["id"]) for g in data["guilds"]) == mine
        assert sorted(int(g["id"]) for g in created) == mine
        assert all(g["unavailable"] is True for g in data["guilds"])
        assert data["shard"] == [shard, 2] and data["resume_gateway_url"] == double.resume_url
        assert len(mine) == 3  # consecutive snowflakes alternate shards
        await socket.ws.close()


async def test_guild_create_lists_members_only_with_the_presences_intent(
    double: DiscordDouble, session: Any
) -> None:
    # Discord: without GUILD_PRESENCES, GUILD_CREATE's members are only the bot (and users
    # in voice); the rest come by request (op 8), which needs Server Members.
    double.privileged_intents |= discord.Intents(presences=True).value
    guild = double.add_guild("G")
    double.add_member(guild, "ann")
    presences = discord.Intents(presences=True).value
    for intents, count in ((INTENTS | presences, 2), (INTENTS, 1)):
        socket = await connect(session, double)
        await socket.identify(intents)
        _, (created,) = await ready(socket)
        assert len(created["members"]) == count
        await socket.ws.close()


@pytest.mark.parametrize(
    ("identify", "code"),
    [
        ({"token": "wrong", "intents": INTENTS}, 4004),
        ({"token": TOKEN}, 4013),
        ({"token": TOKEN, "intents": INTENTS | discord.Intents(presences=True).value}, 4014),
        ({"token": TOKEN, "intents": INTENTS, "shard": [2, 2]}, 4010),
    ],
)
async def test_identify_is_refused_with_discords_close_codes(
    double: DiscordDouble, session: Any, identify: dict[str, Any], code: int
) -> None:
    socket = await connect(session, double)
    await socket.send(2, identify)
    assert await socket.closed() == code


async def test_a_missing_privileged_intent_closes_4014(session: Any) -> None:
    # The application has not switched Server Members on in the Developer Portal.
    double = DiscordDouble(token=TOKEN, privileged_intents=0)
    await double.start()
    try:
        socket = await connect(session, double)
        await socket.identify(INTENTS)
        assert await socket.closed() == 4014
    finally:
        await double.stop()


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        (['{"op": 8, "d": {"guild_id": "1", "query": "", "limit": 0}}'], 4003),
        (["not json"], 4002),
        (
            ['{"op": 2, "d": {"token": "double-token", "intents": 1}}', '{"op": 99, "d": null}'],
            4001,
        ),
        (['{"op": 2, "d": {"token": "double-token", "intents": 1}}'] * 2, 4005),
    ],
)
async def test_protocol_errors_close_with_discords_codes(
    double: DiscordDouble, session: Any, frames: list[str], code: int
) -> None:
    socket = await connect(session, double)
    for frame in frames:
        await socket.ws.send_str(frame)
    assert await socket.closed() == code


async def test_an_unknown_api_version_closes_4012(double: DiscordDouble, session: Any) -> None:
    socket = await connect(session, double, v="6")
    assert await socket.closed() == 4012


async def test_more_than_120_events_a_minute_closes_4008(
    double: DiscordDouble, session: Any
) -> None:
    socket = await connect(session, double)
    for _ in range(121):
        await socket.ws.send_str('{"op": 1, "d": null}')
    assert await socket.closed() == 4008


async def test_zlib_stream_frames_decode_with_discord_py(
    double: DiscordDouble, session: Any
) -> None:
    double.add_guild("G")
    socket = await connect(session, double, compress=True)
    await socket.identify()
    data, created = await ready(socket)
    assert data["session_id"] and created[0]["name"] == "G"
    assert double.gateway.connections[0].compress


async def test_resume_replays_the_missed_events_then_resumed(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    socket = await connect(session, double)
    await socket.identify()
    data, _ = await ready(socket)
    seq = 2  # READY, GUILD_CREATE
    await socket.ws.close(code=4000)
    await double.wait_for(lambda: double.gateway.connected(0) is None)
    double.add_role(guild, "late")
    double.gateway.dispatch(guild.id, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id)})
    resumed = Socket(
        await session.ws_connect(data["resume_gateway_url"] + "?v=10&encoding=json"), False
    )
    assert (await resumed.receive())["op"] == 10
    await resumed.send(6, {"token": TOKEN, "session_id": data["session_id"], "seq": seq})
    replayed, done = await resumed.receive(), await resumed.receive()
    assert (replayed["t"], replayed["s"]) == ("GUILD_ROLE_CREATE", 3)
    assert done["t"] == "RESUMED"
    assert double.gateway.connections[-1].path == "/resume"


async def test_resuming_an_unknown_session_gets_invalid_session(
    double: DiscordDouble, session: Any
) -> None:
    socket = await connect(session, double)
    await socket.send(6, {"token": TOKEN, "session_id": "nope", "seq": 1})
    assert await socket.receive() == {"op": 9, "d": False, "s": None, "t": None}


async def test_identifying_faster_than_the_session_start_limit_gets_invalid_session(
    session: Any,
) -> None:
    double = DiscordDouble(token=TOKEN, max_concurrency=1, identify_window=5.0)
    await double.start()
    try:
        first = await connect(session, double)
        await first.identify(shard=[0, 2])
        await ready(first)
        second = await connect(session, double)  # bucket 1 % 1 == 0: the same bucket
        await second.identify(shard=[1, 2])
        assert (await second.receive())["op"] == 9
        assert double.gateway.refused_identifies == 1
    finally:
        await double.stop()


async def test_member_chunks_answer_a_request_for_the_whole_list(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    for n in range(1500):
        double.add_member(guild, f"m{n}")
    socket = await connect(session, double)
    await socket.identify()
    await ready(socket)
    await socket.send(8, {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n1"})
    chunks = [await socket.receive(), await socket.receive()]
    assert [c["t"] for c in chunks] == ["GUILD_MEMBERS_CHUNK"] * 2
    assert [c["d"]["chunk_index"] for c in chunks] == [0, 1]
    assert sum(len(c["d"]["members"]) for c in chunks) == 1501  # with the bot
    assert {c["d"]["nonce"] for c in chunks} == {"n1"}


async def test_test_api_closes_reconnects_and_invalidates(
    double: DiscordDouble, session: Any
) -> None:
    socket = await connect(session, double)
    await socket.identify()
    await ready(socket)
    await double.gateway.reconnect(0)
    assert (await socket.receive())["op"] == 7
    await double.gateway.invalidate(0)
    assert (await socket.receive()) == {"op": 9, "d": False, "s": None, "t": None}
    assert all(s.ended for s in double.gateway.sessions.values())


# -- REST ------------------------------------------------------------------------------------


async def rest(
    session: aiohttp.ClientSession, double: DiscordDouble, method: str, path: str, **kwargs: Any
) -> tuple[int, Any, Any]:
    """One REST request to the double: status, decoded body, headers."""
    headers = kwargs.pop("headers", AUTH)
    async with session.request(
        method, double.api_base + path, headers=headers, **kwargs
    ) as response:
        body = await response.json() if response.content_type == "application/json" else None
        assert body is None or response.headers["Content-Type"] == "application/json"
        return response.status, body, response.headers


async def test_every_answer_carries_rate_limit_headers(double: DiscordDouble, session: Any) -> None:
    channel = double.add_guild("G").channel("general")
    for method, path, kwargs in [
        ("GET", "/users/@me", {}),
        ("GET", f"/channels/{channel.id}/messages/1", {}),  # 404
        ("POST", f"/channels/{channel.id}/messages", {"json": {"content": "x" * 2001}}),  # 400
        ("POST", f"/channels/{channel.id}/messages", {"json": {"content": "hi"}}),
    ]:
        status, _, headers = await rest(session, double, method, path, **kwargs)
        assert status in (200, 400, 404)
        for name in ("Limit", "Remaining", "Reset", "Reset-After", "Bucket"):
            assert f"X-RateLimit-{name}" in headers, (path, status, name)


async def test_a_route_over_its_limit_gets_429_with_retry_after(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    general, other = guild.channel("general"), guild.channel("announcements")
    double.rest.limiter.limit("POST /channels/{channel_id}/messages", 2, 0.5)
    path = f"/channels/{general.id}/messages"
    answers = [await rest(session, double, "POST", path, json={"content": "a"}) for _ in range(3)]
    assert [a[0] for a in answers] == [200, 200, 429]
    assert answers[1][2]["X-RateLimit-Remaining"] == "0"
    _, body, headers = answers[2]
    assert body["global"] is False and 0 < body["retry_after"] <= 0.5
    assert headers["X-RateLimit-Scope"] == "user" and float(headers["Retry-After"]) > 0
    assert headers["Via"]  # discord.py trusts a 429 only from Discord's edge
    # The limit is per channel: another channel's bucket is untouched.
    assert (
        await rest(session, double, "POST", f"/channels/{other.id}/messages", json={"content": "a"})
    )[0] == 200
    await asyncio.sleep(body["retry_after"])  # the window of the limited bucket ends
    assert (await rest(session, double, "POST", path, json={"content": "a"}))[0] == 200


async def test_scripted_global_429_and_5xx(double: DiscordDouble, session: Any) -> None:
    channel = double.add_guild("G").channel("general")
    path = f"/channels/{channel.id}/messages"
    double.rest.limiter.fault(Fault(429, "POST", retry_after=0.25, scope="global"))
    double.rest.limiter.fault(Fault(503, "POST", times=2))
    status, body, headers = await rest(session, double, "POST", path, json={"content": "a"})
    assert status == 429 and body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global" and body["retry_after"] == 0.25
    assert [
        (await rest(session, double, "POST", path, json={"content": "a"}))[0] for _ in range(3)
    ] == [503, 503, 200]
    assert len(double.channel_messages(channel)) == 1  # the refused ones made nothing


async def test_a_lost_answer_then_the_same_nonce_returns_the_message_made(
    double: DiscordDouble, session: Any
) -> None:
    channel = double.add_guild("G").channel("general")
    path = f"/channels/{channel.id}/messages"
    double.rest.limiter.fault(Fault(500, "POST", after=True))
    body = {"content": "once", "nonce": "outbox-1", "enforce_nonce": True}
    assert (await rest(session, double, "POST", path, json=body))[0] == 500
    status, message, _ = await rest(session, double, "POST", path, json=body)
    assert status == 200 and message["content"] == "once"
    assert [m.content for m in double.channel_messages(channel)] == ["once"]
    assert double.repeated_nonces == ["outbox-1"]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"description": "x" * 4097}]},
            ("embeds", "0", "description"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v"}] * 26}]},
            ("embeds", "0", "fields"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
        (
            {"content": "a", "components": [{"type": 1, "components": []}] * 6},
            ("components",),
            "BASE_TYPE_MAX_LENGTH",
        ),
    ],
)
async def test_a_body_over_a_limit_gets_400_in_discords_shape(
    double: DiscordDouble, session: Any, body: dict[str, Any], path: tuple[str, ...], code: str
) -> None:
    channel = double.add_guild("G").channel("general")
    assert message_limit_problems(body), "the offline stub refuses it too"
    status, error, _ = await rest(
        session, double, "POST", f"/channels/{channel.id}/messages", json=body
    )
    assert status == 400 and error["code"] == 50035 and error["message"] == "Invalid Form Body"
    node = error["errors"]
    for part in path:
        node = node[part]
    assert node["_errors"][0]["code"] == code
    assert double.channel_messages(channel) == []


async def test_an_empty_message_and_a_denied_channel_are_refused(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    channel = guild.channel("general")
    status, error, _ = await rest(
        session, double, "POST", f"/channels/{channel.id}/messages", json={}
    )
    assert (status, error["code"]) == (400, 50006)
    channel.bot_denied = True
    status, error, _ = await rest(
        session, double, "POST", f"/channels/{channel.id}/messages", json={"content": "a"}
    )
    assert (status, error["code"]) == (403, 50013)
    status, error, _ = await rest(
        session, double, "POST", "/channels/1/messages", json={"content": "a"}
    )
    assert (status, error["code"]) == (404, 10003)


async def test_direct_messages_open_a_dm_channel_and_closed_ones_get_50007(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    alice = double.add_member(guild, "alice")
    path = "/users/@me/channels"
    status, channel, _ = await rest(session, double, "POST", path, json={"recipient_id": alice.id})
    assert status == 200 and channel["type"] == 1
    assert channel["recipients"][0]["id"] == str(alice.id)
    _, again, _ = await rest(session, double, "POST", path, json={"recipient_id": str(alice.id)})
    assert again["id"] == channel["id"]  # the same channel every time
    status, error, _ = await rest(session, double, "POST", path, json={"recipient_id": 1})
    assert (status, error["code"]) == (400, 50033)

    messages = f"/channels/{channel['id']}/messages"
    body = {"content": "hello", "nonce": "n-1", "enforce_nonce": True}
    status, first, _ = await rest(session, double, "POST", messages, json=body)
    assert status == 200 and "guild_id" not in first
    _, repeated, _ = await rest(session, double, "POST", messages, json=body)
    assert repeated["id"] == first["id"]
    assert [m.content for m in double.dms(alice)] == ["hello"]

    double.close_dms(alice)
    status, error, _ = await rest(session, double, "POST", messages, json={"content": "no"})
    assert (status, error) == (403, {"code": 50007, "message": "Cannot send messages to this user"})
    assert len(double.dms(alice)) == 1


async def test_a_member_who_left_is_unknown_and_gets_no_direct_message(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    alice = double.add_member(guild, "alice")
    member = f"/guilds/{guild.id}/members/{alice.id}"
    status, found, _ = await rest(session, double, "GET", member)
    assert status == 200 and found["user"]["id"] == str(alice.id)
    _, channel, _ = await rest(
        session, double, "POST", "/users/@me/channels", json={"recipient_id": alice.id}
    )
    double.remove_member(guild, alice)
    status, error, _ = await rest(session, double, "GET", member)
    assert (status, error["code"]) == (404, 10007)
    messages = f"/channels/{channel['id']}/messages"
    status, error, _ = await rest(session, double, "POST", messages, json={"content": "hi"})
    assert (status, error["code"]) == (403, 50007)  # no guild in common with the bot


async def test_multipart_files_are_kept_and_served(double: DiscordDouble, session: Any) -> None:
    channel = double.add_guild("G").channel("general")
    form = aiohttp.FormData()
    form.add_field(
        "payload_json",
        json.dumps({"content": "table", "attachments": [{"id": 0, "filename": "t.png"}]}),
    )
    form.add_field("files[0]", b"\x89PNG data", filename="t.png", content_type="image/png")
    status, message, _ = await rest(
        session, double, "POST", f"/channels/{channel.id}/messages", data=form
    )
    assert status == 200 and message["attachments"][0]["filename"] == "t.png"
    (stored,) = double.channel_messages(channel)
    assert stored.files == {"t.png": b"\x89PNG data"}
    async with session.get(message["attachments"][0]["url"]) as response:
        assert await response.read() == b"\x89PNG data"


async def test_a_request_without_the_token_gets_401(double: DiscordDouble, session: Any) -> None:
    status, error, _ = await rest(session, double, "GET", "/users/@me", headers={})
    assert status == 401 and error["message"] == "401: Unauthorized"


async def test_command_sync_is_checked_against_discords_limits(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    path = f"/applications/{double.application_id}/guilds/{guild.id}/commands"
    good = {"name": "ping", "description": "Ping.", "type": 1}
    bad = [
        good,
        {"name": "Bad Name", "description": "x", "type": 1},
        {"name": "long", "description": "x" * 101, "type": 1},
        {
            "name": "opts",
            "description": "o",
            "type": 1,
            "options": [
                {"name": "a", "description": "a", "type": 3},
                {"name": "b", "description": "b", "type": 3, "required": True},
            ],
        },
    ]
    status, error, _ = await rest(session, double, "PUT", path, json=bad)
    assert status == 400 and error["code"] == 50035
    assert set(error["errors"]) == {"1", "2", "3"}
    assert error["errors"]["2"]["description"]["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"
    assert error["errors"]["3"]["options"]["1"]["required"]["_errors"]
    assert double.commands.get(guild.id) is None  # nothing published
    status, stored, _ = await rest(session, double, "PUT", path, json=[good])
    assert status == 200 and stored[0]["name"] == "ping" and stored[0]["guild_id"] == str(guild.id)
    again = (await rest(session, double, "PUT", path, json=[good]))[1]
    assert again[0]["id"] == stored[0]["id"]  # the same name keeps its id


async def test_interaction_callbacks_once_and_within_3_seconds(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    member = double.add_member(guild, "ann")
    double.commands[guild.id] = [{"id": "1", "name": "ping", "type": 1, "options": []}]
    first = double.command_payload(member, "ping", {})
    path = f"/interactions/{first.id}/{first.token}/callback?with_response=true"
    answer = {"type": 4, "data": {"content": "pong", "flags": 64}}
    status, body, _ = await rest(session, double, "POST", path, json=answer, headers={})
    assert status == 200 and body["resource"]["message"]["content"] == "pong"
    assert body["interaction"]["response_message_ephemeral"] is True
    status, error, _ = await rest(session, double, "POST", path, json=answer, headers={})
    assert (status, error["code"]) == (400, 40060)
    double.callback_window = 0.05
    late = double.command_payload(member, "ping", {})
    await asyncio.sleep(0.06)
    path = f"/interactions/{late.id}/{late.token}/callback"
    status, error, _ = await rest(session, double, "POST", path, json=answer, headers={})
    assert (status, error["code"]) == (404, 10062)


async def test_the_first_followup_after_a_defer_replaces_thinking(
    double: DiscordDouble, session: Any
) -> None:
    guild = double.add_guild("G")
    member = double.add_member(guild, "ann")
    double.commands[guild.id] = [{"id": "1", "name": "ping", "type": 1, "options": []}]
    sent = double.command_payload(member, "ping", {})
    callback = f"/interactions/{sent.id}/{sent.token}/callback"
    assert (await rest(session, double, "POST", callback, json={"type": 5}, headers={}))[0] == 204
    hook = f"/webhooks/{double.application_id}/{sent.token}"
    status, message, _ = await rest(
        session,
        double,
        "POST",
        hook + "?wait=true",
        json={"content": "done", "flags": 64},
        headers={},
    )
    assert status == 200 and message["id"] == str(sent.original.id if sent.original else 0)
    assert message["flags"] == 0  # the defer was public: so is the answer
    status, message, _ = await rest(
        session, double, "POST", hook + "?wait=true", json={"content": "more"}, headers={}
    )
    assert message["id"] != str(sent.original.id if sent.original else 0)
    status, original, _ = await rest(
        session, double, "GET", hook + "/messages/@original", headers={}
    )
    assert original["content"] == "done"


def keys(value: Any, path: str = "") -> set[str]:
    """Every key path of a JSON value (list items as `[]`, ids as `{id}`)."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            name = f"{path}.{'{id}' if key.isdigit() else key}"
            found |= {name} | keys(item, name)
    elif isinstance(value, list):
        for item in value:
            found |= keys(item, f"{path}[]")
    return found


async def test_interactions_have_the_shapes_the_offline_stub_builds(double: DiscordDouble) -> None:
    # The stub (bot/offline/discord_stub.py) and the double hand the bot the same payloads:
    # every key the stub sends for a command with a member, a role and a channel option,
    # the double sends too (ids aside, which only the double takes from its world).
    client = discord.Client(intents=discord.Intents.none())
    tree = discord.app_commands.CommandTree(client)

    @tree.command(description="Check.")
    async def check(
        interaction: discord.Interaction,
        who: discord.Member,
        role: discord.Role,
        where: discord.TextChannel,
    ) -> None:
        """Unused: only its payload is built."""

    client.tree = tree  # type: ignore[attr-defined]
    stub = DiscordStub(client)
    stub_guild = 800_000_000_000_000_009
    stub.add_guild(stub_guild, roles=("HQ",))
    author, other = stub.member(guild_id=stub_guild), stub.member(guild_id=stub_guild)
    options = {
        "who": other,
        "role": stub.role("HQ", stub_guild),
        "where": stub.channel("general", stub_guild),
    }
    stub_payload = stub.command_payload("check", author, options)

    guild = double.add_guild("G", roles=("HQ",))
    double.commands[guild.id] = [
        {"id": "1"} | command.to_dict(tree) for command in tree.get_commands()
    ]
    ann, bob = double.add_member(guild, "ann"), double.add_member(guild, "bob")
    sent = double.command_payload(
        ann, "check", {"who": bob, "role": guild.role("HQ"), "where": guild.channel("general")}
    )
    assert keys(stub_payload) - keys(sent.payload) == set()
    assert sent.payload["data"]["options"][0]["value"] == str(bob.id)
    assert set(sent.payload["data"]["resolved"]) == {"users", "members", "roles", "channels"}
