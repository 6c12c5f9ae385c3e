"""Discord, offline: real interactions in, recorded replies and channel posts out.

`DiscordStub` builds a real `discord.Interaction` from a raw interaction payload and hands it to the
bot the way the gateway does. The real `bot.app.tree` thus runs its checks, transformers,
autocomplete, views and error handler. The stub answers at Discord's HTTP boundary. Interaction
replies go through the webhook adapter in the context variable
`discord.webhook.async_.async_context`, which it replaces with a recorder. Messages posted or edited
in channels go through `bot.http.request`, which it answers as Discord would, with nonces, a 404 for
an unknown channel or message, a 403 for a denied channel, and a 400 over Discord's limits.
Attachments are read from it through `bot.http.get_from_cdn`. Any other REST call is recorded as
unanswered. Guilds, roles, channels and members live in the bot's connection state. Their ids are
derived from their names by `stable_id`, and message and interaction ids come from a counter of the
stub, so the same interactions give the same ids.

The discord.py internals it touches are used here only, so a discord.py upgrade breaks one place.
They are `_connection.parse_interaction_create`, `_add_guild_from_data`, the webhook adapter,
`http.request` and `http.get_from_cdn`. The replay in `bot.offline.replay` and the tests' harness in
`tests/support/discord_harness.py` are both built on it.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import itertools
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.rendering.common import limits

EPHEMERAL = 64
APPLICATION_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
FIRST_ID = 700_000_000_000_000_001
TIMESTAMP = "2026-01-01T00:00:00+00:00"
ATTACHMENT_LIMIT = 8 * 1024 * 1024


def stable_id(*parts: object) -> int:
    """A Discord id derived from names, such as guild, "role" and "HQ".

    The same names give the same id in every run, and different names practically never the same.
    """
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).digest()
    return 100_000_000_000_000_000 + int.from_bytes(digest[:8], "big") % 800_000_000_000_000_000


def _file_names(body: dict[str, Any]) -> list[str]:
    """The names of the files a message body carries. discord.py lists them in `attachments`."""
    return [str(item.get("filename")) for item in body.get("attachments") or []]


def _button_labels(components: list[dict[str, Any]]) -> list[str]:
    """The labels of the buttons in component rows, row by row."""
    labels = []
    for row in components:
        for item in row.get("components") or [row]:
            if item.get("type") == 2 and item.get("label") is not None:
                labels.append(str(item["label"]))
    return labels


def find_button(components: list[dict[str, Any]], label: str) -> dict[str, Any] | None:
    """The first button labelled `label` in component rows, if any."""
    for row in components:
        for item in row.get("components") or [row]:
            if item.get("type") == 2 and item.get("label") == label:
                found: dict[str, Any] = item
                return found
    return None


@dataclass
class Reply:
    """One thing the bot sent back: an interaction response, a follow-up or an edit."""

    kind: str  # "response", "followup", "edit_original", "edit_message", "delete"
    payload: dict[str, Any]
    message_id: int | None = None
    channel_id: int | None = None
    uploads: dict[str, bytes] = field(default_factory=dict)
    """The attached files' bytes by file name, which is what a member would download."""

    @property
    def type(self) -> int | None:
        """The interaction response type: 4 message, 5 defer, 7 update, 8 autocomplete or 9
        modal.
        """
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
    def buttons(self) -> list[str]:
        """The labels of the message's buttons."""
        return _button_labels(self.components)

    @property
    def files(self) -> list[str]:
        """The names of the files attached to the message."""
        return _file_names(self.data)

    @property
    def ephemeral(self) -> bool:
        """Whether only the caller sees it, flag 64."""
        return bool((self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices, response type 8."""
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
    """A message the bot posted to a channel through the REST API, such as an announcement.

    It is not an interaction reply.
    """

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

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component rows, as Discord receives them."""
        return self.payload.get("components") or []

    @property
    def files(self) -> list[str]:
        """The names of the files attached to the message."""
        return _file_names(self.payload)


@dataclass
class Outcome:
    """Everything the bot sent for one interaction, in order, and what went wrong.

    It holds the replies to the interaction and the messages posted to channels in `posts`. It also
    holds the errors it logged, the tasks it left pending or failing in `stray`, and the REST calls
    nobody answered in `unanswered`.
    """

    replies: list[Reply] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    errors: list[logging.LogRecord] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)

    @property
    def reply(self) -> Reply:
        """The first reply, usually the only one. It fails if the bot sent nothing."""
        if not self.replies:
            raise LookupError("the bot sent no reply")
        return self.replies[0]

    def __getattr__(self, name: str) -> Any:
        # Convenience: `outcome.content` means `outcome.reply.content`.
        if name.startswith("_") or name in ("replies", "posts", "errors", "stray", "unanswered"):
            raise AttributeError(name)
        return getattr(self.reply, name)


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to a command option."""

    filename: str
    data: bytes


def message_limit_problems(body: dict[str, Any]) -> list[str]:
    """Every way a message body breaks Discord's limits. Discord answers 400 to each."""
    problems = []
    if len(body.get("content") or "") > limits.MESSAGE_CONTENT:
        problems.append(
            f"content has {len(body['content'])} characters (max {limits.MESSAGE_CONTENT})"
        )
    embeds = body.get("embeds") or []
    if len(embeds) > limits.EMBEDS_PER_MESSAGE:
        problems.append(f"{len(embeds)} embeds (max {limits.EMBEDS_PER_MESSAGE})")
    total = 0
    for number, embed in enumerate(embeds):
        fields = embed.get("fields") or []
        texts = {
            "title": (embed.get("title") or "", limits.EMBED_TITLE),
            "description": (embed.get("description") or "", limits.EMBED_DESCRIPTION),
            "footer": ((embed.get("footer") or {}).get("text") or "", limits.FOOTER_TEXT),
            "author": ((embed.get("author") or {}).get("name") or "", limits.AUTHOR_NAME),
        }
        for index, item in enumerate(fields):
            texts[f"field {index} name"] = (item.get("name") or "", limits.FIELD_NAME)
            texts[f"field {index} value"] = (item.get("value") or "", limits.FIELD_VALUE)
        for name, (text, limit) in texts.items():
            total += len(text)
            if len(text) > limit:
                problems.append(f"embed {number} {name} has {len(text)} characters (max {limit})")
        if len(fields) > limits.FIELDS_PER_EMBED:
            problems.append(
                f"embed {number} has {len(fields)} fields (max {limits.FIELDS_PER_EMBED})"
            )
    if total > limits.EMBED_TOTAL:
        problems.append(f"embeds total {total} characters (max {limits.EMBED_TOTAL})")
    if len(body.get("components") or []) > limits.COMPONENT_ROWS:
        rows = len(body["components"])
        problems.append(f"{rows} component rows (max {limits.COMPONENT_ROWS})")
    choices = body.get("choices") or []
    if len(choices) > limits.CHOICES:
        problems.append(f"{len(choices)} autocomplete choices (max {limits.CHOICES})")
    for choice in choices:
        if not 1 <= len(str(choice.get("name", ""))) <= limits.CHOICE_NAME:
            problems.append(f"choice name {choice.get('name')!r} not 1-{limits.CHOICE_NAME} chars")
    return problems


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


def http_error(
    status: int, data: dict[str, Any], *, retry_after: float | None = None
) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with body `data`."""
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    response = _Response(status, _REASONS.get(status, "Error"), headers)
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(
        status, discord.DiscordServerError if status >= 500 else discord.HTTPException
    )
    # Any: discord.py types `response` as aiohttp's or requests' response (requests only when
    # installed, so a `type: ignore` here is unused in a venv without it and mypy fails).
    return kind(cast(Any, response), data)


def refuse_over_limits(body: dict[str, Any]) -> None:
    """Answers as Discord does, with 400 Invalid Form Body, to a message over Discord's limits."""
    problems = message_limit_problems(body)
    if problems:
        message = f"Invalid Form Body: {'; '.join(problems)}"
        raise http_error(400, {"code": 50035, "message": message})


def uploaded_files(multipart: Any) -> dict[str, bytes]:
    """The files of a multipart message call, by file name."""
    found = {}
    for part in multipart or []:
        value, name = part.get("value"), part.get("filename")
        if name is None or value is None:
            continue
        if hasattr(value, "getvalue"):
            found[str(name)] = bytes(value.getvalue())
        elif hasattr(value, "read"):
            position = value.tell()
            found[str(name)] = bytes(value.read())
            value.seek(position)
        else:
            found[str(name)] = bytes(value)
    return found


def message_body(payload: Any, multipart: Any) -> dict[str, Any]:
    """The JSON body of a message call: the payload, or the `payload_json` of a multipart."""
    if payload is not None:
        return dict(payload)
    for part in multipart or []:
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return {}


class RecordingAdapter(AsyncWebhookAdapter):
    """A webhook adapter that records every reply to one interaction instead of calling
    Discord."""

    def __init__(self, stub: DiscordStub, channel_id: int) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # discord.py leaves it unannotated
        self.stub = stub
        self.channel_id = channel_id
        self.replies: list[Reply] = []
        self.original_id: int | None = None
        self.original_flags = 0
        self.thinking = False  # a deferred "thinking…" message not yet replaced

    async def create_interaction_response(  # type: ignore[override]
        self, interaction_id: int, token: str, *, session: Any, params: Any, **_: Any
    ) -> dict[str, Any]:
        payload = message_body(params.payload, params.multipart)
        refuse_over_limits(payload.get("data") or {})
        message_id = self.original_id = self.stub.fresh_id()
        self.replies.append(
            Reply(
                "response", payload, message_id, self.channel_id, uploaded_files(params.multipart)
            )
        )
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
        body = message_body(payload, multipart)
        refuse_over_limits(body)
        message_id = message_id or self.stub.fresh_id()
        self.replies.append(
            Reply(kind, body, message_id, self.channel_id, uploaded_files(multipart))
        )
        return self.stub.message_payload(message_id, body, self.channel_id)

    async def execute_webhook(  # type: ignore[override]
        self, webhook_id: int, token: str, *, payload: Any = None, multipart: Any = None, **_: Any
    ) -> dict[str, Any]:
        if self.thinking:
            # As Discord does: the first follow-up after a deferred "thinking…" response
            # replaces that message and keeps the defer's visibility, whatever its own flags.
            self.thinking = False
            body = message_body(payload, multipart)
            body["flags"] = (body.get("flags") or 0) & ~EPHEMERAL | self.original_flags
            return self._message("followup", body, None, self.original_id)
        return self._message("followup", payload, multipart, None)

    async def get_original_interaction_response(  # type: ignore[override]
        self, application_id: int, token: str, **_: Any
    ) -> dict[str, Any]:
        original = next(r for r in self.replies if r.message_id == self.original_id)
        return self.stub.message_payload(
            original.message_id or 0,
            original.data | {"flags": self.original_flags},
            self.channel_id,
        )

    async def edit_original_interaction_response(  # type: ignore[override]
        self,
        application_id: int,
        token: str,
        *,
        payload: Any = None,
        multipart: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        self.thinking = False
        return self._message("edit_original", payload, multipart, self.original_id)

    async def edit_webhook_message(  # type: ignore[override]
        self,
        webhook_id: int,
        token: str,
        message_id: int,
        *,
        payload: Any = None,
        multipart: Any = None,
        **_: Any,
    ) -> dict[str, Any]:
        return self._message("edit_message", payload, multipart, message_id)

    async def delete_webhook_message(
        self, webhook_id: int, token: str, message_id: int, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, message_id, self.channel_id))

    async def delete_original_interaction_response(
        self, application_id: int, token: str, **_: Any
    ) -> None:
        self.replies.append(Reply("delete", {}, self.original_id, self.channel_id))


def role_payload(role_id: int, name: str, position: int, permissions: int = 0) -> dict[str, Any]:
    """A role as Discord sends it."""
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


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A user as Discord sends it."""
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
    """A guild member as the stub sends it: id, name, role ids and permissions."""

    id: int
    name: str
    guild_id: int
    role_ids: tuple[int, ...] = ()
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)

    def payload(self) -> dict[str, Any]:
        """The `member` object of an interaction payload."""
        return {
            "user": user_payload(self.id, self.name),
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
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Every record of level ERROR or above logged by any logger inside the block."""
    handler = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


_IN_INTERACTION: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "stub_interaction", default=False
)


@contextmanager
def _tasks() -> Iterator[list[asyncio.Task[Any]]]:
    """Every task the block starts, and every task those start.

    Tasks inherit the context. The bot's own long-lived tasks, such as the outbox sender, do not
    count.
    """
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    created: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        if previous is not None:
            task = previous(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        assert isinstance(task, asyncio.Task)
        if _IN_INTERACTION.get():
            created.append(task)
        return task

    loop.set_task_factory(factory)
    token = _IN_INTERACTION.set(True)
    try:
        yield created
    finally:
        _IN_INTERACTION.reset(token)
        loop.set_task_factory(previous)


async def _settle(tasks: list[asyncio.Task[Any]], direct: int) -> list[str]:
    """Waits for the first `direct` tasks, then cancels any task started meanwhile that is still
    pending.

    The direct tasks are what the gateway started for the interaction: event dispatch and the tree
    call. Returns the problems: tasks left pending and tasks that raised.
    """
    await asyncio.gather(*tasks[:direct], return_exceptions=True)
    await asyncio.sleep(0)
    problems = []
    pending = [t for t in tasks if not t.done()]
    raised = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
    for task in pending:
        task.cancel()
    if pending:
        names = [repr(t.get_coro()) for t in pending]
        problems.append(f"background tasks still pending: {names}")
    if raised:
        problems.append(f"background tasks raised: {[repr(t.exception()) for t in raised]}")
    return problems


def find_command(
    tree: app_commands.CommandTree, path: str
) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
    """The slash command `/path` of `tree` and its names, or LookupError if there is none.

    Subcommands are separated by spaces.
    """
    names = path.split()
    node: Any = tree.get_command(names[0]) if names else None
    for name in names[1:]:
        node = node.get_command(name) if isinstance(node, app_commands.Group) else None
    if not isinstance(node, app_commands.Command):
        raise LookupError(f"no slash command /{path}")
    return names, node


class DiscordStub:
    """Discord as the bot sees it, offline: guilds in its cache, interactions delivered,
    replies and channel messages recorded."""

    MANAGE_SERVER = discord.Permissions(manage_guild=True)

    def __init__(self, bot: discord.Client) -> None:
        self._ids = itertools.count(FIRST_ID)
        self.posts: list[Post] = []
        self.sent: dict[int, Post] = {}  # every channel message, by message id (latest edit)
        self.requests: list[tuple[str, int]] = []  # (method, channel id) of each message call
        self.unanswered: list[str] = []
        self.denied: set[int] = set()
        self.roles: dict[int, dict[str, int]] = {}
        self.channels: dict[int, dict[str, int]] = {}
        self.guild_names: dict[int, str] = {}
        self._nonces: dict[str, Post] = {}
        self._answers: list[tuple[str, int | None, discord.HTTPException]] = []
        self._files: dict[str, bytes] = {}
        self.attach(bot)

    def attach(self, bot: discord.Client) -> None:
        """Answers for `bot`: its application and user are set, and its REST calls and CDN reads
        served here.

        A second bot, as after a restart, finds Discord as the first left it, with its messages, ids
        and uploads. Put the guilds in its cache again with `add_guild` and `seat`.
        """
        self.bot = bot
        self.tree: app_commands.CommandTree = bot.tree  # type: ignore[attr-defined]
        state = bot._connection
        state.application_id = APPLICATION_ID
        state.user = discord.ClientUser(
            state=state,
            data=user_payload(BOT_USER_ID, "Arbiter", bot=True),  # type: ignore[arg-type]
        )
        bot.http.request = self._rest_request  # type: ignore[method-assign]
        bot.http.get_from_cdn = self._cdn  # type: ignore[method-assign]

    def fresh_id(self) -> int:
        """A new id for messages, interactions and anonymous members, counted so it is
        deterministic.
        """
        return next(self._ids)

    # -- Discord's REST API ------------------------------------------------------------------

    async def _rest_request(
        self, route: Any, *, json: Any = None, form: Any = None, **_: Any
    ) -> dict[str, Any]:
        # At discord.py's one door to the REST API (`HTTPClient.request`): channel messages are
        # posted and edited as Discord would (a repeated nonce with enforce_nonce returns the
        # message already created; an unknown channel or message is 404); any other call is
        # recorded as unanswered and raises.
        key = (route.method, route.path)
        if key not in (
            ("POST", "/channels/{channel_id}/messages"),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ):
            self.unanswered.append(f"{route.method} {route.path}")
            raise NotImplementedError(
                f"the offline Discord has no answer for {route.method} {route.path}"
            )
        channel_id = int(route.channel_id)
        self.requests.append((route.method, channel_id))
        for index, (method, channel, answer) in enumerate(self._answers):
            if method == route.method and channel in (None, channel_id):
                del self._answers[index]
                raise answer
        if channel_id not in self.channel_names():
            raise http_error(404, {"code": 10003, "message": "Unknown Channel"})
        if channel_id in self.denied:
            raise http_error(403, {"code": 50013, "message": "Missing Permissions"})
        body = message_body(json, form)
        refuse_over_limits(body)
        if route.method == "PATCH":
            message_id = int(route.url.rsplit("/", 1)[1])
            previous = self.sent.get(message_id)
            if previous is None or previous.channel_id != channel_id:
                raise http_error(404, {"code": 10008, "message": "Unknown Message"})
            post = Post(channel_id, previous.payload | body, message_id, edited=True)
        else:
            nonce = body.get("nonce")
            if body.get("enforce_nonce") and nonce in self._nonces:
                return self._channel_message(self._nonces[nonce])  # Discord: the same message
            post = Post(channel_id, body, self.fresh_id())
            if nonce is not None:
                self._nonces[nonce] = post
        self.sent[post.message_id] = post
        self.posts.append(post)
        return self._channel_message(post)

    async def _cdn(self, url: str) -> bytes:
        # Attachments a member uploaded with a command, read back by `Attachment.read()`.
        data = self._files.get(url)
        if data is None:
            raise http_error(404, {"code": 0, "message": "404: Not Found"})
        return data

    def _channel_message(self, post: Post) -> dict[str, Any]:
        return self.message_payload(post.message_id, post.payload, post.channel_id)

    def answer_next(
        self,
        method: str,
        status: int,
        *,
        channel_id: int | None = None,
        retry_after: float | None = None,
        times: int = 1,
    ) -> None:
        """Makes Discord answer the next `times` `method` message calls with the error `status`.

        The calls are those to `channel_id`, or to any channel. The status may be 503, or 429 with a
        Retry-After header.
        """
        data = {"code": 0, "message": _REASONS.get(status, "Error")}
        for _ in range(times):
            error = http_error(status, data, retry_after=retry_after)
            self._answers.append((method, channel_id, error))

    def deny(self, channel_id: int) -> None:
        """Takes the bot's permission to post in `channel_id` away, so Discord answers 403."""
        self.denied.add(channel_id)

    # -- the world ---------------------------------------------------------------------------

    def add_guild(
        self,
        guild_id: int,
        *,
        name: str | None = None,
        roles: tuple[str, ...] = (),
        channels: tuple[str, ...] = ("general", "announcements"),
    ) -> discord.Guild:
        """Puts a guild with named roles and text channels into the bot's cache.

        The ids are derived from the guild id and the names.
        """
        name = name or f"Guild {guild_id}"
        self.guild_names[guild_id] = name
        self.roles[guild_id] = {"@everyone": guild_id} | {
            role: stable_id(guild_id, "role", role) for role in roles
        }
        self.channels[guild_id] = {
            channel: stable_id(guild_id, "channel", channel) for channel in channels
        }
        data = {
            "id": str(guild_id),
            "name": name,
            "owner_id": str(BOT_USER_ID),
            "roles": [
                role_payload(role_id, role, position)
                for position, (role, role_id) in enumerate(self.roles[guild_id].items())
            ],
            "channels": [
                {
                    "id": str(channel_id),
                    "type": 0,
                    "name": channel,
                    "position": position,
                    "permission_overwrites": [],
                    "guild_id": str(guild_id),
                }
                for position, (channel, channel_id) in enumerate(self.channels[guild_id].items())
            ],
            "members": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 2,
            "unavailable": False,
        }
        return self.bot._connection._add_guild_from_data(data)  # type: ignore[arg-type]

    def role(self, name: str, guild_id: int) -> int:
        """The id of the role `name` in `guild_id`."""
        return self.roles[guild_id][name]

    def channel(self, name: str, guild_id: int) -> int:
        """The id of the text channel `name` in `guild_id`."""
        return self.channels[guild_id][name]

    def channel_names(self) -> dict[int, str]:
        """Every known text channel: id → name."""
        return {cid: name for named in self.channels.values() for name, cid in named.items()}

    def member(
        self,
        *roles: str,
        guild_id: int,
        permissions: discord.Permissions | None = None,
        user_id: int | None = None,
        name: str = "member",
    ) -> Member:
        """A member of `guild_id` holding the named roles and `permissions`, none by default."""
        return Member(
            id=user_id or self.fresh_id(),
            name=name,
            guild_id=guild_id,
            role_ids=tuple(self.role(r, guild_id) for r in roles),
            permissions=permissions or discord.Permissions.none(),
        )

    def seat(self, guild_id: int, members: list[Member]) -> None:
        """Puts `members` and the bot into the guild's member cache, fully chunked.

        This is how the Server Members intent gives it, so `role.members` lists who holds a role.
        """
        guild = self.bot.get_guild(guild_id)
        assert guild is not None
        state = self.bot._connection
        for member in members:
            guild._add_member(discord.Member(data=member.payload(), guild=guild, state=state))  # type: ignore[arg-type]
        if self.bot.user is not None:
            guild._add_member(
                discord.Member._from_client_user(user=self.bot.user, guild=guild, state=state)
            )
        guild._member_count = len(guild._members)

    def message_payload(
        self, message_id: int, body: dict[str, Any], channel_id: int | None = None
    ) -> dict[str, Any]:
        """A message the bot sent, as Discord returns it."""
        if channel_id is None:
            channel_id = next(iter(self.channel_names()), 0)
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": user_payload(BOT_USER_ID, "Arbiter", bot=True),
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

    # -- building payloads -------------------------------------------------------------------

    def find_command(self, path: str) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
        """The slash command `/path`, with subcommands separated by spaces, or LookupError if
        there is none.
        """
        return find_command(self.tree, path)

    def _upload(self, upload: Upload, guild_id: int | None) -> dict[str, Any]:
        attachment_id = self.fresh_id()
        url = f"https://cdn.discordapp.com/attachments/{guild_id}/{attachment_id}/{upload.filename}"
        self._files[url] = upload.data
        return {
            "id": str(attachment_id),
            "filename": upload.filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
        }

    def _options(
        self,
        command: app_commands.Command[Any, ..., Any],
        user: Member,
        values: dict[str, Any],
        focused: str,
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
                role_name = role.name if role else "role"
                resolved.setdefault("roles", {})[str(role_id)] = role_payload(role_id, role_name, 1)
                option["value"] = str(role_id)
            elif param.type is kind.channel:
                channel_id = int(value)
                resolved.setdefault("channels", {})[str(channel_id)] = {
                    "id": str(channel_id),
                    "type": 0,
                    "name": self.channel_names().get(channel_id, "channel"),
                    "permissions": str(discord.Permissions.all().value),
                    "guild_id": str(user.guild_id),
                }
                option["value"] = str(channel_id)
            elif param.type in (kind.user, kind.mentionable):
                other = value if isinstance(value, Member) else None
                other_id = other.id if other else int(value)
                resolved.setdefault("users", {})[str(other_id)] = user_payload(
                    other_id, other.name if other else "user"
                )
                if other is not None:
                    member = other.payload()
                    member.pop("user")
                    resolved.setdefault("members", {})[str(other_id)] = member
                option["value"] = str(other_id)
            elif param.type is kind.attachment:
                if not isinstance(value, Upload):
                    raise TypeError(f"option {name!r} takes a file (an Upload)")
                attachment = self._upload(value, user.guild_id)
                resolved.setdefault("attachments", {})[attachment["id"]] = attachment
                option["value"] = attachment["id"]
            elif name == focused and param.type in (kind.integer, kind.number):
                option["value"] = str(value)  # Discord sends what is typed so far, as text
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
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        """A raw INTERACTION_CREATE payload of type `kind` by `user` in `channel_id`.

        The channel is by default the first channel of its guild. With `dm` it is in a direct
        message with the bot, as Discord sends it: `user`, no guild and no member.
        """
        common = {
            "id": str(self.fresh_id()),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "data": data,
            "locale": "en-US",
            "app_permissions": str(discord.Permissions.all().value),
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        if dm:
            channel_id = self.fresh_id()
            payload = common | {
                "channel_id": str(channel_id),
                "channel": {"id": str(channel_id), "type": 1},
                "user": user_payload(user.id, user.name),
                "context": 1,
            }
        else:
            if channel_id is None:
                channel_id = next(iter(self.channels[user.guild_id].values()))
            payload = common | {
                "guild_id": str(user.guild_id),
                "channel_id": str(channel_id),
                "channel": {"id": str(channel_id), "type": 0, "guild_id": str(user.guild_id)},
                "member": user.payload(),
                "guild_locale": "en-US",
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
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        """The payload of `/path` with `options`. Subcommands are separated by spaces."""
        names, command = self.find_command(path)
        leaf, resolved = self._options(command, user, options, focused)
        for depth in range(len(names) - 1, 0, -1):
            is_group = depth < len(names) - 1
            leaf = [{"name": names[depth], "type": 2 if is_group else 1, "options": leaf}]
        data: dict[str, Any] = {"id": str(stable_id("command", path)), "name": names[0]}
        data["type"] = 1
        data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        return self.interaction_payload(kind, data, user, dm=dm, channel_id=channel_id)

    def click_payload(
        self,
        custom_id: str,
        user: Member,
        message_id: int,
        *,
        message: dict[str, Any] | None = None,
        channel_id: int | None = None,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> dict[str, Any]:
        """The payload of a click on component `custom_id` of the bot's message `message_id`.

        Components are buttons of type 2, selects of type 3 and so on. `message` is the message's
        body, if known.
        """
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        shown = self.message_payload(message_id, message or {}, channel_id)
        return self.interaction_payload(3, data, user, message=shown, channel_id=channel_id)

    # -- running -----------------------------------------------------------------------------

    @contextmanager
    def _recording(self, channel_id: int) -> Iterator[Outcome]:
        outcome = Outcome()
        adapter = RecordingAdapter(self, channel_id)
        token = async_context.set(adapter)
        posted = len(self.posts)
        try:
            yield outcome
        finally:
            async_context.reset(token)
            outcome.replies.extend(adapter.replies)
            outcome.posts.extend(self.posts[posted:])

    async def run(self, payload: dict[str, Any]) -> Outcome:
        """Delivers one raw interaction payload the way the gateway does, and waits for the bot to
        finish with it.

        The payload is a command, an autocomplete or a component click. It returns what the bot
        sent, with a background outbox drained, the errors it logged, the tasks it left pending or
        failing, which are cancelled, and the REST calls nobody answered.

        Commands reach the real `tree._call` through discord.py's own invoker. Errors raised before
        the command runs, such as an unknown command or a signature out of sync with Discord, thus
        reach the tree's error handler as they do in production.
        """
        unanswered = len(self.unanswered)
        channel_id = int(payload["channel_id"])
        with self._recording(channel_id) as outcome, logged_errors() as errors, _tasks() as tasks:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
            outcome.stray = await _settle(tasks, len(tasks))
        outbox = getattr(self.bot, "outbox", None)
        if outbox is not None:
            before = len(self.posts)
            await outbox.drained()
            outcome.posts.extend(self.posts[before:])
        outcome.errors = list(errors)
        outcome.unanswered = self.unanswered[unanswered:]
        return outcome
