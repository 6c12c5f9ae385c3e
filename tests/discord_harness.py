"""Drive Arbiter the way Discord does, offline: real interactions in, captured replies out.

A test builds a real `discord.Interaction` from a raw interaction payload, runs it through the
real `bot.tree` (checks, transformers, autocomplete and the error handler all run), and reads
what the bot sent at the HTTP boundary: discord.py sends interaction replies through the
webhook adapter in the context variable `discord.webhook.async_.async_context`, which the
harness replaces with a recorder; messages posted to channels go through `bot.http.request`,
which it records too (any other REST call fails loudly). Like Discord, it answers 400 to a
message over Discord's limits (2000 characters of content, embed sizes, 25 choices…). No
network, no gateway.

Usage (the `harness` fixture in `tests/conftest.py` gives a ready harness on a fresh bot
whose database is a real SQLite file in `tmp_path`):

    async def test_show(harness):
        admin = harness.member(permissions=harness.MANAGE_SERVER)
        reply = await harness.command("setup show", user=admin)
        assert reply.ephemeral and reply.embeds[0]["title"] == "Arbiter set-up"

    reply = await harness.command("setup set", user=admin, hq_role=harness.role("HQ"))
    reply = await harness.command("help", user=admin, dm=True)  # in a direct message
    choices = await harness.autocomplete("standings", user=admin, focused="division", division="Pr")
    reply = await harness.click("vote:yes", message_id=reply.message_id, user=admin)
    reply.posts  # messages it posted to channels (an announcement): .channel_id, .content

Options are given by parameter name; their Discord types are read from the command itself,
so roles, channels and members are sent as ids with the `resolved` data Discord would add.
The helpers touch discord.py internals (`_connection.parse_interaction_create`, which hands
commands to `tree._call`; `_add_guild_from_data`; the webhook adapter; `http.request`); they
live here only, so a discord.py upgrade breaks one place.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

EPHEMERAL = 64
APPLICATION_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
DEFAULT_GUILD_ID = 800_000_000_000_000_001
OTHER_GUILD_ID = 800_000_000_000_000_002
TIMESTAMP = "2026-01-01T00:00:00+00:00"

_snowflakes = itertools.count(700_000_000_000_000_001)


def snowflake() -> int:
    """A fresh unique Discord id."""
    return next(_snowflakes)


@dataclass
class Reply:
    """One thing the bot sent back: an interaction response, a follow-up or an edit."""

    kind: str  # "response", "followup", "edit_original", "edit_message", "delete"
    payload: dict[str, Any]
    message_id: int | None = None

    @property
    def type(self) -> int | None:
        """The interaction response type (4 message, 5 defer, 7 update, 8 autocomplete, 9 modal)."""
        return self.payload.get("type") if self.kind == "response" else None

    @property
    def data(self) -> dict[str, Any]:
        """The message data: `data` of a response, the body of a follow-up or edit."""
        if self.kind == "response":
            return self.payload.get("data") or {}
        return self.payload

    @property
    def content(self) -> str | None:
        """The message text."""
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds, as Discord receives them."""
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component rows, as Discord receives them."""
        return self.data.get("components") or []

    @property
    def ephemeral(self) -> bool:
        """Whether only the caller sees it (flag 64)."""
        return bool((self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (response type 8)."""
        return self.data.get("choices") or []

    def text(self) -> str:
        """Content plus every embed's title, description and fields, for `in` assertions."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for item in embed.get("fields", []):
                parts += [item["name"], item["value"]]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)


@dataclass
class Post:
    """A message the bot posted to a channel through the REST API (not an interaction reply),
    e.g. an announcement."""

    channel_id: int
    payload: dict[str, Any]
    message_id: int
    edited: bool = False

    @property
    def content(self) -> str | None:
        """The message text."""
        return self.payload.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds, as Discord receives them."""
        return self.payload.get("embeds") or []


@dataclass
class Outcome:
    """Everything the bot sent for one interaction, in order: replies to the interaction, and
    messages posted to channels (`posts`)."""

    replies: list[Reply] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    errors: list[logging.LogRecord] = field(default_factory=list)

    @property
    def reply(self) -> Reply:
        """The first reply (usually the only one); fails if the bot sent nothing."""
        assert self.replies, "the bot sent no reply"
        return self.replies[0]

    def __getattr__(self, name: str) -> Any:
        # Convenience: `outcome.content` means `outcome.reply.content`.
        if name.startswith("_") or name in ("replies", "posts", "errors"):
            raise AttributeError(name)
        return getattr(self.reply, name)


def message_limit_problems(body: dict[str, Any]) -> list[str]:
    """Every way a message body breaks Discord's limits (Discord answers 400 to each)."""
    problems = []
    if len(body.get("content") or "") > 2000:
        problems.append(f"content has {len(body['content'])} characters (max 2000)")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for number, embed in enumerate(embeds):
        fields = embed.get("fields") or []
        texts = {
            "title": (embed.get("title") or "", 256),
            "description": (embed.get("description") or "", 4096),
            "footer": ((embed.get("footer") or {}).get("text") or "", 2048),
            "author": ((embed.get("author") or {}).get("name") or "", 256),
        }
        for index, item in enumerate(fields):
            texts[f"field {index} name"] = (item.get("name") or "", 256)
            texts[f"field {index} value"] = (item.get("value") or "", 1024)
        for name, (text, limit) in texts.items():
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {number} {name} has {len(text)} characters (max {limit})")
        if len(fields) > 25:
            problems.append(f"embed {number} has {len(fields)} fields (max 25)")
    if total > 6000:
        problems.append(f"embeds total {total} characters (max 6000)")
    if len(body.get("components") or []) > 5:
        problems.append(f"{len(body['components'])} component rows (max 5)")
    if len(body.get("choices") or []) > 25:
        problems.append(f"{len(body['choices'])} autocomplete choices (max 25)")
    return problems


class _BadRequest:
    status = 400
    reason = "Bad Request"


_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


@dataclass
class _Response:
    """What discord.py's HTTP errors read of an aiohttp response."""

    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)


def _error(
    status: int, data: dict[str, Any], *, retry_after: float | None = None
) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with body `data`."""
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    response = _Response(status, _REASONS.get(status, "Error"), headers)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(
        status, discord.DiscordServerError if status >= 500 else discord.HTTPException
    )
    return kind(response, data)  # type: ignore[arg-type]


def refuse_over_limits(body: dict[str, Any]) -> None:
    """Answer as Discord does (400 Invalid Form Body) to a message over Discord's limits."""
    problems = message_limit_problems(body)
    if problems:
        raise discord.HTTPException(
            _BadRequest(),  # type: ignore[arg-type]
            {"code": 50035, "message": f"Invalid Form Body: {'; '.join(problems)}"},
        )


class RecordingAdapter(AsyncWebhookAdapter):
    """A webhook adapter that records every reply instead of calling Discord."""

    def __init__(self, harness: DiscordHarness) -> None:
        super().__init__()
        self.harness = harness
        self.replies: list[Reply] = []
        self.original_id: int | None = None
        self.original_flags = 0
        self.thinking = False  # a deferred "thinking…" message not yet replaced

    @staticmethod
    def _body(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict:
        if payload is not None:
            return payload
        for part in multipart or []:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return {}

    async def create_interaction_response(
        self, interaction_id: int, token: str, *, session: Any, params: Any, **_: Any
    ) -> dict[str, Any]:
        payload = self._body(params.payload, params.multipart)
        refuse_over_limits(payload.get("data") or {})
        message_id = self.original_id = snowflake()
        self.replies.append(Reply("response", payload, message_id))
        self.original_flags = (payload.get("data") or {}).get("flags") or 0
        self.thinking = payload.get("type") == 5
        return {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "response_message_id": str(message_id),
                "response_message_ephemeral": bool(
                    ((payload.get("data") or {}).get("flags") or 0) & EPHEMERAL
                ),
            }
        }

    def _message(
        self,
        kind: str,
        payload: dict[str, Any] | None,
        multipart: list[dict[str, Any]] | None,
        message_id: int | None,
    ) -> dict[str, Any]:
        body = self._body(payload, multipart)
        refuse_over_limits(body)
        message_id = message_id or snowflake()
        self.replies.append(Reply(kind, body, message_id))
        return self.harness.message_payload(message_id, body)

    async def execute_webhook(
        self, webhook_id: int, token: str, *, payload=None, multipart=None, **_: Any
    ) -> dict[str, Any]:
        if self.thinking:
            # As Discord does: the first follow-up after a deferred "thinking…" response
            # replaces that message and keeps the defer's visibility, whatever its own flags.
            self.thinking = False
            body = dict(self._body(payload, multipart))
            body["flags"] = (body.get("flags") or 0) & ~EPHEMERAL | self.original_flags
            return self._message("followup", body, None, self.original_id)
        return self._message("followup", payload, multipart, None)

    async def get_original_interaction_response(
        self, application_id: int, token: str, **_: Any
    ) -> dict[str, Any]:
        original = next(r for r in self.replies if r.message_id == self.original_id)
        return self.harness.message_payload(
            original.message_id or 0, original.data | {"flags": self.original_flags}
        )

    async def edit_original_interaction_response(
        self, application_id: int, token: str, *, payload=None, multipart=None, **_: Any
    ) -> dict[str, Any]:
        self.thinking = False
        return self._message("edit_original", payload, multipart, self.original_id)

    async def edit_webhook_message(
        self,
        webhook_id: int,
        token: str,
        message_id: int,
        *,
        payload=None,
        multipart=None,
        **_: Any,
    ) -> dict[str, Any]:
        return self._message("edit_message", payload, multipart, message_id)

    async def delete_webhook_message(
        self, webhook_id: int, token: str, message_id: int, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, message_id))

    async def delete_original_interaction_response(
        self, application_id: int, token: str, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, self.original_id))


def _role_payload(role_id: int, name: str, position: int, permissions: int = 0) -> dict:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def _user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


@dataclass
class Member:
    """A guild member as the harness sends it: id, name, role ids and permissions."""

    id: int
    name: str
    guild_id: int
    role_ids: tuple[int, ...] = ()
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)

    def payload(self) -> dict[str, Any]:
        """The `member` object of an interaction payload."""
        return {
            "user": _user_payload(self.id, self.name),
            "roles": [str(r) for r in self.role_ids],
            "permissions": str(self.permissions.value),
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
        }


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def _logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Every record of level ERROR or above logged (by any logger) inside the block."""
    handler = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


_IN_INTERACTION: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "harness_interaction", default=False
)


@contextmanager
def _tasks() -> Iterator[list[asyncio.Task[Any]]]:
    """Every task the block starts, and every task those start (tasks inherit the context;
    the bot's own long-lived tasks, such as the outbox sender, do not count)."""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    created: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        if _IN_INTERACTION.get():
            created.append(task)
        return task

    loop.set_task_factory(factory)  # type: ignore[arg-type]
    token = _IN_INTERACTION.set(True)
    try:
        yield created
    finally:
        _IN_INTERACTION.reset(token)
        loop.set_task_factory(previous)


async def _settle(tasks: list[asyncio.Task[Any]], direct: int) -> None:
    """Wait for the first `direct` tasks (what the gateway started for the interaction: event
    dispatch, the tree call); then fail if any task started meanwhile is still pending or if
    any raised — a background task the test would never see finish."""
    await asyncio.gather(*tasks[:direct], return_exceptions=True)
    await asyncio.sleep(0)
    pending = [t for t in tasks if not t.done()]
    for task in pending:
        task.cancel()
    assert not pending, f"background tasks still pending: {[repr(t.get_coro()) for t in pending]}"
    raised = [t for t in tasks if not t.cancelled() and t.exception() is not None]
    assert not raised, f"background tasks raised: {[repr(t.exception()) for t in raised]}"


class DiscordHarness:
    """A bot's command tree driven by raw interaction payloads, its replies recorded."""

    MANAGE_SERVER = discord.Permissions(manage_guild=True)

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.tree: app_commands.CommandTree = bot.tree  # type: ignore[attr-defined]
        state = bot._connection
        state.application_id = APPLICATION_ID
        state.user = discord.ClientUser(
            state=state, data=_user_payload(BOT_USER_ID, "Arbiter", bot=True)
        )
        self.posts: list[Post] = []
        self.sent: dict[int, Post] = {}  # every channel message, by message id (latest edit)
        self.requests: list[tuple[str, int]] = []  # (method, channel id) of each message call
        self.unanswered: list[str] = []
        self.denied: set[int] = set()
        self._nonces: dict[str, Post] = {}
        self._answers: list[tuple[str, int | None, discord.HTTPException]] = []
        bot.http.request = self._rest_request  # type: ignore[method-assign]
        self.roles: dict[int, dict[str, int]] = {}
        self.channels: dict[int, dict[str, int]] = {}
        self.add_guild(DEFAULT_GUILD_ID, roles=("HQ", "Director", "Arbiter"))
        self.add_guild(OTHER_GUILD_ID, roles=("HQ", "Director", "Arbiter"))

    async def _rest_request(
        self, route: Any, *, json: Any = None, form: Any = None, **_: Any
    ) -> dict[str, Any]:
        # Discord's REST API, at discord.py's one door to it (`HTTPClient.request`): channel
        # messages are posted and edited as Discord would (a repeated nonce with enforce_nonce
        # returns the message already created; an unknown channel or message is 404); any
        # other call is recorded as unanswered and fails the test.
        key = (route.method, route.path)
        if key not in (
            ("POST", "/channels/{channel_id}/messages"),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ):
            self.unanswered.append(f"{route.method} {route.path}")
            raise NotImplementedError(
                f"the Discord harness has no answer for {route.method} {route.path}"
            )
        channel_id = int(route.channel_id)
        self.requests.append((route.method, channel_id))
        for index, (method, channel, answer) in enumerate(self._answers):
            if method == route.method and channel in (None, channel_id):
                del self._answers[index]
                raise answer
        if channel_id not in self._known_channels():
            raise _error(404, {"code": 10003, "message": "Unknown Channel"})
        if channel_id in self.denied:
            raise _error(403, {"code": 50013, "message": "Missing Permissions"})
        body = RecordingAdapter._body(json, form)
        refuse_over_limits(body)
        if route.method == "PATCH":
            message_id = int(route.url.rsplit("/", 1)[1])
            previous = self.sent.get(message_id)
            if previous is None or previous.channel_id != channel_id:
                raise _error(404, {"code": 10008, "message": "Unknown Message"})
            post = Post(channel_id, previous.payload | body, message_id, edited=True)
        else:
            nonce = body.get("nonce")
            if body.get("enforce_nonce") and nonce in self._nonces:
                return self._channel_message(self._nonces[nonce])  # Discord: the same message
            post = Post(channel_id, body, snowflake())
            if nonce is not None:
                self._nonces[nonce] = post
        self.sent[post.message_id] = post
        self.posts.append(post)
        return self._channel_message(post)

    def _channel_message(self, post: Post) -> dict[str, Any]:
        message = self.message_payload(post.message_id, post.payload)
        message["channel_id"] = str(post.channel_id)
        return message

    def _known_channels(self) -> set[int]:
        return {channel for named in self.channels.values() for channel in named.values()}

    def answer_next(
        self,
        method: str,
        status: int,
        *,
        channel_id: int | None = None,
        retry_after: float | None = None,
        times: int = 1,
    ) -> None:
        """Make Discord answer the next `times` `method` message calls (to `channel_id`, or to
        any channel) with the error `status`, e.g. 503, or 429 with a Retry-After header."""
        data = {"code": 0, "message": _REASONS.get(status, "Error")}
        for _ in range(times):
            self._answers.append(
                (method, channel_id, _error(status, data, retry_after=retry_after))
            )

    def deny(self, channel_id: int) -> None:
        """Take the bot's permission to post in `channel_id` away (Discord answers 403)."""
        self.denied.add(channel_id)

    def check(self) -> None:
        """Fail the test if a REST call got no answer (it would have reached the network)."""
        assert not self.unanswered, f"REST calls without a recorded answer: {self.unanswered}"

    # -- the world -----------------------------------------------------------------------

    def add_guild(
        self,
        guild_id: int,
        *,
        roles: tuple[str, ...] = (),
        channels: tuple[str, ...] = ("general", "announcements"),
    ) -> discord.Guild:
        """Put a guild with named roles and text channels into the bot's cache."""
        self.roles[guild_id] = {"@everyone": guild_id} | {name: snowflake() for name in roles}
        self.channels[guild_id] = {name: snowflake() for name in channels}
        data = {
            "id": str(guild_id),
            "name": f"Guild {guild_id}",
            "owner_id": str(BOT_USER_ID),
            "roles": [
                _role_payload(role_id, name, position)
                for position, (name, role_id) in enumerate(self.roles[guild_id].items())
            ],
            "channels": [
                {
                    "id": str(channel_id),
                    "type": 0,
                    "name": name,
                    "position": position,
                    "permission_overwrites": [],
                    "guild_id": str(guild_id),
                }
                for position, (name, channel_id) in enumerate(self.channels[guild_id].items())
            ],
            "members": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 2,
            "unavailable": False,
        }
        return self.bot._connection._add_guild_from_data(data)

    def role(self, name: str, guild_id: int = DEFAULT_GUILD_ID) -> int:
        """The id of the role `name` in `guild_id`."""
        return self.roles[guild_id][name]

    def channel(self, name: str, guild_id: int = DEFAULT_GUILD_ID) -> int:
        """The id of the text channel `name` in `guild_id`."""
        return self.channels[guild_id][name]

    def member(
        self,
        *roles: str,
        permissions: discord.Permissions | None = None,
        guild_id: int = DEFAULT_GUILD_ID,
        user_id: int | None = None,
        name: str = "member",
    ) -> Member:
        """A member of `guild_id` holding the named roles and `permissions` (none by default)."""
        return Member(
            id=user_id or snowflake(),
            name=name,
            guild_id=guild_id,
            role_ids=tuple(self.role(r, guild_id) for r in roles),
            permissions=permissions or discord.Permissions.none(),
        )

    def message_payload(self, message_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """A message the bot sent, as Discord returns it."""
        return {
            "id": str(message_id),
            "channel_id": str(self.channel("general")),
            "author": _user_payload(BOT_USER_ID, "Arbiter", bot=True),
            "content": body.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags") or 0,
        }

    # -- building payloads -----------------------------------------------------------------

    def _find(self, path: str) -> tuple[list[str], app_commands.Command]:
        names = path.split()
        node: Any = self.tree.get_command(names[0])
        for name in names[1:]:
            node = node.get_command(name) if isinstance(node, app_commands.Group) else None
        if not isinstance(node, app_commands.Command):
            raise LookupError(f"no slash command /{path}")
        return names, node

    def _options(
        self, command: app_commands.Command, user: Member, values: dict[str, Any], focused: str
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        params = {p.name: p for p in command.parameters}
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        kind = discord.AppCommandOptionType
        for name, value in values.items():
            if name not in params:
                raise LookupError(f"/{command.qualified_name} has no option {name!r}")
            param = params[name]
            option: dict[str, Any] = {"name": param.display_name, "type": param.type.value}
            if param.type is kind.role:
                role_id = int(value)
                guild = self.bot.get_guild(user.guild_id)
                role = guild.get_role(role_id) if guild else None
                name_ = role.name if role else "role"
                resolved.setdefault("roles", {})[str(role_id)] = _role_payload(role_id, name_, 1)
                option["value"] = str(role_id)
            elif param.type is kind.channel:
                channel_id = int(value)
                resolved.setdefault("channels", {})[str(channel_id)] = {
                    "id": str(channel_id),
                    "type": 0,
                    "name": "channel",
                    "permissions": str(discord.Permissions.all().value),
                    "guild_id": str(user.guild_id),
                }
                option["value"] = str(channel_id)
            elif param.type in (kind.user, kind.mentionable):
                other = value if isinstance(value, Member) else None
                other_id = other.id if other else int(value)
                resolved.setdefault("users", {})[str(other_id)] = _user_payload(
                    other_id, other.name if other else "user"
                )
                if other is not None:
                    member = other.payload()
                    member.pop("user")
                    resolved.setdefault("members", {})[str(other_id)] = member
                option["value"] = str(other_id)
            elif param.type is kind.integer:
                option["value"] = int(value)
            elif param.type is kind.number:
                option["value"] = float(value)
            elif param.type is kind.boolean:
                option["value"] = bool(value)
            else:
                option["value"] = str(value)
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    def interaction_payload(
        self,
        kind: int,
        data: dict[str, Any],
        user: Member,
        *,
        message: dict[str, Any] | None = None,
        dm: bool = False,
    ) -> dict[str, Any]:
        """A raw INTERACTION_CREATE payload of type `kind` by `user` in its guild (with `dm`:
        in a direct message with the bot, as Discord sends it: `user`, no guild, no member)."""
        if dm:
            channel_id = snowflake()
            return {
                "id": str(snowflake()),
                "application_id": str(APPLICATION_ID),
                "type": kind,
                "token": "interaction-token",
                "version": 1,
                "channel_id": str(channel_id),
                "channel": {"id": str(channel_id), "type": 1},
                "user": _user_payload(user.id, user.name),
                "data": data,
                "locale": "en-US",
                "context": 1,
                "app_permissions": str(discord.Permissions.all().value),
                "attachment_size_limit": 8 * 1024 * 1024,
            }
        channel_id = self.channel("general", user.guild_id)
        payload = {
            "id": str(snowflake()),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "guild_id": str(user.guild_id),
            "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "guild_id": str(user.guild_id)},
            "member": user.payload(),
            "data": data,
            "locale": "en-US",
            "guild_locale": "en-US",
            "app_permissions": str(discord.Permissions.all().value),
            "attachment_size_limit": 8 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        return payload

    def command_payload(
        self,
        path: str,
        user: Member,
        options: dict[str, Any],
        *,
        kind: int = 2,
        focused: str = "",
        dm: bool = False,
    ) -> dict[str, Any]:
        """The payload of `/path` (subcommands separated by spaces) with `options`."""
        names, command = self._find(path)
        leaf, resolved = self._options(command, user, options, focused)
        for depth in range(len(names) - 1, 0, -1):
            is_group = depth < len(names) - 1
            leaf = [{"name": names[depth], "type": 2 if is_group else 1, "options": leaf}]
        data: dict[str, Any] = {"id": str(snowflake()), "name": names[0], "type": 1}
        data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        return self.interaction_payload(kind, data, user, dm=dm)

    # -- running ---------------------------------------------------------------------------

    @contextmanager
    def _recording(self) -> Iterator[Outcome]:
        outcome = Outcome()
        adapter = RecordingAdapter(self)
        token = async_context.set(adapter)
        posted = len(self.posts)
        try:
            yield outcome
        finally:
            async_context.reset(token)
            outcome.replies.extend(adapter.replies)
            outcome.posts.extend(self.posts[posted:])

    async def run(self, payload: dict[str, Any], *, errors_expected: bool = False) -> Outcome:
        """Deliver one raw interaction payload (command, autocomplete or component click) the
        way the gateway does, and wait for the bot to finish with it; returns what it sent,
        with the outbox delivered (`outcome.posts`).

        Commands reach the real `tree._call` through discord.py's own invoker, so errors
        raised before the command runs (an unknown command, a signature out of sync with
        Discord) reach the tree's error handler as they do in production. The run fails
        loudly: if an error is logged (unless `errors_expected`, then `outcome.errors` holds
        them and at least one is required), if a REST call had no recorded answer, or if a
        task the interaction started is still pending or raised."""
        unanswered = len(self.unanswered)
        with self._recording() as outcome, _logged_errors() as errors, _tasks() as tasks:
            self.bot._connection.parse_interaction_create(payload)
            await _settle(tasks, len(tasks))
        outbox = getattr(self.bot, "outbox", None)
        if outbox is not None:
            before = len(self.posts)
            await outbox.drained()
            outcome.posts.extend(self.posts[before:])
        outcome.errors = list(errors)
        if errors_expected:
            assert errors, "an error was expected to be logged, but none was"
        else:
            assert not errors, "unexpected errors logged: " + "; ".join(
                f"{record.name}: {record.getMessage()}" for record in errors
            )
        assert len(self.unanswered) == unanswered, (
            f"REST calls without a recorded answer: {self.unanswered[unanswered:]}"
        )
        return outcome

    async def command(
        self,
        path: str,
        *,
        user: Member,
        dm: bool = False,
        errors_expected: bool = False,
        **options: Any,
    ) -> Outcome:
        """Invoke `/path` as `user` with `options` (in a DM with `dm=True`); returns what the
        bot sent. A logged error fails the test unless `errors_expected`."""
        payload = self.command_payload(path, user, options, dm=dm)
        return await self.run(payload, errors_expected=errors_expected)

    async def autocomplete(
        self, path: str, *, user: Member, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while `user` types option `focused` of `/path`."""
        options.setdefault(focused, "")
        outcome = await self.run(self.command_payload(path, user, options, kind=4, focused=focused))
        assert outcome.reply.type == 8, f"expected autocomplete choices, got {outcome.replies}"
        return outcome.reply.choices

    async def click(
        self,
        custom_id: str,
        *,
        user: Member,
        message_id: int,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> Outcome:
        """Click a component (button 2, select 3…) on the bot's message `message_id`."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        # The clicked message as Discord sends it: with its components (persistent
        # DynamicItems are matched against them), when the bot posted it to a channel.
        posted = self.sent.get(message_id)
        message = self.message_payload(message_id, posted.payload if posted else {})
        if posted is not None:
            message["channel_id"] = str(posted.channel_id)
        return await self.run(self.interaction_payload(3, data, user, message=message))
