"""`DiscordDouble`: Discord on 127.0.0.1 for the real `arbiter run` — REST and gateway on one
aiohttp server in the test's event loop — and the test's side of it.

    double = DiscordDouble(token="t")
    await double.start()                       # double.api_base → ARBITER_DISCORD_API
    guild = double.add_guild("CL League", roles=("HQ",), channels=("general", "announcements"))
    ann = double.add_member(guild, "ann", roles=("HQ",))
    ...start the bot, `arbiter sync --guild`...
    await double.wait_ready()                  # every shard identified, its guilds sent
    it = await double.command(ann, "club list")
    reply = await it.answer()                  # the Reply carrying the content
    double.channel_messages(guild.channel("announcements"))

Interactions are built from the commands the bot published (`PUT …/commands`), as Discord
builds them: the options typed by the published schema, users, members, roles, channels
and attachments in `resolved`, the member's permissions computed from its roles.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web

from bot.offline.discord_members import user_payload
from bot.offline.discord_messages import ATTACHMENT_LIMIT, Reply, Upload, find_button
from tests.discord_double.gateway import GUILD_MEMBERS, GUILD_PRESENCES, Gateway
from tests.discord_double.rest import Rest
from tests.discord_double.world import (
    BOT_PERMISSIONS,
    Attachment,
    Channel,
    DirectChannel,
    Guild,
    Member,
    Message,
    Role,
    Snowflakes,
    interaction_token,
    shard_of,
)

WAIT = 10.0
"""Default seconds a test waits for the bot before failing."""


@dataclass
class Interaction:
    """One interaction the double created, and everything the bot answered to it."""

    id: int
    token: str
    kind: int
    guild_id: int | None
    channel_id: int
    user_id: int
    payload: dict[str, Any]
    message_id: int | None = None
    created: float = field(default_factory=time.monotonic)
    sent_at: float | None = None
    sent_on: Any = None
    """The gateway connection that carried it (its `session.shard_id`)."""
    answered_at: float | None = None
    response_type: int | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    reply_times: list[float] = field(default_factory=list)

    def record(self, reply: Reply) -> None:
        """Keep one thing the bot sent for it."""
        self.replies.append(reply)
        self.reply_times.append(time.monotonic())


class Sent:
    """A test's handle on an interaction it sent: wait for the bot's answers."""

    def __init__(self, double: DiscordDouble, interaction: Interaction) -> None:
        self.double = double
        self.interaction = interaction

    @property
    def id(self) -> int:
        """The interaction id."""
        return self.interaction.id

    @property
    def replies(self) -> list[Reply]:
        """Everything answered so far, in order."""
        return self.interaction.replies

    async def response(self, timeout: float = WAIT) -> Reply:
        """The callback (waits for it)."""
        await self.double.wait_for(
            lambda: bool(self.interaction.replies), timeout, f"a response to {self.describe()}"
        )
        return self.interaction.replies[0]

    async def answer(self, timeout: float = WAIT) -> Reply:
        """The reply carrying the content: the callback, or after a deferral the follow-up or
        edit that replaced "thinking…"."""

        def found() -> Reply | None:
            replies = self.interaction.replies
            if not replies:
                return None
            if replies[0].type not in (5, 6):
                return replies[0]
            return next(
                (r for r in replies[1:] if r.kind in ("followup", "edit_original", "edit_message")),
                None,
            )

        await self.double.wait_for(
            lambda: found() is not None, timeout, f"an answer to {self.describe()}"
        )
        reply = found()
        assert reply is not None
        return reply

    async def replies_at_least(self, count: int, timeout: float = WAIT) -> list[Reply]:
        """Wait until the bot sent `count` replies."""
        await self.double.wait_for(
            lambda: len(self.interaction.replies) >= count,
            timeout,
            f"{count} replies to {self.describe()}",
        )
        return self.interaction.replies

    def describe(self) -> str:
        """For failure messages."""
        data = self.interaction.payload.get("data") or {}
        return f"interaction {self.id} ({data.get('name') or data.get('custom_id')})"


class DiscordDouble:
    """Discord's API and gateway for one application and its bot, on 127.0.0.1."""

    def __init__(
        self,
        *,
        token: str = "double-token",
        privileged_intents: int = GUILD_MEMBERS,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
        identify_window: float = 5.0,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self.token = token
        self.privileged_intents = privileged_intents
        """The privileged intents switched on "in the Developer Portal" (bits)."""
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        self.identify_window = identify_window
        self.session_starts_remaining = 1000
        self.callback_window = 3.0
        """Seconds after an interaction within which its callback is accepted."""
        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot_id = self.ids.next()
        self.owner_id = self.ids.next()
        self.application_flags = 1 << 15 if privileged_intents & GUILD_MEMBERS else 0
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}
        self.dm_channels: dict[int, DirectChannel] = {}  # by user id
        self.closed_dms: set[int] = set()
        """Users whose direct messages are closed: the bot's get 403 50007."""
        self.nonces: dict[tuple[int, str], Message] = {}
        self.repeated_nonces: list[str] = []
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.rest = Rest(self)
        self.gateway = Gateway(self)
        self.gateway.heartbeat_interval_ms = heartbeat_interval_ms
        self.base = ""
        self._runner: web.AppRunner | None = None
        self._tick = asyncio.Event()

    # -- the server ------------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """The REST root to configure (`ARBITER_DISCORD_API`)."""
        return f"{self.base}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What `GET /gateway/bot` answers."""
        return self.base.replace("http://", "ws://") + "/gateway"

    @property
    def resume_url(self) -> str:
        """READY's `resume_gateway_url` (a path of its own, so a test sees which was dialled)."""
        return self.base.replace("http://", "ws://") + "/resume"

    async def start(self) -> str:
        """Listen on a free 127.0.0.1 port in the running loop; returns the API base."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume", self.gateway.handle)
        self.rest.install(app)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base = f"http://{host}:{port}"
        return self.api_base

    async def stop(self) -> None:
        """Close every socket and stop listening (idempotent)."""
        for connection in self.gateway.connections:
            if connection.open:
                await connection.close(1001, "going away")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- waiting ---------------------------------------------------------------------------

    def changed(self) -> None:
        """Something happened: wake the tests waiting for a condition."""
        tick, self._tick = self._tick, asyncio.Event()
        tick.set()

    async def wait_for(
        self, condition: Callable[[], bool], timeout: float = WAIT, what: str = "the bot"
    ) -> None:
        """Return once `condition()` holds (checked at every change); fail after `timeout`."""
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {timeout:.1f} s for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tick.wait(), min(left, 0.25))

    async def wait_ready(self, shards: int | None = None, timeout: float = WAIT) -> None:
        """Every shard (of `shards`, default the recommended count) has a connected session
        that received its READY and guilds."""
        count = shards or self.recommended_shards

        def ready() -> bool:
            return all(self.gateway.connected(shard) is not None for shard in range(count))

        await self.wait_for(ready, timeout, f"{count} shard(s) to identify")

    # -- the world -------------------------------------------------------------------------

    def bot_user(self) -> dict[str, Any]:
        """The bot's user object."""
        user = user_payload(self.bot_id, "Arbiter", bot=True)
        user |= {
            "flags": 0,
            "public_flags": 0,
            "verified": True,
            "mfa_enabled": False,
            "email": None,
        }
        return user

    def application(self) -> dict[str, Any]:
        """The application object (`GET /applications/@me`)."""
        return {
            "id": str(self.application_id),
            "name": "Arbiter",
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": user_payload(self.owner_id, "owner"),
            "team": None,
            "flags": self.application_flags,
            "bot": self.bot_user(),
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": len(self.guilds),
            "integration_types_config": {"0": {}},
        }

    def add_guild(
        self,
        name: str,
        *,
        roles: Iterable[str] = (),
        channels: Iterable[str] = ("general", "announcements"),
        manager_role: str | None = "Server Managers",
    ) -> Guild:
        """A guild the bot is in: @everyone, a `manager_role` holding Manage Server, the named
        roles (no permissions), the bot's own role, and text channels. Sent to the bot at
        once (GUILD_CREATE) if its shard is connected."""
        guild = Guild(self.ids.next(), name, self.owner_id)
        guild.roles[guild.id] = Role(guild.id, "@everyone", discord.Permissions.none().value, 0)
        position = 1
        if manager_role is not None:
            self.add_role(guild, manager_role, discord.Permissions(manage_guild=True).value)
            position += 1
        for role in roles:
            self.add_role(guild, role)
        bot_role = self.add_role(guild, "Arbiter", BOT_PERMISSIONS.value)
        bot_role.managed = True
        for position, channel_name in enumerate(channels):
            channel = Channel(self.ids.next(), guild.id, channel_name, position)
            guild.channels[channel.id] = channel
            self.channels[channel.id] = channel
        guild.members[self.bot_id] = Member(
            self.bot_id, "Arbiter", guild.id, [bot_role.id], bot=True
        )
        self.guilds[guild.id] = guild
        self._announce_guild(guild)
        return guild

    def _announce_guild(self, guild: Guild) -> None:
        """GUILD_CREATE to the live sessions of a new guild's shard (the bot was added)."""
        count = self.gateway.shard_count()
        for session in self.gateway.live_sessions(shard_of(guild.id, count), count):
            members = bool(session.intents & GUILD_PRESENCES)
            payload = guild.create_payload(self.bot_id, members=members, large_threshold=250)
            self.gateway._dispatch(session, "GUILD_CREATE", payload)

    def add_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        """A role of `guild` (position after the others)."""
        role = Role(self.ids.next(), name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_member(
        self, guild: Guild, name: str, *, roles: Iterable[str] = (), manager: bool = False
    ) -> Member:
        """A member of `guild` holding the named roles (`manager`: the Manage Server role)."""
        names = list(roles) + (["Server Managers"] if manager else [])
        member = Member(self.ids.next(), name, guild.id, [guild.role(r).id for r in names])
        guild.members[member.id] = member
        return member

    def remove_member(self, guild: Guild, member: Member) -> None:
        """`member` leaves `guild`: gone from it (GET member: 404 10007), and GUILD_MEMBER_REMOVE
        to the sessions of its shard that have the Server Members intent."""
        guild.members.pop(member.id, None)
        count = self.gateway.shard_count()
        for session in self.gateway.live_sessions(shard_of(guild.id, count), count):
            if session.intents & GUILD_MEMBERS:
                data = {"guild_id": str(guild.id), "user": user_payload(member.id, member.name)}
                self.gateway._dispatch(session, "GUILD_MEMBER_REMOVE", data)
        self.changed()

    def close_dms(self, member: Member) -> None:
        """`member` closes their direct messages: the bot's messages to them get 403 50007."""
        self.closed_dms.add(member.id)

    def dm_channel(self, user_id: int) -> DirectChannel | None:
        """The bot's DM channel with `user_id`, once the bot opened it."""
        return self.dm_channels.get(user_id)

    def open_dm_channel(self, user_id: int) -> DirectChannel | None:
        """The bot's DM channel with `user_id`, opened on first use (`POST /users/@me/channels`);
        None for a user in none of the guilds."""
        channel = self.dm_channels.get(user_id)
        if channel is not None:
            return channel
        for guild in self.guilds.values():
            member = guild.members.get(user_id)
            if member is not None:
                channel = DirectChannel(self.ids.next(), user_payload(member.id, member.name))
                self.dm_channels[user_id] = channel
                return channel
        return None

    def shares_a_guild(self, user_id: int) -> bool:
        """Whether `user_id` is a member of a guild the bot is in, which Discord requires for a
        direct message."""
        return any(user_id in guild.members for guild in self.guilds.values())

    def dms(self, member: Member) -> list[Message]:
        """The direct messages the bot sent `member`, oldest first."""
        channel = self.dm_channels.get(member.id)
        if channel is None:
            return []
        found = [m for m in self.messages.values() if m.channel_id == channel.id and not m.deleted]
        return sorted(found, key=lambda m: m.id)

    def new_message(
        self,
        channel_id: int,
        guild_id: int | None,
        body: dict[str, Any],
        files: list[Attachment],
        *,
        nonce: str | None = None,
        interaction: Interaction | None = None,
    ) -> Message:
        """Store a message the bot made."""
        message = Message(
            self.ids.next(),
            channel_id,
            guild_id,
            dict(body),
            list(files),
            nonce=nonce,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
        )
        for attachment in files:
            self.attachments[attachment.id] = attachment
        self.messages[message.id] = message
        self.changed()
        return message

    def message_payload(self, message: Message) -> dict[str, Any]:
        """A stored message as Discord returns it."""
        return message.payload(self.bot_user(), self.base)

    def channel_messages(self, channel: Channel, *, posted_only: bool = False) -> list[Message]:
        """The visible messages of a channel, oldest first (`posted_only`: channel posts,
        not interaction responses)."""
        found = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id
            and not m.deleted
            and not m.ephemeral
            and not (posted_only and m.interaction_id is not None)
        ]
        return sorted(found, key=lambda m: m.id)

    def interaction_sent(self, interaction_id: int, connection: Any) -> None:
        """The gateway wrote INTERACTION_CREATE on `connection` (the latency clock starts)."""
        interaction = self.interactions.get(interaction_id)
        if interaction is not None and interaction.sent_at is None:
            interaction.sent_at = time.monotonic()
            interaction.sent_on = connection
        self.changed()

    # -- interactions ----------------------------------------------------------------------

    def find_command(
        self, guild: Guild, path: str
    ) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        """The published command `/path` (guild commands first, then global): the command,
        its subcommand names, and the leaf's option schema."""
        names = path.split()
        for command in self.commands.get(guild.id, []) + self.commands.get(None, []):
            if command.get("type", 1) == 1 and command["name"] == names[0]:
                options = command.get("options") or []
                for name in names[1:]:
                    node = next(
                        (o for o in options if o["name"] == name and o["type"] in (1, 2)), None
                    )
                    if node is None:
                        raise LookupError(f"/{path}: no subcommand {name!r} was published")
                    options = node.get("options") or []
                return command, names[1:], options
        raise LookupError(f"/{names[0]} was not published to {guild.name} (run arbiter sync)")

    def _option(
        self, guild: Guild, schema: dict[str, Any], value: Any, resolved: dict[str, Any]
    ) -> Any:
        """One option's value as Discord sends it, its objects added to `resolved`."""
        kind = schema["type"]
        if kind == 3:
            return str(value)
        if kind == 4:
            return int(value)
        if kind == 5:
            return bool(value)
        if kind == 10:
            return float(value)
        if kind in (6, 9) and isinstance(value, Member):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()["user"]
            member = value.payload(guild.permissions(value))
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == 7 and isinstance(value, Channel):
            data = value.payload(self.bot_id)
            data["permissions"] = str(discord.Permissions.all().value)
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if kind == 11 and isinstance(value, Upload):
            attachment = Attachment(self.ids.next(), value.filename, value.data)
            self.attachments[attachment.id] = attachment
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload(
                self.base
            )
            return str(attachment.id)
        raise TypeError(f"option {schema['name']!r} (type {kind}) cannot take {value!r}")

    def _payload(
        self,
        kind: int,
        data: dict[str, Any],
        member: Member,
        channel: Channel | None,
        message: Message | None = None,
    ) -> Interaction:
        """A new interaction of `kind` by `member` in `channel` (on `message`, for a click)."""
        guild = self.guilds[member.guild_id]
        channel = channel or next(iter(guild.channels.values()))
        interaction_id = self.ids.next()
        token = interaction_token()
        bot = guild.members[self.bot_id]
        channel_data = channel.payload(self.bot_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": channel_data,
            "member": member.payload(guild.permissions(member, channel)),
            "token": token,
            "version": 1,
            "app_permissions": str(guild.permissions(bot, channel)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        if message is not None:
            payload["message"] = self.message_payload(message)
        interaction = Interaction(
            interaction_id, token, kind, guild.id, channel.id, member.id, payload
        )
        interaction.message_id = message.id if message else None
        self.interactions[interaction_id] = interaction
        self.by_token[token] = interaction
        return interaction

    def command_payload(
        self,
        member: Member,
        path: str,
        options: dict[str, Any],
        *,
        channel: Channel | None = None,
        focused: str | None = None,
    ) -> Interaction:
        """A slash command (or, with `focused`, an autocomplete) interaction by `member`."""
        guild = self.guilds[member.guild_id]
        command, subcommands, schema = self.find_command(guild, path)
        by_name = {o["name"]: o for o in schema}
        resolved: dict[str, Any] = {}
        given = []
        for name, value in options.items():
            if name not in by_name:
                raise LookupError(f"/{path} has no option {name!r}")
            option = {
                "name": name,
                "type": by_name[name]["type"],
                "value": self._option(guild, by_name[name], value, resolved),
            }
            if name == focused:
                option["focused"] = True
            given.append(option)
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{path} needs {missing} (Discord's client would not send it)")
        leaf: list[dict[str, Any]] = given
        for depth in range(len(subcommands) - 1, -1, -1):
            leaf = [
                {
                    "name": subcommands[depth],
                    "type": 1 if depth == len(subcommands) - 1 else 2,
                    "options": leaf,
                }
            ]
        data: dict[str, Any] = {
            "id": command["id"],
            "name": command["name"],
            "type": 1,
            "options": leaf,
        }
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return self._payload(4 if focused else 2, data, member, channel)

    async def send(self, interaction: Interaction) -> Sent:
        """Deliver an interaction to the session of its guild's shard (or keep it for a
        resume if that session is disconnected)."""
        assert interaction.guild_id is not None
        self.gateway.dispatch(interaction.guild_id, "INTERACTION_CREATE", interaction.payload)
        self.changed()
        return Sent(self, interaction)

    async def command(
        self, member: Member, path: str, *, channel: Channel | None = None, **options: Any
    ) -> Sent:
        """`/path` (subcommands separated by spaces) by `member` with `options`."""
        return await self.send(self.command_payload(member, path, options, channel=channel))

    async def autocomplete(self, member: Member, path: str, focused: str, **options: Any) -> Sent:
        """`member` typing option `focused` of `/path`."""
        options.setdefault(focused, "")
        return await self.send(self.command_payload(member, path, options, focused=focused))

    async def click(
        self,
        member: Member,
        message: Message,
        label: str | None = None,
        *,
        custom_id: str | None = None,
    ) -> Sent:
        """`member` clicks a button (by label or custom id) of the bot's `message`."""
        if custom_id is None:
            button = find_button(message.components, label or "")
            if button is None:
                raise LookupError(f"no button {label!r} on message {message.id}")
            custom_id = str(button["custom_id"])
        data = {"custom_id": custom_id, "component_type": 2}
        channel = self.channels[message.channel_id]
        return await self.send(self._payload(3, data, member, channel, message))

    # -- what the bot sent -----------------------------------------------------------------

    def answered(self) -> list[Interaction]:
        """Every interaction that got a callback."""
        return [i for i in self.interactions.values() if i.response_type is not None]

    def calls(self, method: str | None = None, route: str | None = None) -> list[Any]:
        """The REST requests the bot made (of a method and route template)."""
        return [
            c for c in self.rest.calls if method in (None, c.method) and route in (None, c.route)
        ]
