"""The double's REST API (Discord API v10 under `/api/v10`), as the bot uses it.

Routes (Discord's developer documentation): `GET /gateway/bot`, `GET /users/@me`,
`GET /applications/@me`, bulk overwrite of global and guild commands (`PUT
/applications/{application_id}[/guilds/{guild_id}]/commands`), interaction callbacks
(`POST /interactions/{id}/{token}/callback`, `?with_response`), follow-ups and the original
response (`/webhooks/{application_id}/{token}[/messages/{message_id|@original}]`), channel
messages (create with JSON or multipart `payload_json` + `files[n]`, edit, fetch, list; a
repeated `nonce` with `enforce_nonce` returns the message it made), the bot's DM channels
(`POST /users/@me/channels`, and messages into them: 403 50007 while the user's direct
messages are closed or they share no guild with the bot), and the guild's members (404 10007
for one who is not), roles and channels. Requests other than interaction and webhook-token ones need
`Authorization: Bot <token>` (else 401).

Interaction rules Discord enforces: a callback within 3 s of the interaction (later or
unknown: 404 10062 Unknown interaction), one callback per interaction (a second: 400 40060
already acknowledged), the token valid 15 minutes for follow-ups; the first follow-up after
a deferred "thinking…" response (type 5) replaces that message and keeps its visibility.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.offline.discord_messages import EPHEMERAL, Reply
from tests.discord_double import limits
from tests.discord_double.ratelimits import Answer, RateLimiter
from tests.discord_double.world import LOADING, Attachment, Channel, DirectChannel, Message

if TYPE_CHECKING:
    from tests.discord_double.server import DiscordDouble, Interaction

PREFIX = "/api/v10"
TOKEN_LIFETIME = 15 * 60.0
NO_AUTH = ("/interactions/", "/webhooks/")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class DiscordError(Exception):
    """An error answer in Discord's shape."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message"))
        self.status = status
        self.body = body


def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer typed exactly `application/json`, as Discord's (discord.py decodes a
    body only when the Content-Type is exactly that, no charset)."""
    body = json.dumps(data, separators=(",", ":")).encode()
    merged = {"Content-Type": "application/json"} | (headers or {})
    return web.Response(body=body, status=status, headers=merged)


def unknown(what: str, code: int) -> DiscordError:
    """404 Unknown <what>."""
    return DiscordError(404, limits.json_error(code, f"Unknown {what}"))


def refuse(problems: list[limits.Problem]) -> None:
    """400 Invalid Form Body if there are problems."""
    if problems:
        raise DiscordError(400, limits.form_error(problems))


class Call:
    """One REST request the bot made and how it was answered."""

    def __init__(self, method: str, route: str, path: str, resource: str) -> None:
        self.method = method
        self.route = route
        self.path = path
        self.resource = resource
        self.status = 0
        self.body: Any = None
        self.files: list[Attachment] = []
        self.at = time.monotonic()

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} {self.status}>"


def _resource(info: dict[str, str]) -> str:
    """The top-level resource a rate limit is kept for (Discord's major parameters)."""
    for key in ("channel_id", "guild_id"):
        if key in info:
            return f"{key}={info[key]}"
    if "token" in info:
        return f"webhook={info.get('id') or info.get('application_id')}+{info['token'][:12]}"
    return ""


class Rest:
    """The REST routes over the double's world."""

    def __init__(self, double: DiscordDouble) -> None:
        self.double = double
        self.limiter = RateLimiter()
        self.calls: list[Call] = []
        self.unanswered: list[str] = []
        self._calls: dict[int, Call] = {}  # the request being served → its record

    # -- plumbing --------------------------------------------------------------------------

    def routes(self) -> list[tuple[str, str, Handler]]:
        """(method, path template, handler) of every route."""
        return [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/{application_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            ("POST", "/interactions/{id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{application_id}/{token}", self.followup),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.delete_webhook_message,
            ),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/guilds/{guild_id}/roles", self.get_roles),
            ("GET", "/guilds/{guild_id}/channels", self.get_channels),
        ]

    def install(self, app: web.Application) -> None:
        """Add the routes, the CDN and the catch-all to `app`."""
        for method, path, handler in self.routes():
            app.router.add_route(method, PREFIX + path, self._wrap(method, path, handler))
        app.router.add_get("/attachments/{attachment_id}/{filename}", self.cdn)
        app.router.add_route("*", PREFIX + "/{tail:.*}", self.not_found)

    def _headers(self, answer: Answer | None) -> dict[str, str]:
        """Discord's edge header and, when counted, the rate-limit headers."""
        headers = {"Via": "1.1 google"}  # Discord's edge; discord.py trusts a 429 only with it
        if answer is not None:
            headers |= answer.headers
        return headers

    def _wrap(self, method: str, route: str, handler: Handler) -> Handler:
        """A route's handler inside the common steps: record, authorise, faults, limits."""

        async def serve(request: web.Request) -> web.StreamResponse:
            info = dict(request.match_info)
            call = Call(method, route, request.path.removeprefix(PREFIX), _resource(info))
            self.calls.append(call)
            answer: Answer | None = None
            try:
                if not call.path.startswith(NO_AUTH):
                    expected = f"Bot {self.double.token}"
                    if request.headers.get("Authorization") != expected:
                        raise DiscordError(401, limits.json_error(0, "401: Unauthorized"))
                fault = self.limiter.scripted(method, route, call.resource, after=False)
                if fault is not None:  # answered before anything is counted or done
                    return self._fault(call, fault, self.limiter.peek(method, route, call.resource))
                answer = self.limiter.admit(method, route, call.resource, call.path)
                if answer.limited is not None:
                    call.status = 429
                    return reply(answer.limited, status=429, headers=self._headers(answer))
                self._calls[id(request)] = call
                response = await handler(request)
                fault = self.limiter.scripted(method, route, call.resource, after=True)
                if fault is not None:  # the work is done, the answer is lost
                    return self._fault(call, fault, answer)
                response.headers.update(self._headers(answer))
                call.status = response.status
                return response
            except DiscordError as error:
                call.status = error.status
                return reply(error.body, status=error.status, headers=self._headers(answer))
            finally:
                self._calls.pop(id(request), None)
                self.double.changed()

        return serve

    def _fault(self, call: Call, fault: Any, answer: Answer) -> web.Response:
        """The answer of a scripted fault (429 with its scope, or a 5xx)."""
        call.status = fault.status
        if fault.status == 429:
            limited = RateLimiter.too_many(answer.headers, fault.retry_after, fault.scope)
            return reply(limited.limited, status=429, headers=self._headers(limited))
        body = limits.json_error(0, f"{fault.status}: scripted server error")
        return reply(body, status=fault.status, headers=self._headers(answer))

    async def not_found(self, request: web.Request) -> web.Response:
        """Any route the double does not know: recorded, and 404 as Discord answers it."""
        self.unanswered.append(f"{request.method} {request.path}")
        self.double.changed()
        return reply({"message": "404: Not Found", "code": 0}, status=404)

    async def cdn(self, request: web.Request) -> web.Response:
        """An attachment's bytes (the CDN URL the double hands out)."""
        attachment = self.double.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404, text="404: Not Found")
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """The JSON body, or a multipart's `payload_json` and files (`files[n]`)."""
        call = self._calls[id(request)]
        files: list[Attachment] = []
        body: dict[str, Any] = {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                name = getattr(part, "name", None)
                data = await part.read()  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(bytes(data))
                elif name and name.startswith("files["):
                    if len(data) > limits.UPLOAD_LIMIT:
                        raise DiscordError(
                            413, limits.json_error(40005, "Request entity too large")
                        )
                    filename = getattr(part, "filename", None) or name
                    content_type = part.headers.get("Content-Type")  # type: ignore[union-attr]
                    files.append(
                        Attachment(self.double.ids.next(), filename, bytes(data), content_type)
                    )
        elif request.can_read_body:
            try:
                loaded = await request.json()
            except ValueError:
                raise DiscordError(
                    400, limits.json_error(50109, "The request body contains invalid JSON.")
                ) from None
            body = loaded if isinstance(loaded, dict) else {"_list": loaded}
        call.body = body
        call.files = files
        return body, files

    # -- gateway, users, application -------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        """`GET /gateway`: the gateway's address."""
        return reply({"url": self.double.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        """`GET /gateway/bot`: the address, recommended shards and session start limit."""
        double = self.double
        return reply(
            {
                "url": double.gateway_url,
                "shards": double.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": max(double.session_starts_remaining, 0),
                    "reset_after": 86_400_000,
                    "max_concurrency": double.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        """`GET /users/@me`: the bot's user (discord.py's login)."""
        return reply(self.double.bot_user())

    async def get_user(self, request: web.Request) -> web.Response:
        """`GET /users/{id}`: a member's user, from any guild."""
        user_id = int(request.match_info["user_id"])
        for guild in self.double.guilds.values():
            if user_id in guild.members:
                return reply(guild.members[user_id].payload()["user"])
        raise unknown("User", 10013)

    async def get_application(self, request: web.Request) -> web.Response:
        """`GET /applications/@me`: the application."""
        return reply(self.double.application())

    async def get_commands(self, request: web.Request) -> web.Response:
        """The published commands (global, or of a guild)."""
        guild_id = request.match_info.get("guild_id")
        return reply(self.double.commands.get(int(guild_id) if guild_id else None, []))

    async def put_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite: the whole list, checked against Discord's limits; a command keeps
        its id when its name stays."""
        double = self.double
        if request.match_info["application_id"] != str(double.application_id):
            raise DiscordError(403, limits.json_error(50001, "Missing Access"))
        body, _ = await self._body(request)
        commands = body.get("_list")
        if not isinstance(commands, list):
            raise DiscordError(
                400,
                limits.form_error(
                    [((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
                ),
            )
        refuse(limits.command_problems(commands))
        guild_id = int(request.match_info["guild_id"]) if "guild_id" in request.match_info else None
        if guild_id is not None and guild_id not in double.guilds:
            raise DiscordError(403, limits.json_error(50001, "Missing Access"))
        old = {(c["type"], c["name"]): c["id"] for c in double.commands.get(guild_id, [])}
        stored = []
        for command in commands:
            kind = int(command.get("type", 1))
            item = {
                "type": kind,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **command,
                "id": old.get((kind, command["name"])) or str(double.ids.next()),
                "application_id": str(double.application_id),
                "version": str(double.ids.next()),
            }
            if guild_id is not None:
                item["guild_id"] = str(guild_id)
            stored.append(item)
        double.commands[guild_id] = stored
        double.syncs.append((guild_id, commands))
        return reply(stored)

    # -- interactions ----------------------------------------------------------------------

    def _interaction(self, interaction_id: str, token: str) -> Interaction:
        """The interaction of a callback URL (404 Unknown interaction otherwise)."""
        interaction = (
            self.double.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        )
        if interaction is None or interaction.token != token:
            raise unknown("interaction", 10062)
        return interaction

    async def callback(self, request: web.Request) -> web.Response:
        """The one response to an interaction."""
        info = request.match_info
        interaction = self._interaction(info["id"], info["token"])
        body, files = await self._body(request)
        if interaction.response_type is not None:
            raise DiscordError(
                400, limits.json_error(40060, "Interaction has already been acknowledged.")
            )
        if time.monotonic() - interaction.created > self.double.callback_window:
            raise unknown("interaction", 10062)
        kind = body.get("type")
        data = dict(body.get("data") or {})
        if kind not in (1, 4, 5, 6, 7, 8, 9, 10, 12):
            choices = "Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12)."
            refuse([(("type",), "BASE_TYPE_CHOICES", choices)])
        if kind in (6, 7) and interaction.kind != 3:
            raise DiscordError(400, limits.json_error(40004, "Interaction cannot update a message"))
        if kind == 8:
            if interaction.kind != 4:
                raise DiscordError(400, limits.json_error(40004, "Not an autocomplete interaction"))
            refuse(limits.choice_problems(data.get("choices") or []))
        if kind in (4, 7):
            problems = limits.message_problems(data, len(files))
            refuse([(("data", *path), code, text) for path, code, text in problems])
            if kind == 4 and limits.is_empty(data, len(files)):
                raise DiscordError(400, limits.json_error(50006, "Cannot send an empty message"))
        interaction.response_type = kind
        interaction.answered_at = time.monotonic()
        double = self.double
        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind in (4, 5):
            flags = int(data.get("flags") or 0) & EPHEMERAL
            if kind == 5:
                data = {"flags": flags | LOADING}
            message = double.new_message(
                interaction.channel_id, interaction.guild_id, data, files, interaction=interaction
            )
            interaction.original = message
        elif kind in (6, 7) and interaction.message_id is not None:
            # A component's update: its message is the interaction's @original from now on.
            message = interaction.original = double.messages.get(interaction.message_id)
            if message is not None and kind == 7:
                message.edit(data, files or None)
        interaction.record(
            Reply(
                "response",
                body,
                message.id if message else None,
                interaction.channel_id,
                {a.filename: a.data for a in files},
            )
        )
        double.changed()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        if message is not None:
            resource["message"] = double.message_payload(message)
        return reply(
            {
                "interaction": {
                    "id": str(interaction.id),
                    "type": interaction.kind,
                    "response_message_id": str(message.id) if message else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(message and message.ephemeral),
                },
                "resource": resource,
            }
        )

    def _webhook(self, request: web.Request) -> Interaction:
        """The interaction behind a webhook token, once acknowledged and within 15 minutes."""
        info = request.match_info
        double = self.double
        if info["application_id"] != str(double.application_id):
            raise unknown("Webhook", 10015)
        interaction = double.by_token.get(info["token"])
        if interaction is None or time.monotonic() - interaction.created > TOKEN_LIFETIME:
            raise unknown("Webhook", 10015)
        if interaction.response_type is None:
            raise unknown("Webhook", 10015)  # nothing acknowledged yet: no webhook to use
        return interaction

    def _webhook_message(self, interaction: Interaction, message_id: str) -> Message:
        """`@original` or a follow-up of the interaction (404 Unknown Message otherwise)."""
        if message_id == "@original":
            if interaction.original is None:
                raise unknown("Message", 10008)
            return interaction.original
        message = self.double.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.interaction_id != interaction.id or message.deleted:
            raise unknown("Message", 10008)
        return message

    async def followup(self, request: web.Request) -> web.Response:
        """A follow-up message (`?wait=true` returns it)."""
        interaction = self._webhook(request)
        body, files = await self._body(request)
        refuse(limits.message_problems(body, len(files)))
        if limits.is_empty(body, len(files)):
            raise DiscordError(400, limits.json_error(50006, "Cannot send an empty message"))
        double = self.double
        original = interaction.original
        uploads = {a.filename: a.data for a in files}
        if original is not None and original.flags & LOADING and not original.edits:
            # The first follow-up after "thinking…" replaces it, with the defer's visibility.
            body = dict(body)
            body["flags"] = (int(body.get("flags") or 0) & ~EPHEMERAL) | (
                original.flags & EPHEMERAL
            )
            original.edit(body, files)
            original.body["flags"] = original.flags & ~LOADING
            message = original
        else:
            message = double.new_message(
                interaction.channel_id, interaction.guild_id, body, files, interaction=interaction
            )
            interaction.followups.append(message)
        interaction.record(Reply("followup", body, message.id, interaction.channel_id, uploads))
        if request.query.get("wait") in ("1", "true", "True"):
            return reply(double.message_payload(message))
        return web.Response(status=204)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        """`GET …/messages/{id}` of an interaction's webhook."""
        interaction = self._webhook(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        return reply(self.double.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        """`PATCH …/messages/{id|@original}`: edit a response or follow-up."""
        interaction = self._webhook(request)
        message_id = request.match_info["message_id"]
        message = self._webhook_message(interaction, message_id)
        body, files = await self._body(request)
        refuse(limits.message_problems(body, len(files)))
        message.edit(body, files if files or "attachments" in body else None)
        message.body["flags"] = message.flags & ~LOADING
        kind = "edit_original" if message_id == "@original" else "edit_message"
        interaction.record(
            Reply(
                kind, body, message.id, interaction.channel_id, {a.filename: a.data for a in files}
            )
        )
        return reply(self.double.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        """`DELETE …/messages/{id|@original}`."""
        interaction = self._webhook(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        message.deleted = True
        interaction.record(Reply("delete", {}, message.id, interaction.channel_id))
        return web.Response(status=204)

    # -- channels and messages -------------------------------------------------------------

    def _channel(self, request: web.Request) -> Any:
        """The channel of the URL, a guild's or a DM channel (404 Unknown Channel otherwise)."""
        raw = request.match_info["channel_id"]
        channel: Channel | DirectChannel | None = None
        if raw.isdigit():
            channel = self.double.channels.get(int(raw))
        if channel is None and raw.isdigit():
            direct = (c for c in self.double.dm_channels.values() if c.id == int(raw))
            channel = next(direct, None)
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    async def get_channel(self, request: web.Request) -> web.Response:
        """`GET /channels/{id}`."""
        channel = self._channel(request)
        return reply(channel.payload(self.double.bot_id))

    async def list_messages(self, request: web.Request) -> web.Response:
        """`GET /channels/{id}/messages`: the newest visible messages first."""
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", "50")), 100)
        found = [
            m
            for m in self.double.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral
        ]
        found.sort(key=lambda m: m.id, reverse=True)
        return reply([self.double.message_payload(m) for m in found[:limit]])

    async def create_message(self, request: web.Request) -> web.Response:
        """A new channel message; a known nonce with `enforce_nonce` gets the same message."""
        channel = self._channel(request)
        double = self.double
        body, files = await self._body(request)
        if channel.bot_denied:
            raise DiscordError(403, limits.json_error(50013, "Missing Permissions"))
        if isinstance(channel, DirectChannel):
            user_id = int(channel.user["id"])
            if user_id in double.closed_dms or not double.shares_a_guild(user_id):
                raise DiscordError(
                    403, limits.json_error(50007, "Cannot send messages to this user")
                )
        refuse(limits.message_problems(body, len(files)))
        if limits.is_empty(body, len(files)):
            raise DiscordError(400, limits.json_error(50006, "Cannot send an empty message"))
        nonce = body.get("nonce")
        if nonce is not None:
            nonce = str(nonce)
            if len(nonce) > 25:
                refuse([(("nonce",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")])
            known = double.nonces.get((channel.id, nonce))
            if known is not None and body.get("enforce_nonce"):
                double.repeated_nonces.append(nonce)
                return reply(double.message_payload(known))
        stored = {
            k: v for k, v in body.items() if k not in ("nonce", "enforce_nonce", "allowed_mentions")
        }
        message = double.new_message(channel.id, channel.guild_id, stored, files, nonce=nonce)
        if nonce is not None:
            double.nonces[(channel.id, nonce)] = message
        return reply(double.message_payload(message))

    async def create_dm(self, request: web.Request) -> web.Response:
        """`POST /users/@me/channels`: the DM channel with `recipient_id`, the same one every
        time. Discord opens it even when the user's direct messages are closed."""
        body, _ = await self._body(request)
        raw = str(body.get("recipient_id", ""))
        channel = self.double.open_dm_channel(int(raw)) if raw.isdigit() else None
        if channel is None:
            raise DiscordError(400, limits.json_error(50033, "Invalid Recipient(s)"))
        return reply(channel.payload(self.double.bot_id))

    def _channel_message(self, request: web.Request) -> Message:
        """The message of the URL in its channel (404 Unknown Message otherwise)."""
        channel = self._channel(request)
        raw = request.match_info["message_id"]
        message = self.double.messages.get(int(raw)) if raw.isdigit() else None
        if message is None or message.channel_id != channel.id or message.deleted:
            raise unknown("Message", 10008)
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        """`GET /channels/{id}/messages/{id}`."""
        return reply(self.double.message_payload(self._channel_message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        """`PATCH /channels/{id}/messages/{id}`: the keys given replace the old."""
        message = self._channel_message(request)
        body, files = await self._body(request)
        refuse(limits.message_problems(body, len(files)))
        message.edit(body, files if files or "attachments" in body else None)
        return reply(self.double.message_payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        """`DELETE /channels/{id}/messages/{id}`."""
        self._channel_message(request).deleted = True
        return web.Response(status=204)

    # -- guilds ----------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> Any:
        """The guild of the URL (404 Unknown Guild otherwise)."""
        raw = request.match_info["guild_id"]
        guild = self.double.guilds.get(int(raw)) if raw.isdigit() else None
        if guild is None:
            raise unknown("Guild", 10004)
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        """`GET /guilds/{id}`: the guild without its channels and members."""
        guild = self._guild(request)
        data = guild.create_payload(self.double.bot_id, members=False, large_threshold=0)
        for key in (
            "channels",
            "members",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            data.pop(key, None)
        return reply(data)

    async def list_members(self, request: web.Request) -> web.Response:
        """Members by id after `after`, at most `limit` (1–1000); needs the intent enabled."""
        guild = self._guild(request)
        if not self.double.privileged_intents & 2:
            raise DiscordError(403, limits.json_error(50001, "Missing Access"))
        limit = int(request.query.get("limit", "1"))
        if not 1 <= limit <= 1000:
            refuse([(("limit",), "NUMBER_TYPE_MAX", "int value should be between 1 and 1000.")])
        after = int(request.query.get("after", "0"))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return reply([m.payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        """`GET /guilds/{id}/members/{user}`."""
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise unknown("Member", 10007)
        return reply(member.payload())

    async def get_roles(self, request: web.Request) -> web.Response:
        """`GET /guilds/{id}/roles`."""
        guild = self._guild(request)
        return reply([r.payload() for r in guild.roles.values()])

    async def get_channels(self, request: web.Request) -> web.Response:
        """`GET /guilds/{id}/channels`."""
        guild = self._guild(request)
        return reply([c.payload(self.double.bot_id) for c in guild.channels.values()])
