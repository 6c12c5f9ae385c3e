"""The double's gateway: Discord's WebSocket protocol (API v10, JSON, optionally zlib-stream).

As Discord's "Gateway" documentation describes it:

- on connect: op 10 HELLO with `heartbeat_interval`; the client heartbeats (op 1, answered
  by op 11 ACK) at that interval, and a connection that lets 1.5 intervals pass without
  one is closed with 4009 (session timed out);
- op 2 IDENTIFY: the token (else 4004), `intents` (none: 4013; a privileged intent the
  application has not enabled — Server Members, Presences, Message Content — 4014), `shard`
  `[id, count]` (an id out of range: 4010; more than 2,500 guilds on a shard: 4011), at most
  `max_concurrency` per 5 s per bucket `shard_id % max_concurrency` (faster: op 9); answered
  by READY (`session_id`, `resume_gateway_url`, the shard's guilds unavailable) then one
  GUILD_CREATE per guild of the shard (its member list only with the Presences intent,
  else just the bot); a second IDENTIFY on one connection is 4005;
- op 6 RESUME: the events sent after the client's `seq` are replayed, then RESUMED; an
  unknown or ended session gets op 9 INVALID_SESSION `false`;
- op 8 REQUEST_GUILD_MEMBERS: GUILD_MEMBERS_CHUNK events of up to 1,000 members (the whole
  list needs the Server Members intent: 4013 otherwise);
- more than 120 events per 60 s from the client: 4008; an unknown op: 4001; a frame that is
  not JSON: 4002; anything before IDENTIFY but a heartbeat: 4003;
- a guild's events go to the session of its shard, `(guild_id >> 22) % shard_count`; a
  session whose socket is gone keeps its events for a RESUME.

A test can close a shard's socket with any code, send op 7 RECONNECT, or op 9 INVALID_SESSION.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.discord_double.rest import reply
from tests.discord_double.world import shard_of

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11
API_VERSION = "10"
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
MAX_GUILDS_PER_SHARD = 2500
CHUNK_SIZE = 1000
HEARTBEAT_GRACE = 1.5
SEND_LIMIT = (120, 60.0)
RESUMABLE_CLOSES = {4000, 4001, 4002, 4003, 4005, 4008}
"""Close codes after which Discord lets the session resume (the others end it)."""


@dataclass
class Session:
    """One gateway session (an IDENTIFY): its shard, intents, sequence and replay backlog."""

    id: str
    shard_id: int
    shard_count: int
    intents: int
    connection: Connection | None = None
    seq: int = 0
    backlog: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=10_000))
    ended: bool = False
    resumes: int = 0


@dataclass
class Connection:
    """One WebSocket: the path it came in on, its compression, and what happened on it."""

    socket: web.WebSocketResponse
    path: str
    compress: bool
    number: int
    session: Session | None = None
    last_heartbeat: float = field(default_factory=time.monotonic)
    heartbeats: int = 0
    received: deque[float] = field(default_factory=deque)
    close_code: int | None = None
    """The code the double closed it with (None: the client closed it, or it dropped)."""
    client_close_code: int | None = None
    _deflate: Any = None
    _queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    on_sent: Any = None

    def __post_init__(self) -> None:
        if self.compress:
            self._deflate = zlib.compressobj()

    def put(self, payload: dict[str, Any]) -> None:
        """Queue a payload: one writer sends them in the order they were put."""
        self._queue.put_nowait(payload)

    async def write_all(self) -> None:
        """The writer: send queued payloads until the socket closes."""
        while True:
            payload = await self._queue.get()
            if not self.open:
                return
            try:
                await self.send(payload)
            except (ConnectionError, RuntimeError):
                return
            if self.on_sent is not None:
                self.on_sent(self, payload)

    @property
    def open(self) -> bool:
        """Whether frames can still be sent."""
        return not self.socket.closed

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one gateway payload (zlib-stream: one shared deflate stream, each message
        ending in a sync flush, as Discord sends it)."""
        text = json.dumps(payload, separators=(",", ":"))
        if self._deflate is not None:
            data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
            await self.socket.send_bytes(data)
        else:
            await self.socket.send_str(text)

    async def close(self, code: int, reason: str = "") -> None:
        """Close with a Discord close code."""
        if self.close_code is None:
            self.close_code = code
        await self.socket.close(code=code, message=reason.encode())


class Gateway:
    """Every session and connection of the double's gateway."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.identifies: list[tuple[float, int, int]] = []
        """(time, shard id, shard count) of each accepted IDENTIFY."""
        self.refused_identifies = 0
        self._identified: dict[int, float] = {}  # bucket → time of its last IDENTIFY
        self.heartbeat_interval_ms = 41_250

    # -- the socket ------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Accept one WebSocket and serve it until it closes."""
        query = request.query
        compress = query.get("compress")
        if query.get("encoding", "json") != "json" or compress not in (None, "zlib-stream"):
            return reply({"message": "unsupported encoding or compression", "code": 0}, status=400)
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        connection = Connection(
            socket, request.path, compress == "zlib-stream", len(self.connections)
        )
        connection.on_sent = self._sent
        self.connections.append(connection)
        self.double.changed()
        watchdog = asyncio.create_task(self._watch_heartbeats(connection))
        writer = asyncio.create_task(connection.write_all())
        try:
            if query.get("v") != API_VERSION:
                await connection.close(4012, "Invalid API version")
                return socket
            connection.put(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                }
            )
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    await connection.close(4002, "Decode error")
                    break
                await self._receive(connection, message.data)
        finally:
            for task in (watchdog, writer):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if connection.close_code is None:
                connection.client_close_code = socket.close_code
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                if connection.close_code is None and socket.close_code in (1000, 1001):
                    session.ended = True  # the client ended its session (a clean stop)
                if (
                    connection.close_code is not None
                    and connection.close_code not in RESUMABLE_CLOSES
                ):
                    session.ended = True
            self.double.changed()
        return socket

    async def _watch_heartbeats(self, connection: Connection) -> None:
        """Close with 4009 once 1.5 intervals pass without a heartbeat."""
        interval = self.heartbeat_interval_ms / 1000
        while connection.open:
            await asyncio.sleep(min(interval / 4, 1.0))
            if time.monotonic() - connection.last_heartbeat > interval * HEARTBEAT_GRACE:
                await connection.close(4009, "Session timed out")
                return

    async def _receive(self, connection: Connection, text: str) -> None:
        """One frame from the client: counted (4008 over the limit), decoded, handled."""
        now = time.monotonic()
        connection.received.append(now)
        while connection.received and connection.received[0] < now - SEND_LIMIT[1]:
            connection.received.popleft()
        if len(connection.received) > SEND_LIMIT[0]:
            await connection.close(4008, "Rate limited")
            return
        try:
            payload = json.loads(text)
            op, data = payload["op"], payload.get("d")
        except (ValueError, KeyError, TypeError):
            await connection.close(4002, "Decode error")
            return
        if op == HEARTBEAT:
            connection.last_heartbeat = now
            connection.heartbeats += 1
            connection.put({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif connection.session is None:
            await connection.close(4003, "Not authenticated")
        elif op == REQUEST_MEMBERS:
            await self._members(connection, data or {})
        elif op in (PRESENCE, VOICE_STATE):
            pass
        else:
            await connection.close(4001, "Unknown opcode")

    # -- sessions --------------------------------------------------------------------------

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        """IDENTIFY: check token, intents, shard and start limit; READY and the guilds."""
        double = self.double
        if connection.session is not None:
            await connection.close(4005, "Already authenticated")
            return
        if data.get("token") != double.token:
            await connection.close(4004, "Authentication failed")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await connection.close(4013, "Invalid intent(s)")
            return
        if intents & PRIVILEGED & ~double.privileged_intents:
            await connection.close(4014, "Disallowed intent(s)")
            return
        shard_id, shard_count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < shard_count:
            await connection.close(4010, "Invalid shard")
            return
        guilds = [g for g in double.guilds.values() if shard_of(g.id, shard_count) == shard_id]
        if len(guilds) > MAX_GUILDS_PER_SHARD:
            await connection.close(4011, "Sharding required")
            return
        bucket = shard_id % double.max_concurrency
        now = time.monotonic()
        last = self._identified.get(bucket)
        if last is not None and now - last < double.identify_window:
            self.refused_identifies += 1  # too fast for the session start limit
            connection.put({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self._identified[bucket] = now
        double.session_starts_remaining -= 1
        for old in self.sessions.values():  # a new IDENTIFY ends the shard's dropped sessions
            if old.shard_id == shard_id and old.connection is None:
                old.ended = True
        session = Session(secrets.token_hex(16), shard_id, shard_count, intents)
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        self.identifies.append((time.time(), shard_id, shard_count))
        ready = {
            "v": 10,
            "user": double.bot_user(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": double.resume_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(double.application_id), "flags": double.application_flags},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ['["discord-double"]'],
        }
        self._dispatch(session, "READY", ready)
        members = bool(intents & GUILD_PRESENCES)
        threshold = int(data.get("large_threshold") or 50)
        for guild in guilds:
            payload = guild.create_payload(
                double.bot_id, members=members, large_threshold=threshold
            )
            self._dispatch(session, "GUILD_CREATE", payload)
        double.changed()

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        """RESUME: replay what the session missed, then RESUMED (or op 9)."""
        if data.get("token") != self.double.token:
            await connection.close(4004, "Authentication failed")
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.ended or connection.session is not None:
            connection.put({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        seq = int(data.get("seq") or 0)
        if session.connection is not None and session.connection is not connection:
            await session.connection.close(4000, "Resumed elsewhere")
        session.connection = connection
        connection.session = session
        session.resumes += 1
        for payload in list(session.backlog):
            if payload["s"] > seq:
                self._write(session, payload)
        self._dispatch(session, "RESUMED", {"_trace": ['["discord-double"]']})
        self.double.changed()

    async def _members(self, connection: Connection, data: dict[str, Any]) -> None:
        """REQUEST_GUILD_MEMBERS: the members asked for, in chunks of 1,000."""
        session = connection.session
        assert session is not None
        guild_ids = data.get("guild_id")
        ids = guild_ids if isinstance(guild_ids, list) else [guild_ids]
        query = data.get("query")
        limit = int(data.get("limit") or 0)
        wanted = data.get("user_ids")
        if query == "" and limit == 0 and not session.intents & GUILD_MEMBERS:
            await connection.close(4013, "Invalid intent(s)")
            return
        for raw in ids:
            guild = self.double.guilds.get(int(raw))
            if guild is None:
                continue
            members = list(guild.members.values())
            if wanted:
                want = {int(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
                members = [m for m in members if m.id in want]
            elif query:
                members = [m for m in members if m.name.lower().startswith(str(query).lower())]
            if limit:
                members = members[:limit]
            chunks = [members[i : i + CHUNK_SIZE] for i in range(0, len(members), CHUNK_SIZE)] or [
                []
            ]
            for index, chunk in enumerate(chunks):
                payload = {
                    "guild_id": str(guild.id),
                    "members": [m.payload() for m in chunk],
                    "chunk_index": index,
                    "chunk_count": len(chunks),
                    "not_found": [],
                }
                if data.get("nonce") is not None:
                    payload["nonce"] = data["nonce"]
                self._dispatch(session, "GUILD_MEMBERS_CHUNK", payload)

    # -- sending ---------------------------------------------------------------------------

    def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Number an event in the session, keep it for a RESUME, and send it if connected."""
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.backlog.append(payload)
        self._write(session, payload)

    def _write(self, session: Session, payload: dict[str, Any]) -> None:
        """Queue a payload on the session's socket, if it has one."""
        connection = session.connection
        if connection is not None and connection.open:
            connection.put(payload)  # else kept in the backlog for a RESUME

    def _sent(self, connection: Connection, payload: dict[str, Any]) -> None:
        """A payload went out: note when an INTERACTION_CREATE did, and on which socket."""
        if payload.get("t") == "INTERACTION_CREATE":
            self.double.interaction_sent(int(payload["d"]["id"]), connection)

    def live_sessions(self, shard_id: int, shard_count: int | None = None) -> list[Session]:
        """The sessions of a shard that have not ended (connected or waiting to resume)."""
        return [
            s
            for s in self.sessions.values()
            if s.shard_id == shard_id
            and not s.ended
            and (shard_count is None or s.shard_count == shard_count)
        ]

    def shard_count(self) -> int:
        """The shard count of the newest live session (1 before any)."""
        for session in reversed(list(self.sessions.values())):
            if not session.ended:
                return session.shard_count
        return 1

    def dispatch(self, guild_id: int, event: str, data: dict[str, Any]) -> int:
        """Send a guild's event to every live session of its shard; how many got it."""
        count = self.shard_count()
        sessions = self.live_sessions(shard_of(guild_id, count), count)
        for session in sessions:
            self._dispatch(session, event, data)
        return len(sessions)

    def connected(self, shard_id: int) -> Connection | None:
        """The open connection of shard `shard_id`'s newest live session, if any."""
        for session in reversed(self.live_sessions(shard_id)):
            if session.connection is not None and session.connection.open:
                return session.connection
        return None

    # -- what a test does to the bot -------------------------------------------------------

    async def close(self, shard_id: int = 0, code: int = 4000) -> None:
        """Close the shard's socket with `code` (4000: the bot should resume)."""
        connection = self.connected(shard_id)
        assert connection is not None, f"shard {shard_id} is not connected"
        await connection.close(code, "closed by the test")

    async def reconnect(self, shard_id: int = 0) -> None:
        """Send op 7 RECONNECT: the bot should reconnect and resume."""
        connection = self.connected(shard_id)
        assert connection is not None, f"shard {shard_id} is not connected"
        connection.put({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate(self, shard_id: int = 0, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; not resumable: the session ends (the bot re-identifies)."""
        connection = self.connected(shard_id)
        assert connection is not None and connection.session is not None
        if not resumable:
            connection.session.ended = True
        connection.put({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})
